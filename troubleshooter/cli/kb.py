"""`trt-why kb ...`: list, show, validate, test, explain, new, schema: one function per subcommand.

Their arguments are declared with the rest of the command line (`cli.parser`); each function takes
the parsed arguments and returns the exit code.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from troubleshooter import exit_codes
from troubleshooter.errors import InputError

if TYPE_CHECKING:
    from troubleshooter.kb.loader import KnowledgeBase
    from troubleshooter.kb.schema import Entry


def kb_schema(args: argparse.Namespace) -> int:
    from troubleshooter.kb.schema import json_schema

    sys.stdout.write(json_schema())
    return exit_codes.OK


def kb_new(args: argparse.Namespace) -> int:
    import re

    from troubleshooter.api import load_kb
    from troubleshooter.kb.schema import ID_PATTERN

    if not re.match(ID_PATTERN, args.id):
        raise InputError(f"{args.id!r}: ids are lowercase words joined by '-' (e.g. my-plugin-crash)")
    from troubleshooter.cli.kb_selftest import SCAFFOLD

    target = Path(args.dir) / f"{args.id}.yaml"
    if args.id in load_kb(args.kb).ids():
        raise InputError(f"{args.id!r} is already a KB entry (built-in or in --kb): choose another id, "
                         f"or see `trt-why kb show {args.id}`")
    if target.exists():
        raise InputError(f"{target}: already exists")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(SCAFFOLD.format(id=args.id, today=dt.date.today().isoformat()), encoding="utf-8")
    print(f"wrote {target}: fill it in, then `trt-why kb --kb {args.dir} test {args.id}`")
    return exit_codes.OK


def _load(args: argparse.Namespace) -> KnowledgeBase:
    from troubleshooter.api import load_kb

    return load_kb(args.kb, strict=args.strict)


def _entry(kb: KnowledgeBase, entry_id: str) -> Entry:
    entry = kb.get(entry_id)
    if entry is None:
        raise InputError(f"no KB entry {entry_id!r}; see `trt-why kb list`")
    return entry


def kb_list(args: argparse.Namespace) -> int:
    kb = _load(args)
    if args.format == "json":
        rows = [{"id": e.id, "title": e.title, "severity": e.severity, "tags": e.tags} for e in kb.entries]
        print(json.dumps(rows, indent=2))
    else:
        sys.stdout.write(_list_text(kb.entries))
    for prob in kb.problems:
        print(f"invalid: {prob}", file=sys.stderr)
    return exit_codes.OK


def kb_show(args: argparse.Namespace) -> int:
    """One entry: as a report words it (text, fitted to a terminal; markdown), or as written (yaml, json)."""
    kb = _load(args)
    entry = _entry(kb, args.id)
    if args.format == "json":
        print(entry.model_dump_json(indent=2))
    elif args.format == "yaml":
        origin = kb.origins.get(entry.id)
        print(Path(origin).read_text(encoding="utf-8") if origin else entry.model_dump_json(indent=2), end="")
    elif args.format == "markdown":
        from troubleshooter.render.entry import entry_markdown

        print(entry_markdown(entry))
    else:
        from troubleshooter.render.entry import render_entry_text
        from troubleshooter.render.term import terminal

        term = terminal(sys.stdout, no_color=args.no_color)
        sys.stdout.write(render_entry_text(entry, colour=term.colour, width=term.width))
    return exit_codes.OK


def kb_validate(args: argparse.Namespace) -> int:
    from troubleshooter.cli.kb_selftest import validate, validate_kinds, validate_packages

    kb = _load(args)
    problems = validate(kb) + _scaffolds(kb) + validate_kinds() + validate_packages()
    for line in problems:
        print(line)
    print(f"{len(kb)} entries, {len(problems)} problem(s)")
    return exit_codes.FOUND if problems else exit_codes.OK


def kb_test(args: argparse.Namespace) -> int:
    from troubleshooter.cli.kb_selftest import run_examples, run_kind_examples

    kb = _load(args)
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
    for res in run_kind_examples() if not wanted else []:  # the outside kinds' examples (kb/outside/kinds.yaml)
        passed += res.ok
        failed += not res.ok
        if not res.ok:
            print(f"FAIL {res.case_id}: {res.message}")
    for prob in kb.problems:
        failed += 1
        print(f"FAIL {prob}")
    print(f"{passed} passed, {failed} failed")
    return exit_codes.FOUND if failed else exit_codes.OK


def kb_explain(args: argparse.Namespace) -> int:
    from troubleshooter.cli.kb_selftest import explain

    entry = _entry(_load(args), args.id)
    from troubleshooter.reading.ingest import open_path

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


SCAFFOLD_TEXT = ("One line saying what went wrong", "Exact message text with", "What actually goes wrong with",
                 "The first thing to try", "What this means on")
"""Sentences of `kb new`'s scaffold: an entry that still has one was not filled in."""


def _scaffolds(kb: KnowledgeBase) -> list[str]:
    """Entries still holding the example text of `trt-why kb new`."""
    out = []
    for entry in kb.entries:
        origin = kb.origins.get(entry.id)
        try:
            text = Path(origin).read_text(encoding="utf-8") if origin else entry.model_dump_json()
        except OSError:
            continue
        left = [s for s in SCAFFOLD_TEXT if s in text]
        if left:
            out.append(f"{entry.id}: still the scaffold of `trt-why kb new` ({len(left)} example text(s) left, "
                       f"e.g. {left[0]!r}): fill in the title, signatures, causes and fixes")
    return out


def _list_text(entries: Sequence[Entry]) -> str:
    """id, severity, title: fitted to a terminal (titles wrap in their column), one line each when piped."""
    from troubleshooter.render.term import terminal

    term = terminal(sys.stdout)
    if not entries:
        return ""
    idw = max(len(e.id) for e in entries)
    plain = "".join(f"{e.id:<{idw}}  {e.severity:<7}  {e.title}\n" for e in entries)
    if term.width is None and not term.colour:
        return plain
    try:
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text
    except ImportError:  # the base install: the terminal wraps long titles itself
        return plain

    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    style = {"error": "red", "warning": "yellow", "info": "cyan"}
    for e in entries:
        table.add_row(e.id, Text(e.severity, style=style.get(e.severity, "")), e.title)
    console = Console(width=term.width or 100_000, force_terminal=term.colour, no_color=not term.colour,
                      color_system="standard" if term.colour else None, highlight=False, _environ={})
    with console.capture() as cap:
        console.print(table, soft_wrap=term.width is None)
    return "\n".join(line.rstrip() for line in cap.get().split("\n")).rstrip() + "\n"
