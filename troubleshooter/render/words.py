"""What every renderer says the same way: counts, version ranges, capture values and clues in words.

The report carries data (capture names, version ranges, the KB's signature notes); a reader gets
sentences. Nothing here prints: text, Markdown and chat all call these.
"""

from __future__ import annotations

import re

from troubleshooter.models import HOSTED_NAMES, MAX_TRIGGER_EVIDENCE, Diagnosis, Environment, Report

CAPTURE_WORDS: dict[str, str] = {
    "tensor": "tensors",
    "node": "nodes",
    "layer": "layers",
    "layer_type": "layer types",
    "library": "libraries",
    "function": "functions",
    "method": "methods",
    "attr": "attributes",
    "api": "APIs",
    "cls": "classes",
    "flag": "flags",
    "shape": "shapes",
    "op": "operators",
    "listed_op": "operators",
    "plugin": "plugins",
    "assertion": "assertions",
    "binding": "bindings",
    "weights": "weights",
    "linked_version": "versions linked against",
    "loaded_version": "versions loaded",
}
"""Capture names that read well as a list of values, with their label. Any other (sizes in bytes or MB,
internal details) is left out of the report: the evidence lines show them in context."""

STATUS_WORDS = {
    "affected": "affected",
    "fixed": "fixed",
    "changed": "behaves differently",
    "not-applicable": "does not apply",
    "unknown": "not known",
}

_PLACEHOLDER = re.compile(r"<the ([^<>\n]+)>")
_OP = re.compile(r"^\s*(>=|<=|==|!=|>|<|~=)?\s*(\S+)\s*$")


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def trigger_lines(d: Diagnosis, lines_in_log: int) -> int:
    """How many lines triggered the diagnosis, as far as can be known.

    `occurrences` counts per signature (one line two signatures match counts twice); when every trigger
    line was kept as evidence, their number is exact; never more lines than the log has.
    """
    kept = len([e for e in d.evidence if e.role == "trigger"])
    total = kept if kept < MAX_TRIGGER_EVIDENCE else max(kept, d.occurrences)
    return max(kept, min(total, lines_in_log)) if lines_in_log > 0 else total


def version_range(spec: str) -> str:
    """`>=8.5,<10` -> `from 8.5, before 10`; `<8.5` -> `before 8.5`; `>=11` -> `11 and later`."""
    parts = [p for p in spec.split(",") if p.strip()]
    words = []
    for part in parts:
        m = _OP.match(part)
        if m is None:
            return spec
        op, version = m.group(1) or "==", m.group(2)
        words.append({">=": f"from {version}", ">": f"after {version}", "<": f"before {version}",
                      "<=": f"up to {version}", "==": version, "~=": f"{version}.x", "!=": f"not {version}"}[op])
    if len(words) == 1 and words[0].startswith("from "):
        return words[0][5:] + " and later"
    return ", ".join(words)


def _bounds(spec: str) -> tuple[str | None, str | None] | None:
    """(`>=` bound, `<` bound) of a range written `>=a,<b`, `<b` or `>=a`; None for any other form."""
    lo = hi = None
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        if part.startswith(">=") and lo is None:
            lo = part[2:].strip()
        elif part.startswith("<") and not part.startswith("<=") and hi is None:
            hi = part[1:].strip()
        else:
            return None
    return lo, hi


