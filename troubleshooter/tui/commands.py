"""The KB browser: a command-palette provider over entry titles, ids, tags and signature text."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from troubleshooter.kb.schema import Entry


@dataclass(frozen=True)
class Searchable:
    """What the palette matches one entry against."""

    entry: Entry
    fields: tuple[str, ...]
    """Title, id, tags, then the signatures' literals and notes: best field wins."""


def searchables(entries: list[Entry]) -> list[Searchable]:
    out = []
    for e in entries:
        sig_text: list[str] = []
        for sig in e.match.signatures:
            sig_text += list(sig.literals or [])
            if sig.note:
                sig_text.append(sig.note)
        out.append(Searchable(e, (e.title, e.id, " ".join(e.tags), *sig_text)))
    return out


def _help(entry: Entry, why: str = "") -> str:
    return f"{entry.id} · {entry.severity} · {', '.join(entry.tags[:5])}" + (f" · {why}" if why else "")


class KBProvider(Provider):
    """Type a few words, an id, a tag or a piece of an error line: open the matching KB entry."""

    async def startup(self) -> None:
        engine = await asyncio.to_thread(self.app.kb_engine)  # type: ignore[attr-defined]
        self._engine = engine
        self._items = searchables(list(engine.kb.entries))

    def _open(self, entry_id: str) -> None:
        self.app.show_entry(entry_id)  # type: ignore[attr-defined]

    async def discover(self) -> Hits:
        for item in self._items:
            e = item.entry
            yield DiscoveryHit(Content.assemble(("KB ", "$text-muted"), e.title), partial(self._open, e.id),
                               text=f"KB {e.title}", help=_help(e))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        seen: dict[str, float] = {}
        for item in self._items:
            e = item.entry
            best, where = 0.0, 0
            for i, field in enumerate(item.fields):
                score = matcher.match(field)
                if score > best:
                    best, where = score, i
            if best > 0:
                seen[e.id] = best
                label = matcher.highlight(e.title) if where == 0 else Content(e.title)
                why = ["", "id", "tag", "signature"][min(where, 3)]
                yield Hit(best, Content.assemble(("KB ", "$text-muted"), label), partial(self._open, e.id),
                          text=f"KB {e.title}", help=_help(e, f"matched {why}" if why else ""))
        # A pasted error line rarely fuzzy-matches a title: the suggester knows the example lines.
        if len(query) >= 12:
            for sug in await asyncio.to_thread(self._engine.suggester.search, query, 5):
                if sug.id in seen:
                    continue
                entry = self._engine.kb.get(sug.id)
                if entry is None:
                    continue
                yield Hit(min(0.5, sug.score / 200), Content.assemble(("KB ", "$text-muted"), entry.title),
                          partial(self._open, entry.id), text=f"KB {entry.title}",
                          help=_help(entry, f"similar log text {sug.score:.0f}%"))
