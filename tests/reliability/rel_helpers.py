"""Helpers for the hostile-input tests: run the CLI, and check it failed cleanly.

`run_cli(...)` runs `troubleshooter.cli.main(argv)` in this process (the default: no interpreter start,
no re-import, the KB engine stays built). `trt_why(...)` / `popen(...)` start a real process, for what
only a process shows: exit codes seen by a shell, signals, closed pipes and descriptors, start-up.
Both return an object with `returncode`, `stdout` and `stderr` (bytes), so the checks below take either.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]

OOM_LINE = ("[11/22/2024-13:40:09] [E] [TRT] 1: [defaultAllocator.cpp::allocate::20] "
            "Error Code 1: Cuda Runtime (out of memory)")
"""An error line the built-in KB diagnoses as gpu-out-of-memory."""
OOM_ID = "gpu-out-of-memory"
OOM_LOG = "\n".join([
    "[11/22/2024-13:40:08] [I] TensorRT version: 10.3.0",
    "[11/22/2024-13:40:08] [I] [TRT] Loaded engine size: 12 MiB",
    OOM_LINE,
    "[11/22/2024-13:40:09] [E] Engine could not be created from network",
    "[11/22/2024-13:40:09] [E] Building engine failed",
    "&&&& FAILED TensorRT.trtexec [TensorRT v100300] # trtexec --onnx=model.onnx",
]) + "\n"
OOM_LINE_NO = 3
NOISE_LINE = "[11/22/2024-13:40:08] [V] [TRT] Tactic: 0x000000000000001f Time: 0.0123 ms\n"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes more than ~20 s (still run in CI)")


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if extra:
        env.update(extra)
    return env


def _default_sigint() -> None:
    # A shell that starts jobs in the background hands them SIGINT ignored; a user's terminal does not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cli_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "troubleshooter.cli", *args]


def trt_why(*args: str, stdin: bytes | None = None, timeout: float = 120, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[bytes]:
    """Run `python -m troubleshooter.cli ARGS` in a subprocess (never hangs: a timeout fails the test).

    Only where the process itself is under test; everything else uses run_cli()."""
    return subprocess.run(cli_cmd(*args), input=stdin, capture_output=True, timeout=timeout,
                          env=child_env(env), cwd=str(ROOT), preexec_fn=_default_sigint,
                          stdin=None if stdin is not None else subprocess.DEVNULL)


def popen(*args: str, env: dict[str, str] | None = None, **kw: object) -> subprocess.Popen[bytes]:
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.Popen(cli_cmd(*args), env=child_env(env), cwd=str(ROOT),  # type: ignore[call-overload]
                            preexec_fn=_default_sigint, **kw)


# -- in-process runs -------------------------------------------------------------------------------

class Result(NamedTuple):
    """What a run of the CLI left: exit code, and stdout / stderr as the bytes a process would write."""

    returncode: int
    stdout: bytes
    stderr: bytes

    @property
    def code(self) -> int:
        return self.returncode


STARTUP_ONLY_ENV = frozenset({"TRT_WHY_MAX_BYTES", "TRT_WHY_MAX_GZIP_RATIO", "TRT_WHY_MATCH_TIMEOUT",
                              "TRT_WHY_SIGNATURE_BUDGET", "TRT_WHY_MAX_YAML_NODES"})
"""Read once, when the package is imported: in this process, setting them would change nothing."""

HANG_GUARD = 120.0
"""Seconds an in-process run may take before it is stopped and the test fails: a hang guard only (it
stands for the subprocess timeout), not a speed figure; speed is measured in benchmarks/."""


class CliHung(BaseException):  # not an Exception: no `except Exception` in the code swallows it
    """Raised in the main thread when an in-process run passes its hang guard."""


class _Stdin(io.TextIOWrapper):
    """sys.stdin as a pipe would give it: text on top of `.buffer` (bytes), not a terminal."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BufferedReader(io.BytesIO(data)), encoding="utf-8")


