"""`trt-why lint model.onnx`: TensorRT-aware checks of an ONNX model (needs the `lint` extra).

Its arguments are declared with the rest of the command line (`cli.parser`); `run` takes the parsed
arguments and returns the exit code. onnx is imported late; without it, one line says which extra to
install (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from troubleshooter import exit_codes
from troubleshooter.cli.shared import need_extra
from troubleshooter.errors import InputError


def run(args: argparse.Namespace) -> int:
    if args.list_rules:
        from troubleshooter.cli.kb_selftest import lint_rule_ids

        sys.stdout.write("".join(f"{rule}\n" for rule in sorted(lint_rule_ids())))
        return exit_codes.OK
    if not args.model:
        raise InputError("give an ONNX model: trt-why lint model.onnx")
    need_extra("onnx", "lint")
    from troubleshooter.lint import lint_path
    from troubleshooter.render import formats

    report = lint_path(args.model, trt_version=args.trt_version, polygraphy=args.polygraphy,
                       input_shapes=parse_shapes(args.input_shapes))
    if formats.get(args.format).terminal:
        from troubleshooter.render.term import terminal

        term = terminal(sys.stdout)
        sys.stdout.write(formats.render(args.format, "lint", report, width=term.width, colour=term.colour))
    else:
        sys.stdout.write(formats.render(args.format, "lint", report))
    return exit_codes.OK if args.exit_zero else report.exit_status


def parse_shapes(items: Sequence[str]) -> dict[str, list[int]]:
    """`name:[1,3,640,640]` (Polygraphy's syntax) -> {"name": [1, 3, 640, 640]}."""
    import re

    shapes: dict[str, list[int]] = {}
    for item in items:
        m = re.fullmatch(r"(?P<name>.+):\[(?P<dims>\d+(?:\s*,\s*\d+)*)\]", item.strip())
        if m is None:
            raise InputError(f"--input-shapes {item!r}: write it as name:[d0,d1,...], e.g. images:[1,3,640,640]")
        shapes[m.group("name")] = [int(d) for d in m.group("dims").split(",")]
    return shapes
