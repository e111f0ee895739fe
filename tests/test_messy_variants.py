"""Real logs are messy: every positive sample log, transformed the ways users paste them,
must keep its top diagnosis, and evidence line numbers must follow the transformation."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from troubleshooter import diagnose
from troubleshooter.evaluate import load_expectation

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
_TAG = re.compile(r"\[([EWIVF])\]")


def _positives() -> list[Path]:
    out = []
    for exp in sorted(SAMPLES.glob("*.expect.yaml")):
        log = exp.with_name(exp.name[: -len(".expect.yaml")] + ".log")
        data = load_expectation(exp)
        if log.is_file() and data.get("top") and log.stat().st_size < 96 * 1024:
            raw = log.read_bytes()
            if not raw.startswith((b"\xff\xfe", b"\xfe\xff")) and b"\r\n" not in raw and b"\x1b" not in raw:
                out.append(log)
    return out


def _lines(raw: bytes) -> list[str]:
    return raw.decode("utf-8").split("\n")


Transform = Callable[[bytes], bytes]
TRANSFORMS: dict[str, Transform] = {
    "crlf": lambda b: b.replace(b"\n", b"\r\n"),
    "windows-paste-blank-lines": lambda b: "\n\n".join(_lines(b)).encode(),
    "ansi-colour": lambda b: _TAG.sub(lambda m: f"\x1b[1;31m[{m.group(1)}]\x1b[0m", b.decode()).encode(),
    "docker-compose": lambda b: "\n".join(f"trt-1  | {ln}" if ln else ln for ln in _lines(b)).encode(),
    "utf16-bom": lambda b: b.decode().encode("utf-16"),
    "gzip": gzip.compress,
}
LOGS = _positives()


def test_there_are_logs_to_transform() -> None:
    assert len(LOGS) >= 30


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_transformed_log_keeps_its_diagnosis(log: Path, name: str) -> None:
    raw = log.read_bytes()
    plain = diagnose(raw, name=log.name)
    messy = diagnose(TRANSFORMS[name](raw), name=log.name)
    assert plain.diagnoses, "the plain log must have a diagnosis"
    assert messy.diagnoses and messy.diagnoses[0].id == plain.diagnoses[0].id
    first = plain.diagnoses[0].evidence[0].line
    got = messy.diagnoses[0].evidence[0].line
    assert got == (2 * first - 1 if name == "windows-paste-blank-lines" else first)
    assert messy.environment.tensorrt_version == plain.environment.tensorrt_version