@contextmanager
def _hang_guard(seconds: float) -> Iterator[None]:
    import threading

    if seconds <= 0 or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only
        return

    def hung(_signum: int, _frame: object) -> None:
        raise CliHung(f"the in-process CLI run took over {seconds:.0f} s (hang guard)")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _exit_status(code: object, stderr: io.TextIOBase) -> int:
    """What the interpreter makes of `sys.exit(code)` (argparse exits 2 this way)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    stderr.write(f"{code}\n")
    return 1


def run_cli(*args: str, stdin: bytes = b"", env: dict[str, str] | None = None,
            timeout: float = HANG_GUARD) -> Result:
    """`trt-why ARGS` through `troubleshooter.cli.main(argv)` in this process, as a pipe-fed, non-terminal run.

    stdout / stderr are captured as bytes (UTF-8, like a child's pipes), stdin is `stdin` (an empty pipe by
    default), `env` is set for the call. Everything is put back afterwards: the streams, `env`, NO_COLOR
    (removed, as for a child), and any variable the CLI sets itself (`--matcher` sets TRT_WHY_MATCHER).
    Warnings the run emits are written to stderr as a fresh interpreter would show them, so "one line on
    stderr" keeps its meaning. An exception escaping `main` fails the test (a process would print a
    traceback). `timeout` is a hang guard, not a speed check.
    """
    from troubleshooter.cli import main

    late = sorted(STARTUP_ONLY_ENV & set(env or ()))
    if late:
        raise ValueError(f"{late} are read when the package is imported: set on an in-process run they would "
                         "be ignored. Patch the module constant, or use trt_why() (a subprocess).")
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    before = dict(os.environ)
    try:
        with pytest.MonkeyPatch.context() as mp, warnings.catch_warnings(record=True) as caught:
            # A fresh interpreter's warning filters (pytest's own would hide or turn them into errors).
            warnings.resetwarnings()
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", category)
            mp.delenv("NO_COLOR", raising=False)
            for key, value in (env or {}).items():
                mp.setenv(key, value)
            mp.setattr(sys, "stdin", _Stdin(stdin))
            mp.setattr(sys, "stdout", stdout)
            mp.setattr(sys, "stderr", stderr)
            try:
                with _hang_guard(timeout):
                    code = main(list(args))
            except SystemExit as exc:
                code = _exit_status(exc.code, stderr)
            for warning in caught:
                stderr.write(warnings.formatwarning(warning.message, warning.category, warning.filename,
                                                    warning.lineno, warning.line))
    finally:
        # The CLI's own writes to os.environ (monkeypatch only undoes what it set itself).
        for key in set(os.environ) - set(before):
            del os.environ[key]
        for key, value in before.items():
            if os.environ.get(key) != value:
                os.environ[key] = value
    assert isinstance(code, int), f"main() returned {code!r}, not an exit status"
    return Result(code, out.getvalue(), err.getvalue())


# -- checks (for run_cli and subprocess results alike) ----------------------------------------------

def assert_one_line_error(result: Result | subprocess.CompletedProcess[bytes], *words: str) -> str:
    """Exit 2, exactly one line on stderr (naming the problem), nothing on stdout, no traceback."""
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert result.returncode == 2, (result.returncode, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("trt-why: "), err
    for word in words:
        assert word in err, (word, err)
    assert result.stdout == b"", result.stdout[:200]
    return err


def assert_report(result: Result | subprocess.CompletedProcess[bytes], codes: tuple[int, ...] = (0, 1)) -> str:
    """A report on stdout, a documented exit code, no traceback."""
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert result.returncode in codes, (result.returncode, err)
    assert result.stdout, err
    return result.stdout.decode("utf-8", "replace")


def proc_field(pid: int, name: str, key: str) -> int:
    """A number from /proc/PID/NAME (the first word after `key`), 0 once the process has gone."""
    try:
        with open(f"/proc/{pid}/{name}", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(key):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_kib(pid: int) -> int:
    """Resident memory of a live process, in KiB (0 once it has gone)."""
    return proc_field(pid, "status", "VmRSS:")


@pytest.fixture(scope="session")
def engine():  # type: ignore[no-untyped-def]
    """The built-in KB's engine, shared by the in-process tests."""
    from troubleshooter import api

    return api.get_engine()
