"""`trt-why LOG...` (= `trt-why diagnose LOG...`): the cause, the proof, the fix of each log.

Its arguments are declared with the rest of the command line (`cli.parser`); `run` takes the parsed
arguments and returns the exit code.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from troubleshooter import exit_codes
from troubleshooter.cli.shared import silence_stdout, start_up, write
from troubleshooter.errors import InputError
from troubleshooter.render import formats

if TYPE_CHECKING:
    from troubleshooter.render.progress import ProgressBar
    from troubleshooter.render.term import Terminal

PROGRESS_MIN_BYTES = 32 * 1024 * 1024
"""Files smaller than this never show a progress bar (they take well under a second)."""


def _progress_for(path: str, enabled: bool) -> ProgressBar | None:
    """A progress bar on stderr, or None: only on a terminal, never for JSON (see run)."""
    if not enabled or not sys.stderr.isatty() or os.environ.get("TERM") == "dumb":
        return None
    always = os.environ.get("TRT_WHY_PROGRESS") == "always"  # tests and demos: even for a small file
    try:
        size = os.path.getsize(path) if path != "-" else 0
    except OSError:
        size = 0
    if path != "-" and size < PROGRESS_MIN_BYTES and not always:
        return None
    if path.endswith(".gz"):
        size = 0  # the bar counts decompressed bytes: no total to compare with
    from troubleshooter.render.progress import ProgressBar

    return ProgressBar(size or None, sys.stderr, delay=0.0 if always else 0.5, min_interval=0.0 if always else 0.2)


def _output(args: argparse.Namespace) -> tuple[str, Terminal]:
    """The format, and the terminal to fit (a terminal format only): contradictory options are a usage error."""
    from troubleshooter.render.term import Terminal, terminal

    if args.chat and args.format not in (None, "markdown"):
        raise InputError(f"--chat {args.chat} writes Markdown: it cannot be combined with --format {args.format}")
    fmt = "markdown" if args.chat else (args.format or "text")
    if not formats.get(fmt).terminal:
        return fmt, Terminal(width=None, colour=False)
    return fmt, terminal(sys.stdout, no_color=args.no_color)


def run(args: argparse.Namespace) -> int:
    with start_up():
        from troubleshooter import api

        fmt, term = _output(args)
        # Every option is checked (api.Options) before a byte is read; the engine follows --kb and --matcher.
        options = api.Options(trt_version=args.trt_version, platform=args.platform, model=args.model,
                              redact=args.redact, redact_names=args.redact_names, kb_dirs=args.kb,
                              matcher=args.matcher)
        engine = api.get_engine(options.kb_dirs, prefer=options.matcher)
    reports = []
    status = exit_codes.OK
    for path in args.logs or ["-"]:
        # JSON is for programs: no bar (on a terminal it would share the screen with the output).
        progress = _progress_for(path, not args.no_progress and fmt != "json")
        try:
            if path == "-":
                stdin = getattr(sys.stdin, "buffer", None)
                if stdin is None:  # `trt-why - <&-`: no standard input at all
                    raise InputError("no standard input: give a log file, or pipe one in (cat build.log | trt-why -)")
                report = api.diagnose_stream(stdin, options, progress=progress, engine=engine)
            else:
                report = api.diagnose_path(path, options, progress=progress, engine=engine)
        finally:
            if progress is not None:
                progress.close()
        reports.append(report)
        status = max(status, report.exit_status)
    try:
        if args.chat:
            from troubleshooter.render.chat import render_chat

            for report in reports:
                write("\n\n---8<---\n\n".join(render_chat(report, args.chat)) + "\n")
        elif len(reports) == 1:
            write(formats.render(fmt, "report", reports[0], colour=term.colour, verbose=args.verbose, width=term.width))
        else:
            write(formats.render(fmt, "reports", reports, colour=term.colour, verbose=args.verbose, width=term.width))
    except BrokenPipeError:
        # The reader left early (| head): the verdict does not depend on how much of it was read.
        silence_stdout()
    return exit_codes.OK if args.exit_zero else status
