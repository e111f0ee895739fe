"""Choose the similarity threshold on the real corpus: the lowest score at which promoting an
unexplained error line to a diagnosis is right at least 95 % of the time.

Each log is scored leave-one-out: the KB example lines copied from that log's own thread are left
out of the comparison, so a log never votes for itself. The lines scored: every error line a report
leaves unexplained, and, for a log whose established entry is found, the line that proved it (as if
no signature knew that wording: a new wording of a known failure is what promotion is for). A
promotion is right when the log is labelled with that entry (`top` or `acceptable`); wrong when the
log's cause is another entry, no entry (`uncovered`) or no failure (`negative`). Unresolved logs say
nothing either way and are left out.

    python benchmarks/similarity_threshold.py [--corpus sample_logs/real] [--out benchmarks/results-similarity.md]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from troubleshooter.api import diagnose_path, get_engine
from troubleshooter.cli.eval import label_of, load_expectation
from troubleshooter.core import similarity
from troubleshooter.core.logs import parse_line

PRECISION = 0.95


def candidates(corpus: Path) -> list[tuple[float, bool, str]]:
    """(best score, right?, log name) for every line scored; lines whose best entry does not lead the
    next one by similarity.MARGIN are never promoted and are left out."""
    suggester = get_engine().suggester
    saved = similarity.SIMILARITY_THRESHOLD
    out: list[tuple[float, bool, str]] = []
    try:
        similarity.SIMILARITY_THRESHOLD = 101.0  # nothing promoted: see what would be
        for expect in sorted(corpus.glob("*.expect.yaml")):
            data = load_expectation(expect)
            label = label_of(data)
            if label == "unresolved":
                continue
            log = expect.with_name(expect.name[: -len(".expect.yaml")] + ".log")
            report = diagnose_path(log)
            ok_ids = ({data["top"]} if data.get("top") else set()) | set(data.get("acceptable") or [])
            diagnosed = sorted(d.id for d in report.diagnoses)
            lines = [u.text for u in report.unexplained]
            if label == "covered" and report.diagnoses and report.diagnoses[0].id in ok_ids:
                # As if no signature knew this wording: the line that proved the right entry, compared
                # with every other entry's examples and with this entry's examples from other threads.
                lines += [e.text for e in report.diagnoses[0].evidence if e.role == "trigger"][:1]
                diagnosed = [d for d in diagnosed if d != report.diagnoses[0].id]
            for text in lines:
                found = suggester.similar(parse_line(0, text).text, exclude=diagnosed,
                                          leave_out_source=data.get("source"))
                runner_up = found[1].score if len(found) > 1 else 0.0
                if found and found[0].score - runner_up >= similarity.MARGIN:
                    right = label == "covered" and found[0].id in ok_ids
                    out.append((found[0].score, right, log.name))
    finally:
        similarity.SIMILARITY_THRESHOLD = saved
    return out


def choose(records: list[tuple[float, bool, str]]) -> tuple[float | None, list[str]]:
    rows = ["| threshold | promotions | right | precision |", "| --- | --- | --- | --- |"]
    chosen = None
    for t in range(60, 101, 2):
        hits = [r for r in records if r[0] >= t]
        right = sum(1 for r in hits if r[1])
        precision = right / len(hits) if hits else 1.0
        rows.append(f"| {t} | {len(hits)} | {right} | {precision * 100:.1f}% |")
        if chosen is None and hits and precision >= PRECISION and all(
                (sum(1 for r in records if r[0] >= u and r[1]) / max(1, sum(1 for r in records if r[0] >= u))) >= PRECISION
                for u in range(t, 101)):
            chosen = float(t)
    return chosen, rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default=str(ROOT / "sample_logs" / "real"))
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results-similarity.md"))
    args = p.parse_args()
    started = time.monotonic()
    records = candidates(Path(args.corpus))
    chosen, rows = choose(records)
    lines = [
        "# Similarity threshold (benchmarks/similarity_threshold.py)",
        "",
        f"{time.strftime('%Y-%m-%d')}: {len(records)} lines (unexplained errors, and the proving line of each found "
        f"cause) in the labelled logs of "
        f"{args.corpus} (unresolved logs left out), each scored without its own thread's KB examples.",
        f"Lowest threshold with precision >= {PRECISION * 100:.0f}% at it and above: "
        f"{chosen if chosen is not None else 'none (no promotion is safe)'}; in use: {similarity.SIMILARITY_THRESHOLD} "
        f"with a margin of {similarity.MARGIN} over the next entry.",
        "",
        *rows,
        "",
        f"({time.monotonic() - started:.1f} s)",
    ]
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
