"""`trt-why eval DIR`: how well the KB does on labelled logs.

Every ``NAME.log`` (or ``.log.gz``) in DIR with a ``NAME.expect.yaml`` is diagnosed and compared:
top-1 / top-3 accuracy, false errors on negative logs, logs with no diagnosis, and a confusion list.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from troubleshooter.errors import InputError
from troubleshooter.kb.loader import safe_load_yaml


@dataclass
class Case:
    name: str
    top: str | None
    acceptable: list[str]
    must_not: list[str]
    negative: bool
    got: list[str]
    got_severity: list[str]
    ok_top1: bool
    ok_top3: bool
    violations: list[str]


@dataclass
class EvalResult:
    cases: list[Case] = field(default_factory=list)

    @property
    def positives(self) -> list[Case]:
        return [c for c in self.cases if not c.negative]

    @property
    def negatives(self) -> list[Case]:
        return [c for c in self.cases if c.negative]

    @property
    def top1(self) -> float:
        return sum(c.ok_top1 for c in self.positives) / max(1, len(self.positives))

    @property
    def top3(self) -> float:
        return sum(c.ok_top3 for c in self.positives) / max(1, len(self.positives))

    @property
    def false_errors(self) -> int:
        return sum(1 for c in self.negatives if "error" in c.got_severity)

    @property
    def no_diagnosis(self) -> float:
        return sum(1 for c in self.positives if not c.got) / max(1, len(self.positives))

    @property
    def failures(self) -> int:
        return sum(1 for c in self.cases if not c.ok_top1 or c.violations)


def _log_for(expect: Path) -> Path | None:
    stem = expect.name[: -len(".expect.yaml")]
    for suffix in (".log", ".log.gz", ".txt"):
        cand = expect.with_name(stem + suffix)
        if cand.is_file():
            return cand
    return None


def load_expectation(path: Path) -> dict[str, Any]:
    data = safe_load_yaml(path.read_text(encoding="utf-8"), str(path))
    if not isinstance(data, dict):
        raise InputError(f"{path}: an expectation is a mapping (top:, must_not:, negative:)")
    return data


def evaluate_one(log: Path, expect: dict[str, Any], kb_dirs: list[str] | None = None) -> Case:
    from troubleshooter.api import diagnose_path

    report = diagnose_path(log, kb_dirs=kb_dirs or [])
    got = [d.id for d in report.diagnoses]
    sev: list[str] = [d.severity for d in report.diagnoses]
    top = expect.get("top")
    acceptable = list(expect.get("acceptable") or [])
    must_not = list(expect.get("must_not") or [])
    negative = bool(expect.get("negative", top is None))
    ok_ids = ({top} if top else set()) | set(acceptable)
    violations = [f"{d.id} reported ({d.severity})" for d in report.diagnoses
                  if d.id in must_not and d.severity in ("error", "warning")]
    if negative:
        violations += [f"false error: {d.id}" for d in report.diagnoses if d.severity == "error"]
        ok1 = ok3 = not any(s == "error" for s in sev)
    else:
        ok1 = bool(got) and got[0] in ok_ids
        ok3 = any(g in ok_ids for g in got[:3])
    return Case(log.name, top, acceptable, must_not, negative, got, sev, ok1, ok3, violations)


def evaluate(directory: str | Path, kb_dirs: list[str] | None = None, pattern: str = "*") -> EvalResult:
    """Diagnose every labelled log in `directory` whose name matches `pattern` (a glob on the stem)."""
    folder = Path(directory)
    if not folder.is_dir():
        raise InputError(f"{folder}: not a directory")
    result = EvalResult()
    for expect_path in sorted(folder.glob(f"{pattern}.expect.yaml")):
        log = _log_for(expect_path)
        if log is None:
            continue
        result.cases.append(evaluate_one(log, load_expectation(expect_path), kb_dirs))
    if not result.cases:
        raise InputError(f"{folder}: no NAME.log with NAME.expect.yaml found")
    return result


def render_eval(result: EvalResult, fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps({
            "logs": len(result.cases), "positives": len(result.positives), "negatives": len(result.negatives),
            "top1": round(result.top1, 4), "top3": round(result.top3, 4), "false_errors": result.false_errors,
            "no_diagnosis": round(result.no_diagnosis, 4), "cases": [asdict(c) for c in result.cases],
        }, indent=2) + "\n"
    lines = [
        f"logs: {len(result.cases)} ({len(result.positives)} with a known failure, {len(result.negatives)} negative)",
        f"top-1 accuracy: {result.top1 * 100:.1f}%",
        f"top-3 accuracy: {result.top3 * 100:.1f}%",
        f"false errors on negative logs: {result.false_errors}",
        f"logs with no diagnosis: {result.no_diagnosis * 100:.1f}%",
    ]
    bad = [c for c in result.cases if not c.ok_top1 or c.violations]
    if bad:
        lines.append("")
        lines.append("confusion (expected -> got):")
        for c in bad:
            exp = "no error (negative)" if c.negative else c.top
            got = ", ".join(c.got[:3]) or "nothing"
            extra = f"  [{'; '.join(c.violations)}]" if c.violations else ""
            lines.append(f"  {c.name}: {exp} -> {got}{extra}")
    return "\n".join(lines) + "\n"
