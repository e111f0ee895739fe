"""Shared fixtures: the repository's paths and a CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"


def run_cli(*args: str, stdin: bytes | None = None, timeout: float = 120, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[bytes]:
    """Run `python -m troubleshooter.cli ARGS` in a subprocess, as a user would."""
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, "-m", "troubleshooter.cli", *args], input=stdin, capture_output=True,
                          timeout=timeout, env=full_env, cwd=str(ROOT))


@pytest.fixture(autouse=True, scope="session")
def _own_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The suite keeps its KB and Hyperscan caches in a folder of this run (shared by its workers, whose
    writes are atomic): it neither reads a user's ~/.cache/trt-why, written by other code, nor fills it.
    Set in os.environ, so the CLI run in a subprocess uses it too."""
    os.environ["TRT_WHY_CACHE_DIR"] = str(tmp_path_factory.getbasetemp().parent / "trt-why-cache")


@pytest.fixture
def cli():  # type: ignore[no-untyped-def]
    return run_cli
