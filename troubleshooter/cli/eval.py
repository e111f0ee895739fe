"""`trt-why eval DIR`: how well the KB does on labelled logs.

Every ``NAME.log`` (or ``.log.gz``, ``.txt``) in DIR with a ``NAME.expect.yaml`` is diagnosed and
scored by its label (see ``sample_logs/real/README.md``):

- ``top: ID`` (covered): the right entry first (top-1) or among the first three (top-3);
- ``uncovered: true``: the thread found a cause no entry describes: no confident claim, and the
  failure listed as unexplained;
- ``unresolved: true``: nobody found out: the failure is seen (exit 1, with a diagnosis or an
  unexplained error line);
- ``negative: true`` (or no ``top``): a successful build or a harmless log: no error-severity diagnosis.

Every failing log (covered, uncovered, unresolved) must be seen: exit status 1, unless its
expectation says ``failure_in_paste: false`` (with a ``note:`` saying what the paste lacks: it was
cut before the failure, the failure is a hang or a wrong result, or its lines are printed the same
by runs that did not fail). Those are counted apart, not scored for "seen", and must not get a
failure invented: no ``Report.failure`` (an error diagnosis or an unexplained error line).

The figures are written by ``render/eval.py`` (the format registry's product ``eval``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from troubleshooter import exit_codes
from troubleshooter.errors import InputError
from troubleshooter.kb.loader import safe_load_yaml

Label = Literal["covered", "uncovered", "unresolved", "negative"]

CONFIDENT = 0.6
"""A diagnosis at or above this confidence, of severity error and not the generic cascade entry,
is a claim about the cause: on a log whose cause no entry describes, that claim is wrong."""


@dataclass
class Case:
    name: str
    label: Label
    top: str | None
    acceptable: list[str]
    must_not: list[str]
    got: list[str]
    got_severity: list[str]
    exit_status: int
    unexplained: int
    """Error lines the report lists as unexplained."""
    ok_top1: bool
    ok_top3: bool
    violations: list[str]
    half: str | None = None
    source: str | None = None
    failing: bool = True
    """The thread's problem is a failure (every label but negative, and but a covered log of an info entry)."""
    failure_in_paste: bool = True
    """The paste shows that failure (``failure_in_paste: false`` in the expectation says it does not)."""
    failure_reported: bool = False
    """The report says the log shows a failure (``Report.failure``: an error diagnosis or an unexplained error line)."""
    release_printed: bool = False
    """The label's TensorRT release (major.minor) is printed in the log itself."""
    release_read: bool = False
    """The report's environment names that release (its major.minor, or its major alone where the log gives no more)."""
    led_by_unexplained: bool = False
    """The report leads with an error line no entry explains, ahead of its first diagnosis (what a reader meets first)."""

    @property
    def negative(self) -> bool:
        return self.label == "negative"

    @property
    def seen(self) -> bool:
        """The report shows the failure: exit status 1."""
        return self.exit_status == 1

    @property
    def ok(self) -> bool:
        """The case meets its label's bar (and none of its must-not ids was reported)."""
        return self.ok_top1 and not self.violations


