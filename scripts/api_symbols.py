"""Write troubleshooter/core/api_symbols.json: the names TensorRT's public C++ headers declare, each with the runs
of releases whose headers hold it (only the names some release lacks: the others narrow nothing).

    python scripts/api_symbols.py PATH_TO_TENSORRT_CLONE

A compiler that says `'nvinfer1::ScatterMode' has not been declared` compiles code written for a TensorRT that has the
name against headers that lack it: a name added in 8.2 means the installed TensorRT is older than 8.2; a name whose
last release is 9.3 means the code was written for a release before 10.0, which removed it. Run it against a full
clone of NVIDIA/TensorRT (every release branch holds the headers in include/); the JSON is committed, so nothing is
read from the network or the clone at run time.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

BRANCHES = ["5.1", "6.0", "7.0", "7.1", "7.2", "8.0", "8.2", "8.4", "8.5", "8.6", "9.0", "9.1", "9.2", "9.3",
            "10.0", "10.1", "10.2", "10.3", "10.4", "10.5", "10.6", "10.7", "10.8", "10.9", "10.10", "10.11", "10.12",
            "10.13", "10.14", "10.15", "10.16", "11.0", "11.1"]
"""NVIDIA/TensorRT's release branches (release/<line>), oldest first."""
STRIP = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|//[^\n]*|/\*.*?\*/', re.DOTALL)
"""String and character literals and comments: a name in a comment ("use enqueueV3 instead") is not declared."""
SAFETY = ("include/NvInferSafe", "include/NvInferConsistency")
"""The safety runtime's headers (nvinfer1::safe): names such as setOutputTensorAddress were there releases before the
standard runtime had them."""
NAME = re.compile(r"\b[A-Za-z_]\w{3,}\b")
NOT_API = re.compile(r"^(?:noexcept|override|final|constexpr|nullptr|static_assert|decltype|alignas|alignof|explicit"
                     r"|inline|virtual|protected|private|public|typename|template|namespace|operator|default|delete"
                     r"|const_cast|static_cast|reinterpret_cast|dynamic_cast|include|define|ifdef|ifndef|endif|pragma"
                     r"|defined|undef|elif|else|error|warning|once|std|size_t|\w+_t|[A-Z0-9_]+_H_?|[A-Z0-9_]+_H_\w*)$")
"""C++ keywords, preprocessor words, standard types and include guards: not TensorRT's names."""


def names(repo: Path, branch: str) -> set[str]:
    ref = f"release/{branch}"
    files = subprocess.run(["git", "--git-dir", str(repo), "ls-tree", "-r", "--name-only", ref, "--", "include"],
                           capture_output=True, text=True, check=True).stdout.split()
    found: set[str] = set()
    for name in files:
        if not name.startswith("include/NvInfer") or not name.endswith(".h") or name.startswith(SAFETY):
            continue  # nvinfer1's standard API only: the parsers moved out of include/, the safety runtime is another
        text = subprocess.run(["git", "--git-dir", str(repo), "show", f"{ref}:{name}"], capture_output=True,
                              text=True, check=True).stdout
        found |= {n for n in NAME.findall(STRIP.sub(" ", text)) if not NOT_API.match(n)}
    return found


def spans(releases: list[str]) -> list[list[str]]:
    """The releases that hold a name as runs of consecutive releases, [first, last] each: a name can leave and come
    back (IBuilder::buildEngineWithConfig: 6.0 to 9.3, then again from 11.1)."""
    out: list[list[str]] = []
    previous = -2
    for release in releases:
        at = BRANCHES.index(release)
        if at == previous + 1:
            out[-1][1] = release
        else:
            out.append([release, release])
        previous = at
    return out


def main() -> None:
    repo = Path(sys.argv[1])
    present: dict[str, list[str]] = {}
    for branch in BRANCHES:
        for name in names(repo, branch):
            present.setdefault(name, []).append(branch)
    symbols = {n: spans(r) for n, r in sorted(present.items()) if r != BRANCHES}
    out = Path(__file__).resolve().parent.parent / "troubleshooter" / "core" / "api_symbols.json"
    out.write_text(json.dumps({"releases": BRANCHES, "symbols": symbols}, indent=0, sort_keys=True) + "\n")
    print(f"{len(symbols)} names whose releases are not all of {BRANCHES[0]}..{BRANCHES[-1]} -> {out}")


if __name__ == "__main__":
    main()
