"""Check a gathered first-sight batch's labels before it is scored (sample_logs/first-sight/README.md).

    python scripts/check_first_sight.py FOLDER [FOLDER ...]

Each NAME.expect.yaml in the folders needs its log (non-empty), exactly one verdict (top / uncovered / unresolved /
negative), KB ids that exist (top, acceptable, must_not), the provenance fields (source, batch, gathered, query,
established, half), and a source thread that no corpus in sample_logs/ outside the checked folders already holds. Two
logs from one thread (-a / -b) are reported, to be confirmed by hand. Exit 1 when a label has a problem.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
VERDICTS = ("top", "uncovered", "unresolved", "negative")
REQUIRED = ("source", "batch", "gathered", "query", "established", "half")


def kb_ids() -> set[str]:
    ids = set()
    for path in (ROOT / "kb").glob("*.yaml"):
        entry = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(entry, dict) and "id" in entry:
            ids.add(str(entry["id"]))
    return ids


def thread(source: object) -> str:
    return str(source or "").split("#")[0].strip()


def known_sources(skip: list[Path]) -> set[str]:
    known = set()
    for path in (ROOT / "sample_logs").rglob("*.expect.yaml"):
        if any(folder in path.parents for folder in skip):
            continue
        label = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if label.get("source"):
            known.add(thread(label["source"]))
    return known


def problems(path: Path, label: dict[str, object], ids: set[str], known: set[str]) -> list[str]:
    out = []
    log = path.with_name(path.name.removesuffix(".expect.yaml") + ".log")
    if not log.exists() or not log.read_text(encoding="utf-8", errors="replace").strip():
        out.append("no log, or an empty one")
    verdicts = [k for k in VERDICTS if label.get(k)]
    if len(verdicts) != 1:
        out.append(f"verdicts {verdicts} (exactly one of {', '.join(VERDICTS)})")
    top = label.get("top")
    if top and top not in ids:
        out.append(f"top {top} is not a KB id")
    for key in ("acceptable", "must_not"):
        out += [f"{key} {x} is not a KB id" for x in label.get(key) or [] if x not in ids]  # type: ignore[attr-defined]
    out += [f"missing {key}" for key in REQUIRED if not label.get(key)]
    if thread(label.get("source")) in known:
        out.append(f"the thread is already in the corpus: {thread(label.get('source'))}")
    return out


def main(folders: list[str]) -> int:
    roots = [Path(f).resolve() for f in folders]
    ids, known = kb_ids(), known_sources(roots)
    bad, seen = 0, {}
    for path in sorted(p for root in roots for p in root.rglob("*.expect.yaml")):
        label = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        found = problems(path, label, ids, known)
        src = thread(label.get("source"))
        if src in seen:
            print(f"{path.name}: the same thread as {seen[src]} (fine for a deliberate -a / -b pair)")
        seen.setdefault(src, path.name)
        if found:
            bad += 1
            print(f"{path}: " + "; ".join(found))
    print(f"{len(seen)} threads labelled, {bad} label(s) with problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