@dataclass
class EvalResult:
    cases: list[Case] = field(default_factory=list)

    def by_label(self, label: Label) -> list[Case]:
        return [c for c in self.cases if c.label == label]

    @property
    def positives(self) -> list[Case]:
        """Logs with a known failure (label ``covered``)."""
        return self.by_label("covered")

    @property
    def negatives(self) -> list[Case]:
        return self.by_label("negative")

    @property
    def failing(self) -> list[Case]:
        """Every log whose paste shows a failure, whatever its label (what "seen" is scored on)."""
        return [c for c in self.cases if c.failing and c.label != "negative" and c.failure_in_paste]

    @property
    def failure_not_in_paste(self) -> list[Case]:
        """Failing logs whose paste shows no failure: not scored for "seen", counted apart."""
        return [c for c in self.cases if c.failing and c.label != "negative" and not c.failure_in_paste]

    @property
    def invented_failures(self) -> int:
        """Of those, the logs on which the report still says there is a failure."""
        return sum(1 for c in self.failure_not_in_paste if c.failure_reported)

    @property
    def top1(self) -> float:
        return _share(self.positives, lambda c: c.ok_top1)

    @property
    def top3(self) -> float:
        return _share(self.positives, lambda c: c.ok_top3)

    @property
    def top1_as_read(self) -> float:
        """Top-1 as the report reads: the right first diagnosis, and no unexplained error line leading ahead of it."""
        return _share(self.positives, lambda c: c.ok_top1 and not c.led_by_unexplained)

    @property
    def seen(self) -> float:
        return _share(self.failing, lambda c: c.seen)

    @property
    def uncovered_ok(self) -> float:
        return _share(self.by_label("uncovered"), lambda c: c.ok)

    @property
    def unresolved_ok(self) -> float:
        """Unresolved logs whose paste shows the failure, and that meet their bar (the failure seen)."""
        return _share([c for c in self.by_label("unresolved") if c.failure_in_paste], lambda c: c.ok)

    @property
    def false_errors(self) -> int:
        """Negative logs whose report says they failed: an error diagnosis, or an error line it leads with."""
        return sum(1 for c in self.negatives if "error" in c.got_severity or c.failure_reported)

    @property
    def release_read(self) -> float:
        """Of the logs that print their TensorRT release, the share whose report read it."""
        printed = [c for c in self.cases if c.release_printed]
        return _share(printed, lambda c: c.release_read)

    @property
    def no_diagnosis(self) -> float:
        return _share(self.positives, lambda c: not c.got)

    @property
    def failures(self) -> int:
        return sum(1 for c in self.cases if not c.ok)

    def summary(self) -> dict[str, Any]:
        """The figures, by label (what the text and JSON outputs show)."""
        out: dict[str, Any] = {
            "logs": len(self.cases), "positives": len(self.positives), "negatives": len(self.negatives),
            "uncovered": len(self.by_label("uncovered")), "unresolved": len(self.by_label("unresolved")),
            "top1": round(self.top1, 4), "top1_as_read": round(self.top1_as_read, 4), "top3": round(self.top3, 4),
            "seen": round(self.seen, 4),
            "uncovered_ok": round(self.uncovered_ok, 4), "unresolved_ok": round(self.unresolved_ok, 4),
            "false_errors": self.false_errors, "no_diagnosis": round(self.no_diagnosis, 4),
            "failure_not_in_paste": len(self.failure_not_in_paste), "invented_failures": self.invented_failures,
            "release_printed": sum(c.release_printed for c in self.cases), "release_read": round(self.release_read, 4),
        }
        halves = sorted({c.half for c in self.cases if c.half})
        if halves:
            out["halves"] = {}
            for half in halves:
                sub = EvalResult([c for c in self.cases if c.half == half])
                out["halves"][half] = {"logs": len(sub.cases), "top1": round(sub.top1, 4), "top3": round(sub.top3, 4),
                                       "seen": round(sub.seen, 4), "false_errors": sub.false_errors}
        return out


def _share(cases: list[Case], pred: Any) -> float:
    return sum(1 for c in cases if pred(c)) / max(1, len(cases))


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


def label_of(expect: dict[str, Any]) -> Label:
    """The label an expectation gives its log (exactly one of top / uncovered / unresolved / negative;
    a negative log may name the harmless notice it expects as `top`)."""
    if expect.get("negative"):
        return "negative"
    if expect.get("top"):
        return "covered"
    if expect.get("uncovered"):
        return "uncovered"
    if expect.get("unresolved"):
        return "unresolved"
    return "negative"