def merged_ranges(ranges: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Adjacent ranges with the same status as one (`<8.0`, `>=8.0,<8.4` affected -> `<8.4` affected)."""
    out: list[tuple[str, str]] = []
    for spec, status in ranges:
        if out and out[-1][1] == status:
            prev, cur = _bounds(out[-1][0]), _bounds(spec)
            if prev is not None and cur is not None and prev[1] is not None and prev[1] == cur[0]:
                lo, hi = prev[0], cur[1]
                out[-1] = (",".join(x for x in (f">={lo}" if lo else "", f"<{hi}" if hi else "") if x), status)
                continue
        out.append((spec, status))
    return out


def _known_statuses(merged: list[tuple[str, str]]) -> set[str]:
    """The statuses the KB records for some release ("unknown": no record yet, e.g. for a release after the newest)."""
    return {status for _spec, status in merged if status != "unknown"}


def version_summary(d: Diagnosis) -> str | None:
    """The advice line: for the log's version as the KB says it; when the version is unknown, what each
    range of versions means, and how to say which one it is."""
    if d.version_status is not None or not d.version_advice_all:
        return d.version_advice
    merged = merged_ranges([(a.versions, a.status) for a in d.version_advice_all])
    if all(status == "unknown" for _spec, status in merged):
        return "The log does not say which TensorRT this is. Pass --trt-version X for the advice of that release."
    if len(merged) == 1 and not version_range(merged[0][0]):  # one status from the first release to the last
        return {"affected": "Every TensorRT release is affected: the version does not change this.",
                "not-applicable": "Not a matter of the TensorRT release."}.get(
            merged[0][1], f"Every TensorRT release: {STATUS_WORDS.get(merged[0][1], merged[0][1])}.")
    known = _known_statuses(merged)
    if known == {"affected"}:  # affected up to the newest release the KB knows of, no record after it
        return "Every TensorRT release the knowledge base records is affected: the version does not change this."
    if known == {"affected", "changed"}:  # it happens everywhere; what changes is the message and the commands
        changed = ", ".join(version_range(spec) for spec, status in merged if status == "changed")
        return (f"Every TensorRT release can hit this; TensorRT {changed} words it differently and takes other "
                "commands. Pass --trt-version X for yours.")
    ranges = "; ".join(f"TensorRT {version_range(spec)}: {STATUS_WORDS.get(status, status)}" for spec, status in merged)
    return f"The log does not say which TensorRT this is, and it matters here ({ranges}). Pass --trt-version X."


def capture_lists(d: Diagnosis) -> list[tuple[str, list[str]]]:
    """(label in words, values) for the captures that vary across the lines, known names only."""
    return [(CAPTURE_WORDS[name], vals) for name, vals in d.capture_values.items()
            if name in CAPTURE_WORDS and len(vals) > 1]


def capture_sentence(label: str, vals: list[str], limit: int = 4, quote: str = "") -> str:
    more = len(vals) >= 60
    sample = ", ".join(f"{quote}{v}{quote}" for v in vals[:limit]) + (", …" if len(vals) > limit else "")
    return f"{len(vals)}{' or more' if more else ''} different {label}: {sample}"


_LINE_CLUE = re.compile(r"^line (\d+): ")


def clues(d: Diagnosis, width: int = 70) -> list[str]:
    """The clues that decided the ranking, in words: a supporting line is quoted from the log (the KB's
    note on its signature is for KB authors); the rest are already sentences."""
    by_line = {e.line: e.text.strip() for e in d.evidence if e.role != "trigger"}
    triggers = {e.line for e in d.evidence if e.role == "trigger"}
    said: set[int] = set()
    out = []
    for clue in d.clues:
        if clue == d.model_verdict_reason:
            continue
        m = _LINE_CLUE.match(clue)
        if m is None:
            out.append(clue)
            continue
        line = int(m.group(1))
        if line in triggers or line in said:  # already shown as the proof, or by another clue on that line
            continue
        said.add(line)
        text = by_line.get(line)
        if text is None:
            out.append(f"line {line} also points to it")
            continue
        if len(text) > width:
            text = text[: width - 1] + "…"
        out.append(f"line {line} also points to it: {text}")
    return out


def fill_blanks(code: str, lang: str) -> str:
    """A KB command with a blank the log cannot fill (`"<the Conv node inside X>"`): the blank becomes a
    name, explained in a comment line above the command, so the command says what to put there."""
    found = _PLACEHOLDER.findall(code)
    if not found:
        return code
    comment = "#" if lang in ("python", "bash", "sh", "shell", "console", "powershell", "zsh", "text", "") else "//"
    head = []
    for i, what in enumerate(dict.fromkeys(found)):
        name = "NAME" if len(found) == 1 else f"NAME{i + 1}"
        hint = " (its name in the ONNX model; Netron shows it)" if "node" in what else ""  # a node's blank only
        head.append(f"{comment} {name}: {what}{hint}")
        code = code.replace(f"<the {what}>", name)
    return "\n".join(head) + "\n" + code


def file_name(name: str) -> str:
    """A log's name without its folders (`/home/me/runs/build.log` -> `build.log`; Windows paths too):
    what a shared report (Markdown, chat) shows, so that it does not carry the user's local paths."""
    return re.split(r"[\\/]", name.rstrip("\\/"))[-1] or name


def headline(report: Report, *, shared: bool = False) -> str:
    """The report's first line: the log, its tool, TensorRT, GPU, precisions, size.
    `shared` (Markdown, chat): the log's file name, not its local path."""
    env = report.environment
    parts = [file_name(report.source.name) if shared else report.source.name]
    if env.front_end:
        parts.append(env.front_end)
    parts.append(f"TensorRT {env.tensorrt_version}" if env.tensorrt_version else env.release_text)
    if env.gpu or env.compute_capability:
        gpu = env.gpu or "GPU"
        if env.compute_capability:
            gpu += f" (sm {env.compute_capability}{', Jetson' if env.platform == 'jetson' else ''})"
        parts.append(gpu)
    elif env.platform:
        parts.append(" or ".join([env.platform, *env.platform_alternatives]))
    if env.hosted:
        parts.append(f"{HOSTED_NAMES[env.hosted]} notebook")
    if env.precisions:
        parts.append("/".join(p.upper() for p in env.precisions))
    parts.append(plural(report.source.lines, "line"))
    return " · ".join(parts)


_ANSWERED_BY: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"^the GPU(?: model)?(?: \(|$)"), ("gpu|compute_capability",)),
    (re.compile(r"^the GPU model and its compute capability\b"), ("gpu", "compute_capability")),
    (re.compile(r"^the (?:exact )?TensorRT version(?: \(|$)"), ("tensorrt_version",)),
    (re.compile(r"^the CUDA runtime version and the driver version\b"), ("cuda_version", "driver_version")),
)
"""An ask the environment already answers: its wording, and the Environment fields that answer it
("a|b": either one)."""


