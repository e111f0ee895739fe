"""`trt-why lint | tui | mcp | scan | eval`: the commands with heavier or optional dependencies.

Each imports its dependencies late; a missing extra is explained in one line (exit 2).
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


def cmd_lint(argv: Sequence[str]) -> int:
    from troubleshooter.cli import exit_codes_help

    p = argparse.ArgumentParser(prog="trt-why lint", description="TensorRT-aware checks of an ONNX model.",
                                epilog=exit_codes_help("a finding of level error or warning (--exit-zero: 0)",
                                                       ok="no finding of level error or warning"),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", nargs="?", help="the .onnx file")
    p.add_argument("--list-rules", action="store_true", help="print the rule ids and exit")
    p.add_argument("-f", "--format", choices=("text", "json", "markdown", "sarif"), default="text")
    p.add_argument("--trt-version", help="target TensorRT version (selects version-dependent rules)")
    p.add_argument("--polygraphy", action="store_true", help="also run `polygraphy check lint` and merge")
    p.add_argument("--input-shapes", nargs="+", default=[], metavar="NAME:[D,...]",
                   help="shapes of dynamic inputs for --polygraphy, e.g. images:[1,3,640,640]")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when a finding is an error or warning")
    args = p.parse_args(argv)
    if args.list_rules:
        from troubleshooter.kb.selftest import lint_rule_ids

        sys.stdout.write("".join(f"{rule}\n" for rule in sorted(lint_rule_ids())))
        return exit_codes.OK
    if not args.model:
        raise InputError("give an ONNX model: trt-why lint model.onnx")
    _need("onnx", "lint")
    from troubleshooter.lint import lint_path
    from troubleshooter.lint.render import render_lint

    report = lint_path(args.model, trt_version=args.trt_version, polygraphy=args.polygraphy,
                       input_shapes=_parse_shapes(args.input_shapes))
    if args.format == "text":
        from troubleshooter.render.term import terminal

        term = terminal(sys.stdout)
        sys.stdout.write(render_lint(report, "text", width=term.width, colour=term.colour))
    else:
        sys.stdout.write(render_lint(report, args.format))
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


def cmd_tui(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="trt-why tui", description="Walk through causes, version advice and fixes.")
    p.add_argument("log", nargs="?", help="a log to open")
    p.add_argument("--model", help="an ONNX model to lint")
    p.add_argument("--trt-version")
    args = p.parse_args(argv)
    _need("textual", "tui")
    from troubleshooter.tui.app import run

    return int(run(log=args.log, model=args.model, trt_version=args.trt_version) or 0)


def cmd_mcp(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="trt-why mcp", description="Serve trt-why over the Model Context Protocol.")
    p.add_argument("--http", metavar="HOST:PORT", help="streamable HTTP instead of stdio (e.g. 127.0.0.1:8765)")
    p.add_argument("--allow-dir", action="append", default=[], metavar="DIR",
                   help="folders whose ONNX models lint_onnx_model may read (none by default)")
    args = p.parse_args(argv)
    _need("mcp", "mcp")
    from troubleshooter.integrations.mcp import serve

    return int(serve(http=args.http, allow_dirs=args.allow_dir) or 0)


def cmd_scan(argv: Sequence[str]) -> int:
    from troubleshooter.fleet import main as fleet_main

    return int(fleet_main(argv))


def cmd_eval(argv: Sequence[str]) -> int:
    from troubleshooter.cli import exit_codes_help

    p = argparse.ArgumentParser(prog="trt-why eval", description="Measure the KB on labelled logs.",
                                epilog=exit_codes_help("a log's expectation is not met", ok="every expectation met"),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir", help="folder of NAME.log files with NAME.expect.yaml expectations")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    p.add_argument("--kb", action="append", default=[], metavar="DIR", help="extra KB folder (repeatable)")
    p.add_argument("--glob", default="*", help="only logs whose name matches, e.g. 'h-*'")
    args = p.parse_args(argv)
    from troubleshooter.cli import check_kb_dirs

    check_kb_dirs(args.kb)
    from troubleshooter.evaluate import evaluate, render_eval

    result = evaluate(args.dir, kb_dirs=args.kb, pattern=args.glob)
    sys.stdout.write(render_eval(result, args.format))
    return exit_codes.OK if result.failures == 0 else exit_codes.FOUND
