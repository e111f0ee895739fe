"""`trt-why mcp`: serve trt-why over the Model Context Protocol (needs the `mcp` extra;
`troubleshooter.integrations.mcp`)."""

from __future__ import annotations

import argparse

from troubleshooter.cli.shared import need_extra


def run(args: argparse.Namespace) -> int:
    need_extra("mcp", "mcp")
    from troubleshooter.integrations.mcp import serve

    return serve(http=args.http, allow_dirs=args.allow_dir)