def open_asks(d: Diagnosis, env: Environment) -> list[str]:
    """What would decide the diagnosis and is not known yet: the KB's asks without those the log already
    answered (the GPU it printed, its TensorRT version), those that do not concern its platform (a Jetson
    question for a log from a PC) and the TensorRT version when every release gets the same advice."""
    out = []
    statuses = _known_statuses(merged_ranges([(a.versions, a.status) for a in d.version_advice_all]))
    one_status = d.version_status is None and len(statuses) <= 1 and bool(d.version_advice_all)
    for ask in d.asks:
        if ask.startswith("on Jetson") and env.platform not in (None, "jetson"):
            continue
        if one_status and ask.startswith("the TensorRT version"):
            continue  # every release gets the same advice: the version would decide nothing
        answered = next((fields for pattern, fields in _ANSWERED_BY if pattern.search(ask)), None)
        if answered is not None and all(any(getattr(env, f) for f in alt.split("|")) for alt in answered):
            continue
        out.append(ask)
    return out


def consequences(d: Diagnosis) -> list[int]:
    """The later error lines this diagnosis causes: after its first trigger line, and none of its trigger
    lines (on a one-line log, the line is not a consequence of itself)."""
    triggers = {e.line for e in d.evidence if e.role == "trigger"}
    first = min(triggers, default=0)
    return [n for n in d.consequences if n > first and n not in triggers]


NOTHING_FOUND_NOTE = "no known failure and no error line found"
"""The core's note when nothing matched: every renderer says its own verdict, so it is not repeated."""


def shown_notes(report: Report) -> list[str]:
    """The report's notes as a reader sees them: without the one that repeats the verdict."""
    return [n for n in report.notes if n != NOTHING_FOUND_NOTE]


def kb_prose(text: str) -> str:
    """KB prose read without a log (`trt-why kb show`, the TUI's KB browser): `TensorRT {tensorrt_version}`
    reads "your TensorRT" (not "TensorRT your TensorRT version"), a bare `{tensorrt_version}` "your TensorRT
    version", and other placeholders (node and tensor names the log would give) show as ‹name›."""
    text = re.sub(r"(^|[.!?:]\s+)(TensorRT )?\{tensorrt_version\}",  # a sentence's first word: capitalised
                  lambda m: m.group(1) + ("Your TensorRT" if m.group(2) else "Your TensorRT version"), text)
    text = text.replace("TensorRT {tensorrt_version}", "your TensorRT")
    text = text.replace("{tensorrt_version}", "your TensorRT version")
    return re.sub(r"\{(\w+)\}", r"‹\1›", text)


_RESTATED = re.compile(
    r"^\s*(?:your TensorRT(?: version)?|\{tensorrt_version\}|TensorRT [\w.]+|[\d.]+)\s+is\s+(?:not\s+)?"
    r"(?:affected|fixed|changed|not-applicable|unknown)\s*[.:;]\s*", re.IGNORECASE)


def after_status(text: str) -> str:
    """Version advice shown after its status ("TensorRT 8.5-9.2: affected."): without a first sentence that
    only says the status again ("Your TensorRT version is affected."), which would read as a doubled phrase."""
    rest = _RESTATED.sub("", text, count=1)
    return rest[:1].upper() + rest[1:] if rest and rest != text else text
