"""`trt-why lint | tui | mcp | eval`: the commands with heavier or optional dependencies.

Their arguments are declared with the rest of the command line (`cli.build_parser`); each function here
takes the parsed arguments and returns the exit code. Dependencies are imported late; a missing extra is
explained in one line (exit 2).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence

from troubleshooter import exit_codes
from troubleshooter.errors import InputError


def _need(module: str, extra: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise InputError(f"this needs the '{extra}' extra: pip install 'trt-why[{extra}]'")


def cmd_lint(args: argparse.Namespace) -> int:
    if args.list_rules:
        from troubleshooter.selftest import lint_rule_ids

        sys.stdout.write("".join(f"{rule}\n" for rule in sorted(lint_rule_ids())))
        return exit_codes.OK
    if not args.model:
        raise InputError("give an ONNX model: trt-why lint model.onnx")
    _need("onnx", "lint")
    from troubleshooter.lint import lint_path
    from troubleshooter.render import formats

    report = lint_path(args.model, trt_version=args.trt_version, polygraphy=args.polygraphy,
                       input_shapes=_parse_shapes(args.input_shapes))
    if formats.get(args.format).terminal:
        from troubleshooter.render.term import terminal

        term = terminal(sys.stdout)
        sys.stdout.write(formats.render(args.format, "lint", report, width=term.width, colour=term.colour))
    else:
        sys.stdout.write(formats.render(args.format, "lint", report))
    return exit_codes.OK if args.exit_zero else report.exit_status


def _parse_shapes(items: Sequence[str]) -> dict[str, list[int]]:
    """`name:[1,3,640,640]` (Polygraphy's syntax) -> {"name": [1, 3, 640, 640]}."""
    import re

    shapes: dict[str, list[int]] = {}
    for item in items:
        m = re.fullmatch(r"(?P<name>.+):\[(?P<dims>\d+(?:\s*,\s*\d+)*)\]", item.strip())
        if m is None:
            raise InputError(f"--input-shapes {item!r}: write it as name:[d0,d1,...], e.g. images:[1,3,640,640]")
        shapes[m.group("name")] = [int(d) for d in m.group("dims").split(",")]
    return shapes


def cmd_tui(args: argparse.Namespace) -> int:
    _need("textual", "tui")
    from troubleshooter.tui.app import run

    return run(log=args.log, model=args.model, trt_version=args.trt_version)


def cmd_mcp(args: argparse.Namespace) -> int:
    _need("mcp", "mcp")
    from troubleshooter.integrations.mcp import serve

    return serve(http=args.http, allow_dirs=args.allow_dir)


def cmd_eval(args: argparse.Namespace) -> int:
    from troubleshooter.evaluate import evaluate
    from troubleshooter.render import formats

    result = evaluate(args.dir, kb_dirs=args.kb, pattern=args.glob)
    sys.stdout.write(formats.render(args.format, "eval", result))
    return exit_codes.OK if result.failures == 0 else exit_codes.FOUND
