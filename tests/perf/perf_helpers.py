"""Helpers for the performance-path tests: behaviour only, never timings."""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from troubleshooter.api import Engine, diagnose_path
from troubleshooter.core.matcher import check_entry, derive
from troubleshooter.kb.cache import load_kb_cached

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"
# The project's log generator; TRT_WHY_GEN_LOG may name another file with the same interface (write_log, parse_size).
GEN_LOG = Path(os.environ.get("TRT_WHY_GEN_LOG", str(ROOT / "benchmarks" / "gen_log.py")))

try:
    import hyperscan  # noqa: F401

    HAVE_HYPERSCAN = True
except ImportError:  # pragma: no cover - aarch64
    HAVE_HYPERSCAN = False


def sample_logs() -> list[Path]:
    return sorted(SAMPLES.glob("*.log"))


def engine(prefer: str) -> Engine:
    """A fresh engine (fresh memo) with this finder."""
    kb, derived = load_kb_cached(check=check_entry, derive=derive)
    return Engine.from_kb(kb, prefer, derived)


def report_json(path: Path | str, eng: Engine) -> str:
    return diagnose_path(path, engine=eng).model_dump_json()


def kb_needles() -> tuple[list[str], list[str], list[str]]:
    """The needles the real matcher gives its finder."""
    prefilter = engine("python").matcher.prefilter
    return list(prefilter.literals), list(prefilter.caseless), list(prefilter.markers)


@functools.cache
def gen_log() -> ModuleType:
    """benchmarks/gen_log.py, imported from its file (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("gen_log", GEN_LOG)
    assert spec is not None and spec.loader is not None, GEN_LOG
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def generate_log(path: Path, size: str, seed: int = 1, **options: Any) -> Path:
    """Write a generated verbose build log of about ``size`` (``3M``) to ``path``, in this process; options
    (plants, layers, fail_rate...) as for gen_log.write_log. The default plants spread errors over the log."""
    gen = gen_log()
    with open(path, "wb") as out:
        gen.write_log(out.write, gen.parse_size(size), seed, **options)
    return path


def brute_force_starts(data: bytes, literals: Sequence[str], caseless: Sequence[str], markers: Sequence[str]) -> list[int]:
    """The definition: starts of the lines holding a literal, a caseless literal, or a marker match."""
    import re

    lits = [x.encode() for x in literals]
    cless = [x.encode().lower() for x in caseless]
    compiled = [re.compile(m.encode(), re.MULTILINE) for m in markers]
    marked: set[int] = set()
    for rx in compiled:
        for m in rx.finditer(data):
            marked.add(data.rfind(b"\n", 0, m.start()) + 1 if m.start() else 0)
    out = []
    pos = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl
        line = data[pos:end]
        if (any(lit in line for lit in lits) or any(c in line.lower() for c in cless) or pos in marked
                or (b"" in lits)):
            out.append(pos)
        if nl < 0:
            break
        pos = nl + 1
    return out
