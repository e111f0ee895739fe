"""Helpers for the hostile-input tests: run the CLI as a user would, and check it failed cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

OOM_LINE = ("[11/22/2024-13:40:09] [E] [TRT] 1: [defaultAllocator.cpp::allocate::20] "
            "Error Code 1: Cuda Runtime (out of memory)")
"""An error line the built-in KB diagnoses as gpu-out-of-memory."""
OOM_ID = "gpu-out-of-memory"
OOM_LOG = "\n".join([  # noqa: FLY002 - one line per list item reads best
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
    """Run `python -m troubleshooter.cli ARGS` in a subprocess (never hangs: a timeout fails the test)."""
    return subprocess.run(cli_cmd(*args), input=stdin, capture_output=True, timeout=timeout,
                          env=child_env(env), cwd=str(ROOT), preexec_fn=_default_sigint,
                          stdin=None if stdin is not None else subprocess.DEVNULL)


def popen(*args: str, env: dict[str, str] | None = None, **kw: object) -> subprocess.Popen[bytes]:
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.Popen(cli_cmd(*args), env=child_env(env), cwd=str(ROOT),  # type: ignore[call-overload]
                            preexec_fn=_default_sigint, **kw)


def assert_one_line_error(result: subprocess.CompletedProcess[bytes], *words: str) -> str:
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


def assert_report(result: subprocess.CompletedProcess[bytes], codes: tuple[int, ...] = (0, 1)) -> str:
    """A report on stdout, a documented exit code, no traceback."""
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert result.returncode in codes, (result.returncode, err)
    assert result.stdout, err
    return result.stdout.decode("utf-8", "replace")


def rss_kib(pid: int) -> int:
    """Resident memory of a live process, in KiB (0 once it has gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


@pytest.fixture(scope="session")
def engine():  # type: ignore[no-untyped-def]
    """The built-in KB's engine, shared by the in-process tests."""
    from troubleshooter import api

    return api.get_engine()
