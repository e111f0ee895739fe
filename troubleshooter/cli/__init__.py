"""The command line: `trt-why`, one argparse parser with a subcommand per way in; `diagnose` is the default.

    trt-why build.log [more.log.gz ...] [--format text|json|markdown]    (= trt-why diagnose ...)
    trt-why -                      (stdin)
    trt-why kb list|show|validate|test|explain|new|schema
    trt-why lint model.onnx        trt-why tui [build.log]     trt-why mcp
    trt-why scan DIR...            trt-why eval DIR

One module per command group, each imported only when its command runs:

=================  ==========================================================================
``parser``         the whole parser (`build_parser`, `COMMANDS`): imports nothing heavy
``diagnose``       `trt-why LOG`: the default command
``lint``           `trt-why lint`           ``tui``   `trt-why tui`       ``mcp``   `trt-why mcp`
``scan``           `trt-why scan`: many logs at once (fleet mode)
``eval``           `trt-why eval`: the KB measured on labelled logs
``kb``             `trt-why kb ...`; ``kb_selftest``: what `kb validate | test | explain` check
``shared``         what several commands use (stdout, a broken pipe, a missing extra)
=================  ==========================================================================

This module is the way in: `main(argv)` parses and runs one command and returns its exit code (it never
exits); `entry()`, the `trt-why` console script and `python -m troubleshooter.cli`, exits with it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from troubleshooter import exit_codes
from troubleshooter.cli.parser import COMMANDS, Command, build_parser, command_argv
from troubleshooter.cli.shared import kept_programs, one_shot_process, silence_stdout, start_up
from troubleshooter.errors import InputError, TroubleshooterError

__all__ = ["COMMANDS", "build_parser", "check_kb_dirs", "command_argv", "entry", "main"]


def check_kb_dirs(dirs: Sequence[str]) -> None:
    """`--kb DIR` must name a folder: a typo is a usage error (exit 2), not a note under a report."""
    for folder in dirs:
        if not os.path.isdir(folder):
            raise InputError(f"--kb {folder}: no such folder")


def _err(message: str) -> int:
    sys.stderr.write(f"trt-why: {message}\n")
    return exit_codes.ERROR


def main(argv: Sequence[str] | None = None) -> int:
    """Run `trt-why ARGV` (default: sys.argv[1:]) and return its exit code (troubleshooter.exit_codes)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            with kept_programs():
                return _dispatch(argv)
        finally:
            with contextlib.suppress(BrokenPipeError, ValueError):
                sys.stdout.flush()
    except KeyboardInterrupt:
        sys.stderr.write("trt-why: interrupted\n")
        return exit_codes.INTERRUPTED
    except BrokenPipeError:
        # Output went to a closed pipe (| head) outside the report itself: nothing more to say.
        silence_stdout()
        return exit_codes.OK
    except TroubleshooterError as exc:
        return _err(str(exc))
    except MemoryError:
        return _err("out of memory while reading the input")


def _dispatch(argv: list[str]) -> int:
    # `trt-why` alone on a terminal: the app (even with a file named tui here).
    argv = ["tui"] if not argv and sys.stdin.isatty() and sys.stdout.isatty() else command_argv(argv)
    with start_up():
        args = build_parser(argv[0]).parse_args(argv)
    check_kb_dirs(getattr(args, "kb", ()))
    run: Command = args.run
    return run(args)


def entry() -> NoReturn:
    """The `trt-why` command: `main`, then exit with its status. After Ctrl+C the process ends at once
    with 130, as a shell expects, without the interpreter's teardown: CPython may otherwise end such a
    process with SIGINT itself (status -2) when the interrupt landed inside code it ran from a string
    (a dataclass or a pydantic model being built), even though the interrupt was handled here.

    The one-shot report (`diagnose`) ends the same way once its output is flushed: the interpreter's
    teardown would free the KB's and the models' objects one by one, ~60 ms of a ~500 ms run here, and
    that command leaves nothing for a teardown to do (no child process, no temporary file, its KB
    cache written before it returns)."""
    argv = sys.argv[1:]
    one_shot_process()
    code = main()
    if code == exit_codes.INTERRUPTED or (argv and command_argv(argv)[0] == "diagnose"):
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)
    sys.exit(code)
