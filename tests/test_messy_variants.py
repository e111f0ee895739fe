"""Real logs are messy: every positive sample log, transformed the ways users paste them,
must keep its top diagnosis, and evidence line numbers must follow the transformation."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from troubleshooter import diagnose
from troubleshooter.cli.eval import load_expectation

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


# -- the same on the real corpus: logs users pasted, transformed the ways pastes go wrong ------------
REAL = SAMPLES / "real"
_PUNCT_SPACE = re.compile(r"(?<=[:,=(\[]) | (?=[:,=)\]])")
_GAIN_SPACE = re.compile(r"(?<=\w)(?=[:,)])|(?<=[(\[])(?=\w)")

def _in_payload(rx: re.Pattern[str], repl: str) -> Transform:
    """Apply a substitution to each line's payload only: a paste mangles the message, not the logger's
    own prefix (timestamps, "[TRT] [E]") that the parser recognises."""
    from troubleshooter.core.logs import parse_line

    def apply(b: bytes) -> bytes:
        out = []
        for ln in b.decode("utf-8", "replace").split("\n"):
            text = parse_line(0, ln).text
            cut = ln.rfind(text) if text else -1
            out.append(ln if cut < 0 else ln[:cut] + rx.sub(repl, ln[cut:]))
        return "\n".join(out).encode()

    return apply


PASTE_TRANSFORMS: dict[str, Transform] = {
    "lost-spaces-around-punctuation": _in_payload(_PUNCT_SPACE, ""),
    "gained-spaces-around-punctuation": _in_payload(_GAIN_SPACE, " "),
    "wrapped-at-80-columns": lambda b: "\n".join(
        "\n".join(ln[i:i + 80] for i in range(0, max(len(ln), 1), 80)) for ln in b.decode("utf-8", "replace").split("\n")
    ).encode(),
    "crlf": TRANSFORMS["crlf"],
    "windows-paste-blank-lines": TRANSFORMS["windows-paste-blank-lines"],
    "docker-compose": TRANSFORMS["docker-compose"],
}


def _real_covered() -> list[Path]:
    out = []
    for exp in sorted(REAL.glob("*.expect.yaml")):
        log = exp.with_name(exp.name[: -len(".expect.yaml")] + ".log")
        data = load_expectation(exp)
        if log.is_file() and data.get("top") and not data.get("negative"):
            out.append(log)
    return out


REAL_LOGS = _real_covered()


def test_the_real_corpus_has_covered_logs_to_transform() -> None:
    assert len(REAL_LOGS) >= 200


KEEP_FLOOR = {
    # Share of real logs that keep their first finding through each bad paste (measured 2026-11-24;
    # raise a floor when the engine gets better, never lower it without saying why in the commit).
    "gained-spaces-around-punctuation": 0.91,  # misses: spaces inside optional groups ("error : 35"), after "\\S+" ("name : x")
    "wrapped-at-80-columns": 0.88,  # misses: a wrapped line whose first piece holds neither a literal nor an error tag
    "docker-compose": 0.99,  # misses: multi-line messages whose later lines the prefix hides
}


@pytest.mark.parametrize("name", sorted(PASTE_TRANSFORMS))
def test_real_logs_keep_their_diagnosis_when_pasted_badly(name: str) -> None:
    """Every real log whose plain paste gets its established entry first keeps it through a bad paste,
    with the same exit status."""
    transform = PASTE_TRANSFORMS[name]
    checked, lost = 0, []
    for log in REAL_LOGS:
        top = load_expectation(log.with_name(log.name[: -len(".log")] + ".expect.yaml"))["top"]
        raw = log.read_bytes()
        plain = diagnose(raw, name=log.name)
        if not plain.diagnoses or plain.diagnoses[0].id != top:
            continue  # the eval reports these; here only what a bad paste changes
        checked += 1
        messy = diagnose(transform(raw), name=log.name)
        if not messy.diagnoses or messy.diagnoses[0].id != top or messy.exit_status != plain.exit_status:
            lost.append(f"{log.name}: {top} -> {[d.id for d in messy.diagnoses[:2]]}")
    assert checked >= 150
    kept = 1 - len(lost) / checked
    assert kept >= KEEP_FLOOR.get(name, 1.0), (
        f"{len(lost)} of {checked} real logs lose their diagnosis when {name}: " + "; ".join(lost[:8]))
