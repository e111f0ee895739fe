"""`trt-why kb ...`: list, show, validate, test, explain, new, schema."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from troubleshooter import exit_codes
from troubleshooter.errors import InputError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="trt-why kb", description="The knowledge base of known TensorRT failures.")
    p.add_argument("--kb", action="append", default=[], metavar="DIR", help="extra KB folder (repeatable)")
    p.add_argument("--strict", action="store_true", help="fail on the first invalid entry")
    sub = p.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list", help="every entry: id, severity, title")
    ls.add_argument("--format", choices=("text", "json"), default="text")
    show = sub.add_parser("show", help="one entry in full")
    show.add_argument("id")
    show.add_argument("--format", choices=("yaml", "json"), default="yaml")
    sub.add_parser("validate", help="schema, conventions, regex safety")
    test = sub.add_parser("test", help="run every entry's examples")
    test.add_argument("ids", nargs="*", help="only these entries")
    ex = sub.add_parser("explain", help="why an entry did or did not match a log")
    ex.add_argument("id")
    ex.add_argument("log")
    ex.add_argument("--trt-version")
    new = sub.add_parser("new", help="scaffold a new entry")
    new.add_argument("id")
    new.add_argument("--dir", default="kb", help="folder to write it in (default: ./kb)")
    sub.add_parser("schema", help="print the JSON Schema of an entry")
    return p


def cmd_kb(argv: Sequence[str]) -> int:  # noqa: C901, PLR0912, PLR0915  # one branch per subcommand; becomes subparsers with one function each (#15)
    args = _parser().parse_args(argv)
    from troubleshooter.kb.loader import load_kb
    from troubleshooter.kb.schema import ID_PATTERN, json_schema

    if args.cmd == "schema":
        sys.stdout.write(json_schema())
        return exit_codes.OK
    if args.cmd == "new":
        import re

        if not re.match(ID_PATTERN, args.id):
            raise InputError(f"{args.id!r}: ids are lowercase words joined by '-' (e.g. my-plugin-crash)")
        from troubleshooter.kb.selftest import SCAFFOLD

        target = Path(args.dir) / f"{args.id}.yaml"
        if target.exists():
            raise InputError(f"{target}: already exists")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(SCAFFOLD.format(id=args.id, today=dt.date.today().isoformat()), encoding="utf-8")
        print(f"wrote {target}: fill it in, then `trt-why kb --kb {args.dir} test {args.id}`")
        return exit_codes.OK
    kb = load_kb(args.kb, strict=args.strict)
    if args.cmd == "list":
        if args.format == "json":
            rows = [{"id": e.id, "title": e.title, "severity": e.severity, "tags": e.tags} for e in kb.entries]
            print(json.dumps(rows, indent=2))
        else:
            for e in kb.entries:
                print(f"{e.id:<38} {e.severity:<8} {e.title}")
        for prob in kb.problems:
            print(f"invalid: {prob}", file=sys.stderr)
        return exit_codes.OK
    if args.cmd == "show":
        entry = kb.get(args.id)
        if entry is None:
            raise InputError(f"no KB entry {args.id!r}; see `trt-why kb list`")
        if args.format == "json":
            print(entry.model_dump_json(indent=2))
        else:
            origin = kb.origins.get(entry.id)
            print(Path(origin).read_text(encoding="utf-8") if origin else entry.model_dump_json(indent=2), end="")
        return exit_codes.OK
    if args.cmd == "validate":
        from troubleshooter.kb.selftest import validate

        problems = validate(kb)
        for line in problems:
            print(line)
        print(f"{len(kb)} entries, {len(problems)} problem(s)")
        return exit_codes.FOUND if problems else exit_codes.OK
    if args.cmd == "test":
        from troubleshooter.kb.selftest import run_examples

        wanted = set(args.ids)
        unknown = wanted - set(kb.ids())
        if unknown:
            raise InputError(f"no KB entry {min(unknown)!r}")
        passed = failed = 0
        for entry in kb.entries:
            if wanted and entry.id not in wanted:
                continue
            for res in run_examples(entry):
                if res.ok:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL {res.case_id}: {res.message}")
        for prob in kb.problems:
            failed += 1
            print(f"FAIL {prob}")
        print(f"{passed} passed, {failed} failed")
        return exit_codes.FOUND if failed else exit_codes.OK
    if args.cmd == "explain":
        from troubleshooter.kb.selftest import explain

        entry = kb.get(args.id)
        if entry is None:
            raise InputError(f"no KB entry {args.id!r}; see `trt-why kb list`")
        from troubleshooter.core.ingest import open_path

        opened = open_path(args.log)
        data = bytearray()
        while True:
            chunk = opened.stream.read(1 << 20)
            if not chunk:
                break
            data += chunk
            if len(data) > 64 * 1024 * 1024:
                raise InputError(f"{args.log}: larger than 64 MiB; `kb explain` is for a focused log")
        opened.stream.close()
        print(f"{entry.id} on {args.log}:")
        for line in explain(entry, data.decode("utf-8", errors="replace"), args.trt_version):
            print(line)
        return exit_codes.OK
    return exit_codes.ERROR
