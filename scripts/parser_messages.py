"""Write troubleshooter/core/parser_messages.json: each message string of the ONNX parser's sources (onnx-tensorrt),
with the TensorRT releases whose parser holds it.

    python scripts/parser_messages.py PATH_TO_ONNX_TENSORRT_CLONE

A log that quotes one of these messages (an importer's `Assertion failed: ... "message"`) was printed by one of those
releases: the engine narrows the releases such a log leaves possible with it. Run it against a full clone (every
release branch); the JSON is committed, so nothing is read from the network or the clone at run time.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

BRANCHES = {  # onnx-tensorrt's release branch -> the TensorRT release line it ships with
    "5.1": "5.1", "6.0": "6.0", "7.0": "7.0", "7.1": "7.1", "7.2.1": "7.2", "8.0-GA": "8.0", "8.2-GA": "8.2",
    "8.4-GA": "8.4", "8.5-GA": "8.5", "8.6-GA": "8.6", "9.0-GA": "9.0", "9.1": "9.1", "9.2": "9.2", "9.3": "9.3",
    "10.0-GA": "10.0", "10.1-GA": "10.1",
}
NEWEST = "10.1"
"""The newest release line the clone has: a message it still holds may be in every later release too."""
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|//[^\n]*|/\*.*?\*/', re.DOTALL)
"""C++ string and character literals and comments, read left to right so that a quote inside one never starts another."""
MIN_CHARS = 30
"""A message long enough to say something of its own (shorter ones recur: "scales", "axes")."""


def literals(repo: Path, branch: str) -> set[str]:
    files = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", branch], capture_output=True,
                           text=True, check=True).stdout.split()
    found: set[str] = set()
    for name in files:
        if not name.endswith((".cpp", ".hpp")) or ("/" in name and not name.startswith("onnxOpImporters")):
            continue
        text = subprocess.run(["git", "-C", str(repo), "show", f"{branch}:{name}"], capture_output=True, text=True,
                              check=True).stdout
        for m in TOKEN.finditer(text):
            token = m.group(0)
            if not token.startswith('"'):
                continue
            message = token[1:-1].replace('\\"', '"').strip()
            if len(message) >= MIN_CHARS and " " in message:
                found.add(message)
    return found


def main() -> None:
    repo = Path(sys.argv[1])
    by_message: dict[str, list[str]] = {}
    for branch, release in BRANCHES.items():
        for message in literals(repo, branch):
            by_message.setdefault(message, []).append(release)
    # a message every release holds narrows nothing
    every = set(BRANCHES.values())
    table = {m: r for m, r in sorted(by_message.items()) if set(r) != every}
    out = Path(__file__).resolve().parent.parent / "troubleshooter" / "core" / "parser_messages.json"
    out.write_text(json.dumps({
        "source": "github.com/onnx/onnx-tensorrt release branches " + ", ".join(BRANCHES),
        "newest": NEWEST,
        "messages": table,
    }, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{len(table)} messages -> {out}")


if __name__ == "__main__":
    main()
