"""What several commands use: writing to stdout, a broken pipe, a missing extra, a start-up without collections."""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import marshal
import os
import sys
from collections.abc import Iterator

from troubleshooter import re_programs as programs
from troubleshooter.envvars import cache_dir, cache_off, keep_cached
from troubleshooter.errors import InputError


def write(text: str) -> None:
    """`text` on stdout, flushed (a reader that leaves early raises BrokenPipeError here, not at exit)."""
    sys.stdout.write(text)
    sys.stdout.flush()


def silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def need_extra(module: str, extra: str) -> None:
    """InputError (exit 2, one line) naming the extra to install when `module` is not installed."""
    if importlib.util.find_spec(module) is None:
        raise InputError(f"this needs the '{extra}' extra: pip install 'trt-why[{extra}]'")


_ONE_SHOT = [False]
"""True once `cli.entry` runs: this process runs one command and exits (see `start_up`)."""


def one_shot_process() -> None:
    """Called by the console script: objects built during start-up will live until the process ends."""
    _ONE_SHOT[0] = True


@contextlib.contextmanager
def start_up() -> Iterator[None]:
    """A block that only builds long-lived objects (the parser, the models, the KB and its matcher: ~100k
    objects), run without the cyclic garbage collector. In the console script's process they are then
    frozen (`gc.freeze`): no collection traverses them again, where CPython would otherwise do so on
    every generation they pass through, ~40 ms of a one-shot run here (benchmarks/bench_startup.py).
    Called through `main()` inside another program (tests, a notebook), the block only runs with the
    collector paused: freezing there would keep that program's uncollected garbage for ever."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _ONE_SHOT[0]:
            gc.freeze()
        if was:
            gc.enable()


_SEEDED = [False]


@contextlib.contextmanager
def kept_programs() -> Iterator[None]:
    """Around a command: the `re` programs kept in the cache folder are handed to `re_programs` before the
    core is imported (the first time in a process), and the ones this command made are written back after it
    (a marshal file per interpreter, `programs-<runtime>.marshal`: ~70 ms of a one-shot run, see that module).
    A cache that cannot be read or written is ignored; TRT_WHY_NO_CACHE=1 turns it off."""
    path = None if cache_off() or not programs.RUNTIME else cache_dir() / f"programs-{programs.RUNTIME}.marshal"
    if path is not None and not _SEEDED[0]:
        _SEEDED[0] = True
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            programs.seed(marshal.loads(path.read_bytes()))
    try:
        yield
    finally:
        table = programs.export() if path is not None else None
        if path is not None and table is not None:
            with contextlib.suppress(ValueError):
                keep_cached(path, marshal.dumps(table))