def evaluate_one(log: Path, expect: dict[str, Any], kb_dirs: list[str] | None = None) -> Case:
    from troubleshooter.api import diagnose_path

    report = diagnose_path(log, kb_dirs=kb_dirs or [])
    got = [d.id for d in report.diagnoses]
    sev: list[str] = [d.severity for d in report.diagnoses]
    label = label_of(expect)
    top = expect.get("top")
    acceptable = list(expect.get("acceptable") or [])
    must_not = list(expect.get("must_not") or [])
    ok_ids = ({top} if top else set()) | set(acceptable)
    violations = [f"{d.id} reported ({d.severity})" for d in report.diagnoses
                  if d.id in must_not and d.severity in ("error", "warning")]
    status = report.exit_status
    in_paste = expect.get("failure_in_paste", True) is not False
    if label == "negative":
        violations += [f"false error: {d.id}" for d in report.diagnoses if d.severity == "error"]
        if report.failure and not any(s == "error" for s in sev):
            lead = report.first_error
            violations.append(f"false error: the report leads with line {lead.line if lead else '?'} as a failure")
        ok1 = ok3 = not any(s == "error" for s in sev) and not report.failure
    elif label == "covered":
        ok1 = bool(got) and got[0] in ok_ids
        ok3 = any(g in ok_ids for g in got[:3])
    elif label == "uncovered":
        claims = [d.id for d in report.diagnoses  # an id the label accepts is no wrong claim
                  if d.severity == "error" and not d.cascade and d.confidence >= CONFIDENT and d.id not in acceptable]
        violations += [f"confident claim on an uncovered cause: {c}" for c in claims]
        # Listed as unexplained: an error line no entry explains, or only generic consequences
        # (build failed, process crashed) that say the cause is not known.
        listed = bool(report.unexplained) or all(d.cascade for d in report.diagnoses if d.severity == "error")
        listed = listed or not in_paste  # nothing to list when the paste holds no failure
        if not listed:
            violations.append("the failure is not listed as unexplained")
        ok1 = ok3 = not claims and listed
    else:
        ok1 = ok3 = status == 1 if in_paste else not report.failure
    failing = label != "negative" and _is_failure(top, kb_dirs)
    if failing and in_paste and status != 1:
        violations.append("the failure is not seen (exit 0)")
        ok1 = ok3 = False
    if failing and not in_paste and report.failure:
        violations.append("a failure is reported, but the paste shows none (failure_in_paste: false)")
        ok1 = ok3 = False
    printed, read = _release_read(log, str(expect.get("trt_version") or ""), report.environment.tensorrt_version)
    return Case(log.name, label, top, acceptable, must_not, got, sev, status, len(report.unexplained),
                ok1, ok3, violations, expect.get("half"), expect.get("source"), failing, in_paste, report.failure,
                printed, read, report.first_error is not None)


def _release_read(log: Path, labelled: str, read: str | None) -> tuple[bool, bool]:
    """Whether the log prints the labelled release (as major.minor), and whether the report read it."""
    import re

    parts = labelled.split(".")
    if len(parts) < 2 or not parts[1].isdigit():
        return False, False
    short = ".".join(parts[:2])
    # a major.minor followed by another patch than the label's is some other version: "8.0" inside cuDNN's "8.0.5"
    # is no TensorRT 8.0.1.6
    other_patch = (r"(?!\.(?!" + re.escape(parts[2]) + r"(?!\d))\d)") if len(parts) >= 3 and parts[2].isdigit() else ""
    data = log.read_bytes()
    if log.suffix == ".gz":
        import gzip

        data = gzip.decompress(data)
    text = data.decode("utf-8", "replace")
    if not re.search(r"(?<![\d.])" + re.escape(short) + r"(?!\d)" + other_patch, text) and not _banner_prints(text, parts):
        return False, False
    got = (read or "").split(".")
    if not read:
        return True, False
    return True, got[:2] == parts[:2] if len(got) >= 2 else got[0] == parts[0]


def _banner_prints(text: str, parts: list[str]) -> bool:
    """trtexec's packed banner ("[TensorRT v8203]") names the labelled major.minor."""
    import re

    from troubleshooter.api import check_trt_version  # the one reader of versions, packed ones too ("8203" -> 8.2.3)

    for m in re.finditer(r"TensorRT v(\d{4,6})\b", text):
        try:
            if check_trt_version(m.group(1)).split(".")[:2] == parts[:2]:
                return True
        except InputError:
            continue
    return False


def _is_failure(top: str | None, kb_dirs: list[str] | None) -> bool:
    """A log labelled with an info entry (a harmless notice) shows no failure; every other label does."""
    if not top:
        return True
    from troubleshooter.api import get_engine

    entry = get_engine(kb_dirs or []).matcher.entries.get(top)
    return entry is None or entry.severity != "info"


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


def run(args: argparse.Namespace) -> int:
    """`trt-why eval DIR` with its parsed arguments (declared in `cli.parser`). Returns the exit code."""
    from troubleshooter.render import formats

    result = evaluate(args.dir, kb_dirs=args.kb, pattern=args.glob)
    sys.stdout.write(formats.render(args.format, "eval", result))
    return exit_codes.OK if result.failures == 0 else exit_codes.FOUND
