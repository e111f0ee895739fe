"""The command line. Parses arguments, reads files, picks a renderer, prints, exits.

    trt-why build.log [more.log.gz ...] [--format text|json|markdown]
    trt-why -                      (stdin)
    trt-why kb list|show|validate|test|explain|new|schema
    trt-why lint model.onnx        trt-why tui [build.log]     trt-why mcp
    trt-why scan DIR...            trt-why eval DIR
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from troubleshooter import exit_codes
from troubleshooter.errors import InputError, TroubleshooterError

if TYPE_CHECKING:
    from troubleshooter.render.term import Terminal

SUBCOMMANDS = ("kb", "lint", "tui", "mcp", "scan", "eval", "diagnose")


def exit_codes_help(found: str = "the log shows a failure, or a warning diagnosis (--exit-zero: 0)",
                    ok: str = "analysed: no failure, nothing of severity error or warning") -> str:
    """The `Exit codes:` block of a --help (the README lists the same)."""
    return (f"Exit codes:\n  {exit_codes.OK:<4} {ok}\n  {exit_codes.FOUND:<4} {found}\n"
            f"  {exit_codes.ERROR:<4} usage or input error (one line on stderr)\n"
            f"  {exit_codes.INTERRUPTED:<4} interrupted (Ctrl+C)\n")


def _diagnose_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="trt-why",
        description="Why did my TensorRT build fail? Reads a log, answers with the cause, the proof and the fix.",
        epilog="Other commands: trt-why kb | lint | tui | mcp | scan | eval (each has --help).\n\n"
        + exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("logs", nargs="*", metavar="LOG", help="log files (.gz ok); '-' for stdin")
    p.add_argument("-f", "--format", choices=("text", "json", "markdown"), default=None,
                   help="text (default), json or markdown")
    p.add_argument("--chat", choices=("slack", "discord", "github"),
                   help="Markdown sized for a chat (implies --format markdown)")
    p.add_argument("--trt-version", metavar="X", help="TensorRT version, when the log does not say (e.g. 8.6.1)")
    p.add_argument("--platform", choices=("linux", "windows", "wsl", "jetson"),
                   help="where TensorRT runs, when the log does not say")
    p.add_argument("--model", metavar="ONNX", help="confirm the diagnosis on the ONNX model (needs trt-why[lint])")
    p.add_argument("--kb", action="append", default=[], metavar="DIR", help="extra KB folder (repeatable)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when a failure is found")
    p.add_argument("--redact", action="store_true", help="hide user names, paths, hosts and IPs in evidence")
    p.add_argument("--redact-names", action="store_true", help="also hide node and tensor names")
    p.add_argument("--no-color", action="store_true",
                   help="no ANSI colours (also NO_COLOR=1; FORCE_COLOR=1 colours a pipe too)")
    p.add_argument("-v", "--verbose", action="store_true", help="show every diagnosis in full")
    p.add_argument("--matcher", choices=("auto", "python", "hyperscan"), default=None, help=argparse.SUPPRESS)
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return p


def _err(message: str) -> int:
    sys.stderr.write(f"trt-why: {message}\n")
    return exit_codes.ERROR


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


PROGRESS_MIN_BYTES = 32 * 1024 * 1024
"""Files smaller than this never show a progress bar (they take well under a second)."""


def _progress_for(path: str, enabled: bool):  # type: ignore[no-untyped-def]
    """A progress bar on stderr, or None: only on a terminal, never for JSON (see cmd_diagnose)."""
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
    """The format, and the terminal to fit (text only): contradictory options are a usage error."""
    from troubleshooter.render.term import Terminal, terminal

    if args.chat and args.format not in (None, "markdown"):
        raise InputError(f"--chat {args.chat} writes Markdown: it cannot be combined with --format {args.format}")
    fmt = "markdown" if args.chat else (args.format or "text")
    if fmt != "text":
        return fmt, Terminal(width=None, colour=False)
    return fmt, terminal(sys.stdout, no_color=args.no_color)


def cmd_diagnose(argv: Sequence[str]) -> int:
    args = _diagnose_parser().parse_args(argv)
    from troubleshooter import api
    from troubleshooter.render import render

    fmt, term = _output(args)
    check_kb_dirs(args.kb)
    logs = args.logs or ["-"]
    if args.matcher:
        os.environ["TRT_WHY_MATCHER"] = args.matcher
    reports = []
    status = exit_codes.OK
    engine = api.get_engine(args.kb)
    for path in logs:
        # JSON is for programs: no bar (on a terminal it would share the screen with the output).
        progress = _progress_for(path, not args.no_progress and fmt != "json")
        common = {"model": args.model, "trt_version": args.trt_version, "platform": args.platform,
                  "redact": args.redact, "redact_names": args.redact_names, "engine": engine}
        try:
            if path == "-":
                stdin = getattr(sys.stdin, "buffer", None)
                if stdin is None:  # `trt-why - <&-`: no standard input at all
                    raise InputError("no standard input: give a log file, or pipe one in (cat build.log | trt-why -)")
                report = api.diagnose_stream(stdin, progress=progress, **common)
            else:
                report = api.diagnose_path(path, progress=progress, **common)
        except TroubleshooterError as exc:
            if progress is not None:
                progress.close()
            return _err(str(exc))
        if progress is not None:
            progress.close()
        reports.append(report)
        status = max(status, report.exit_status)
    result = exit_codes.OK if args.exit_zero else status
    try:
        if fmt == "json" and len(reports) > 1:
            from troubleshooter.render.json import render_json_many

            _write(render_json_many(reports))
        else:
            for i, report in enumerate(reports):
                if args.chat:
                    chunks = report.to_chat(args.chat)
                    _write("\n\n---8<---\n\n".join(chunks) + "\n")
                else:
                    if i:
                        _write("\n")
                    _write(render(report, fmt, colour=term.colour, verbose=args.verbose, width=term.width))
    except BrokenPipeError:
        # The reader left early (| head): the verdict does not depend on how much of it was read.
        _silence_stdout()
    return result


def check_kb_dirs(dirs: Sequence[str]) -> None:
    """`--kb DIR` must name a folder: a typo is a usage error (exit 2), not a note under a report."""
    for folder in dirs:
        if not os.path.isdir(folder):
            raise InputError(f"--kb {folder}: no such folder")


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            return _dispatch(argv)
        finally:
            with contextlib.suppress(BrokenPipeError, ValueError):
                sys.stdout.flush()
    except KeyboardInterrupt:
        sys.stderr.write("trt-why: interrupted\n")
        return exit_codes.INTERRUPTED
    except BrokenPipeError:
        # Output went to a closed pipe (| head) outside the report itself: nothing more to say.
        _silence_stdout()
        return exit_codes.OK
    except TroubleshooterError as exc:
        return _err(str(exc))
    except MemoryError:
        return _err("out of memory while reading the input")


def _dispatch(argv: list[str]) -> int:
    if not argv:
        if sys.stdin.isatty() and sys.stdout.isatty():
            from troubleshooter.cli_extra import cmd_tui

            return cmd_tui([])
        return cmd_diagnose([])
    head = argv[0]
    if head in SUBCOMMANDS and not (head != "diagnose" and os.path.isfile(head) and len(argv) == 1):
        rest = argv[1:]
        if head == "diagnose":
            return cmd_diagnose(rest)
        if head == "kb":
            from troubleshooter.cli_kb import cmd_kb

            return cmd_kb(rest)
        from troubleshooter import cli_extra

        return int(getattr(cli_extra, f"cmd_{head}")(rest))
    return cmd_diagnose(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
