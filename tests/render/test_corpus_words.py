"""Every report of both corpora, in every format, says nothing meant for KB authors or programs (#16).

No unfilled placeholders (‹name›, <the ...>), no raw capture names used as labels, no "1 lines",
no "+N more" larger than what exists, no author notes of the KB as clues, no bare range lists when
the TensorRT version is unknown.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path

import pytest

from troubleshooter import api
from troubleshooter.models import Report
from troubleshooter.render import render
from troubleshooter.render.chat import render_chat

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted([*ROOT.glob("sample_logs/*.log"), *ROOT.glob("sample_logs/*.log.gz"),
               *ROOT.glob("sample_logs/real/*.log")])

PLACEHOLDER = re.compile(r"‹[^›\n]*›|<the [^>\n]*>|&lt;the [^\n]*?&gt;")
ONE_LINES = re.compile(r"\b1 lines\b|\b1 line\(s\)")
MORE = re.compile(r"\+(\d+) more lines? like this")
DISTINCT = re.compile(r"\d+\+? distinct\b")
RANGE_LIST = re.compile(r"\b(?:affected|fixed|changed|unknown|not-applicable) on [<>=]")
RAW_RANGE_CELL = re.compile(r"\| `?[<>]=?\d")


NAMES = sorted(str(p.relative_to(ROOT)) for p in LOGS)


@cache
def report_of(name: str) -> Report:
    """A log's report, made once and only in the worker that runs its chunk (xdist spreads the chunks)."""
    return api.diagnose_path(ROOT / name, engine=api.get_engine())


@lru_cache(maxsize=1)
def author_notes() -> tuple[str, ...]:
    notes = {" ".join((sig.note or "").split()) for e in api.load_kb().entries for sig in e.match.signatures}
    return tuple(sorted(n for n in notes if len(n) >= 20))


def outputs(report: Report) -> dict[str, str]:
    out = {
        "text": render(report, "text"),
        "text-verbose": render(report, "text", verbose=True),
        "text-80": render(report, "text", width=80),
        "markdown": render(report, "markdown"),
        "json": render(report, "json"),
    }
    for flavour in ("slack", "discord", "github"):
        out[f"chat-{flavour}"] = "\n".join(render_chat(report, flavour))
    return out


def problems(report: Report) -> list[str]:
    found: list[str] = []
    names = {k for d in report.diagnoses for k in d.capture_values}
    for fmt, text in outputs(report).items():
        flat = " ".join(text.split())
        if fmt != "json":
            found += [f"{fmt}: placeholder {m.group(0)!r}" for m in PLACEHOLDER.finditer(text)]
            found += [f"{fmt}: {m.group(0)!r}" for m in ONE_LINES.finditer(text)]
            found += [f"{fmt}: capture-value label {m.group(0)!r}" for m in DISTINCT.finditer(text)]
            found += [f"{fmt}: range list {m.group(0)!r}" for m in RANGE_LIST.finditer(flat)]
            found += [f"{fmt}: raw range in a table {m.group(0)!r}" for m in RAW_RANGE_CELL.finditer(text)]
            for name in names:
                if re.search(rf"^  {re.escape(name)}\s+\S", text, re.M) or f"**{name}**" in text \
                        or f"*{name}*" in text:
                    found.append(f"{fmt}: capture name {name!r} used as a label")
            found += [f"{fmt}: author note {n[:50]!r}" for n in author_notes() if n in flat]
        elif "‹" in text:
            found.append("json: placeholder ‹›")
        for m in MORE.finditer(text):
            if int(m.group(1)) >= report.source.lines:
                found.append(f"{fmt}: {m.group(0)!r} on a {report.source.lines}-line log")
    return found


@pytest.mark.parametrize("chunk", range(8))
def test_no_internal_words_in_any_report(chunk: int) -> None:
    names = NAMES[chunk::8]
    bad = {name: problems(report_of(name)) for name in names}
    bad = {k: v[:3] for k, v in bad.items() if v}
    assert not bad, f"{len(bad)} reports print internal words, e.g. {dict(list(bad.items())[:5])}"


def test_corpus_is_there() -> None:
    assert len(LOGS) > 500
