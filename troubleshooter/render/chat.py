"""The report as chat-sized Markdown: Slack (mrkdwn), Discord or a GitHub comment.

Each flavour has a size limit per message. The report is laid out root cause first and then
split at paragraph boundaries; a code block that must be cut is closed at the end of one
message and reopened (same fence, same language) at the start of the next, so every message
renders on its own. Lengths are counted in UTF-16 code units, as Slack's and Discord's limits
are, so an emoji never pushes a message over.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from troubleshooter.errors import InputError
from troubleshooter.models import Diagnosis, Report
from troubleshooter.render.formats import CHAT_LIMITS
from troubleshooter.render.markdown import diagnosis_md, nothing_found, render_markdown
from troubleshooter.render.words import headline, shown_notes

LIMITS: Mapping[str, int] = CHAT_LIMITS
"""Characters per message: Slack section text, Discord message, GitHub comment body (listed with the formats)."""
FLAVOURS: tuple[str, ...] = tuple(LIMITS)

CHAT_UNEXPLAINED = 5
"""Unexplained error lines listed in a Slack or Discord answer (the GitHub comment lists all)."""


def render_chat(report: Report, flavour: str = "github") -> list[str]:
    """The report as a list of messages for ``flavour`` (slack, discord or github), each within its limit.

    The first message starts with the root cause; evidence lines are quoted in code blocks and
    reference links are kept. Raises InputError for an unknown flavour.
    """
    if flavour not in LIMITS:
        raise InputError(f"unknown chat flavour {flavour!r}; choose one of {', '.join(FLAVOURS)}")
    text = render_markdown(report) if flavour == "github" else _chat_markdown(report)
    if flavour == "slack":
        text = to_mrkdwn(text)
    return split_messages(text, LIMITS[flavour])


def _chat_markdown(report: Report) -> str:
    """A shorter layout for chat: the root cause in full, the rest in brief (no fixes or version advice)."""
    parts = [f"## trt-why: {headline(report, shared=True)}"]
    if not report.diagnoses:
        parts.append(nothing_found(report))
    lines = report.source.lines
    for i, d in enumerate(report.diagnoses):
        parts.append(diagnosis_md(d, lines_in_log=lines, env=report.environment) if i == 0 else
                     diagnosis_md(_brief(d), full=False, lines_in_log=lines, env=report.environment))
    if report.unexplained:
        rows = ["**Unexplained error lines** _(closest known issues are suggestions, not diagnoses)_"]
        for u in report.unexplained[:CHAT_UNEXPLAINED]:
            sims = ", ".join(f"`{s.id}`" for s in u.similar) or "none"
            count = f" (x{u.count})" if u.count > 1 else ""
            rows.append(f"- line {u.line}{count}: closest {sims}")
            rows.append(_indented_fence(u.text.strip()[:300]))
        more = len(report.unexplained) - CHAT_UNEXPLAINED
        if more > 0:
            rows.append(f"_… and {more} more._")
        parts.append("\n".join(rows))
    if shown_notes(report):
        parts.append("\n".join(f"> note: {n}" for n in shown_notes(report)))
    return "\n\n".join(parts).rstrip() + "\n"


def _brief(d: Diagnosis) -> Diagnosis:
    """A secondary finding for chat: what it is, its proof and its likeliest cause; the rest is one query away."""
    return d.model_copy(update={"fixes": [], "version_advice": None, "version_advice_all": [], "capture_values": {}})


def _indented_fence(code: str) -> str:
    from troubleshooter.render.markdown import fence

    return "\n".join("  " + x for x in fence(code, "text").splitlines())


# --- fences -------------------------------------------------------------------------------------

_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<ticks>`{3,}|~{3,})(?P<info>[^`]*)$")


@dataclass(frozen=True)
class _Fence:
    """An open code fence: its opening line and the line that closes it."""

    opener: str
    indent: str
    ticks: str

    @property
    def closer(self) -> str:
        return self.indent + self.ticks

    def closes(self, line: str) -> bool:
        stripped = line.strip()
        return (len(line) - len(line.lstrip(" ")) <= 3 and len(stripped) >= len(self.ticks)
                and set(stripped) == {self.ticks[0]})


def _step(fence: _Fence | None, line: str) -> _Fence | None:
    """The fence open after ``line``, given the one open before it."""
    if fence is not None:
        return None if fence.closes(line) else fence
    m = _OPEN.match(line)
    return _Fence(line, m["indent"], m["ticks"]) if m else None


def open_fence(text: str) -> str | None:
    """The opening line of a code fence left open at the end of ``text``, or None when balanced."""
    fence: _Fence | None = None
    for line in text.split("\n"):
        fence = _step(fence, line)
    return fence.opener if fence else None


# --- splitting ----------------------------------------------------------------------------------


def units(text: str) -> int:
    """Length in UTF-16 code units (how Slack and Discord count)."""
    return len(text.encode("utf-16-le")) // 2


def _paragraphs(text: str) -> list[str]:
    """Blocks separated by blank lines; a blank line inside a code fence does not separate."""
    out: list[str] = []
    cur: list[str] = []
    fence: _Fence | None = None
    for line in text.strip("\n").split("\n"):
        if fence is None and not line.strip():
            if cur:
                out.append("\n".join(cur))
                cur = []
            continue
        cur.append(line)
        fence = _step(fence, line)
    if cur:
        out.append("\n".join(cur))
    return out


def _prefix_within(text: str, budget: int) -> int:
    """Index of the longest prefix of ``text`` that is at most ``budget`` UTF-16 units."""
    used = 0
    for i, ch in enumerate(text):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > budget:
            return i
    return len(text)


def _hard_wrap(line: str, budget: int, prose: bool) -> list[str]:
    """Cut an over-long line into pieces of at most ``budget`` units (at a space in prose)."""
    pieces: list[str] = []
    while units(line) > budget:
        cut = _prefix_within(line, budget)
        if prose:
            space = line.rfind(" ", cut // 2, cut)
            cut = space + 1 if space > 0 else cut
        amp = line.rfind("&", max(0, cut - 6), cut)
        if amp > 0 and ";" not in line[amp:cut]:  # never cut inside an HTML entity (&lt;)
            cut = amp
        pieces.append(line[:cut].rstrip() if prose else line[:cut])
        line = line[cut:]
    pieces.append(line)
    return pieces


def _split_block(block: str, limit: int) -> list[str]:
    """Split one over-long block at line boundaries, closing and reopening a fence across a cut."""
    lines = block.split("\n")
    longest_fence = max([units(x) for x in lines if _OPEN.match(x.strip()) or x.strip().startswith("```")] + [8])
    budget = max(limit - 2 * (longest_fence + 1), limit // 4)
    out: list[str] = []
    cur: list[str] = []
    fence: _Fence | None = None
    cur_units = 0

    def flush() -> None:
        nonlocal cur, cur_units
        body = cur + ([fence.closer] if fence is not None else [])
        if any(x.strip() for x in cur if fence is None or x != fence.opener):
            out.append("\n".join(body))
        cur = [fence.opener] if fence is not None else []
        cur_units = units(fence.opener) if fence is not None else 0

    for whole in lines:
        for line in _hard_wrap(whole, budget, prose=fence is None):
            after = _step(fence, line)
            need = cur_units + (1 if cur else 0) + units(line) + (units(after.closer) + 1 if after else 0)
            if cur and need > limit:
                flush()
            cur_units += (1 if cur else 0) + units(line)
            cur.append(line)
            fence = after
    if fence is not None:  # an unclosed fence in the input: close it rather than leak it
        cur.append(fence.closer)
    if cur:
        out.append("\n".join(cur))
    return out


def split_messages(text: str, limit: int) -> list[str]:
    """Pack ``text`` into messages of at most ``limit`` UTF-16 units, each with balanced code fences."""
    messages: list[str] = []
    cur = ""
    for para in _paragraphs(text):
        pieces = [para] if units(para) <= limit and open_fence(para) is None else _split_block(para, limit)
        for piece in pieces:
            joined = f"{cur}\n\n{piece}" if cur else piece
            if units(joined) <= limit:
                cur = joined
            else:
                messages.append(cur)
                cur = piece
    if cur:
        messages.append(cur)
    return messages or [""]


# --- Slack mrkdwn -------------------------------------------------------------------------------

_LINK = re.compile(r"<(https?://[^\s<>]+)>")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_HEADING = re.compile(r"^#{1,6}\s+(.*)$")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _slack_link(url: str) -> str:
    label = re.sub(r"^https?://(www\.)?", "", url).rstrip("/")
    if len(label) > 60:
        label = label[:59] + "…"
    return f"<{url.replace('|', '%7C')}|{_escape(label).replace('|', '/')}>"


def _mrkdwn_line(line: str) -> str:
    quote = ""
    if line.startswith("> "):
        quote, line = "> ", line[2:]
    heading = _HEADING.match(line)
    if heading:
        line = "*" + heading[1].replace("**", "") + "*"
    pieces = []
    last = 0
    for m in _LINK.finditer(line):
        pieces.append(_escape(line[last:m.start()]))
        pieces.append(_slack_link(m[1]))
        last = m.end()
    pieces.append(_escape(line[last:]))
    line = _BOLD.sub(r"*\1*", "".join(pieces))
    line = re.sub(r"^(\s*)- ", r"\1• ", line)
    return quote + line


def to_mrkdwn(markdown: str) -> str:
    """GitHub-flavoured Markdown (as trt-why writes it) to Slack mrkdwn.

    **bold** and headings become *bold*, <url> becomes <url|label>, & < > are escaped,
    fences lose their language and indentation (Slack shows neither).
    """
    out: list[str] = []
    fence: _Fence | None = None
    for line in markdown.split("\n"):
        after = _step(fence, line)
        if fence is None and after is not None:
            out.append(after.ticks)
        elif fence is not None:
            if after is None:
                out.append(fence.ticks)
            else:
                body = line[len(fence.indent):] if line.startswith(fence.indent) else line.lstrip(" ")
                out.append(_escape(body))
        else:
            out.append(_mrkdwn_line(line))
        fence = after
    return "\n".join(out)
