"""`trt-why tui [build.log]`: the Textual app (needs the `tui` extra; `troubleshooter.tui`)."""

from __future__ import annotations

import argparse

from troubleshooter.cli.shared import need_extra


def run(args: argparse.Namespace) -> int:
    need_extra("textual", "tui")
    from troubleshooter.tui.app import run as run_app

    return run_app(log=args.log, model=args.model, trt_version=args.trt_version)
