"""The log view: every line of the log, evidence highlighted, with jumps to a line and back.

A Line-API widget (like toolong's log lines): only the visible lines are rendered, so a
400,000-line paste scrolls as fast as a short one.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from troubleshooter.tui.jobs import LogText
from troubleshooter.tui.widgets.text import muted_style

MARK_ROLES = ("trigger", "support", "consequence", "unexplained")
"""How a line can be marked: the evidence that triggered a diagnosis, supporting evidence,
a later error caused by the root cause, an error line nothing explains."""

_MARKER = {"trigger": "▶", "support": "•", "consequence": "↳", "unexplained": "?"}
_CONTROL = {c: "?" for c in range(32) if c not in (9,)}


class LogView(ScrollView, can_focus=True):
    """The log with a cursor line, marked lines and a history of jumps (``back`` returns)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "edge(0)", "First line", show=False),
        Binding("end", "edge(1)", "Last line", show=False),
        Binding("left", "scroll_left", "Left", show=False),
        Binding("right", "scroll_right", "Right", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "log-view--gutter",
        "log-view--cursor",
        "log-view--trigger",
        "log-view--support",
        "log-view--consequence",
        "log-view--unexplained",
    }

    DEFAULT_CSS = """
    LogView {
        background: $surface;
        color: $text;
    }
    LogView > .log-view--gutter { color: $text-muted; }  /* unused for colour: see muted_style */
    LogView > .log-view--cursor { background: $accent 40%; }
    LogView > .log-view--trigger { background: $error 30%; text-style: bold; }
    LogView > .log-view--support { background: $warning 20%; }
    LogView > .log-view--consequence { background: $error 12%; }
    LogView > .log-view--unexplained { background: $secondary 25%; }
    """

    cursor_line: reactive[int] = reactive(1)
    """The line (1-based) the cursor is on."""

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._log = LogText([])
        self._marks: dict[int, str] = {}
        self._ordered_marks: list[int] = []
        self._history: list[tuple[int, float]] = []
        """(cursor line, scroll position) before each remembered jump: ``back`` restores the view, not only the line."""
        self._gutter_width = 2

    # --- content ------------------------------------------------------------------------------
    @property
    def line_count(self) -> int:
        return len(self._log.lines)

    @property
    def marks(self) -> dict[int, str]:
        """Marked line numbers and their roles."""
        return dict(self._marks)

    @property
    def history(self) -> list[int]:
        """The lines ``back`` returns to, most recent last."""
        return [line for line, _ in self._history]

    def set_log(self, log: LogText) -> None:
        """Show a new log: marks, history and cursor are reset."""
        self._log = log
        self._marks = {}
        self._ordered_marks = []
        self._history = []
        self._gutter_width = len(str(max(1, len(log.lines)))) + 3
        widest = max(map(len, log.lines), default=0)
        self.virtual_size = Size(self._gutter_width + widest, len(log.lines))
        self.set_reactive(LogView.cursor_line, 1)
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def set_marks(self, marks: dict[int, str]) -> None:
        """Highlight these lines (line number -> one of MARK_ROLES); the strongest role wins."""
        self._marks = dict(marks)
        self._ordered_marks = sorted(marks)
        self.refresh()

    # --- jumps --------------------------------------------------------------------------------
    def jump_to(self, line: int, *, remember: bool = True) -> None:
        """Put the cursor on ``line`` with the lines around it in view; ``back`` returns here from the next jump."""
        if not self.line_count:
            return
        line = max(1, min(line, self.line_count))
        if remember and (line != self.cursor_line or not self.line_in_view(line)):
            self._history.append((self.cursor_line, self.scroll_offset.y))
            del self._history[:-100]
        self.cursor_line = line
        self._centre(line)

    def back(self) -> bool:
        """Return to where the cursor was before the last jump. False when there is nowhere to go."""
        if not self._history:
            return False
        self.cursor_line, y = self._history.pop()
        self.scroll_to(y=y, animate=False, immediate=True)  # the view the user had, scrolled where it was
        return True

    def next_mark(self, direction: int = 1) -> int | None:
        """Jump to the next (or previous) marked line after the cursor; returns it, or None."""
        if not self._ordered_marks:
            return None
        if direction > 0:
            target = next((n for n in self._ordered_marks if n > self.cursor_line), self._ordered_marks[0])
        else:
            target = next((n for n in reversed(self._ordered_marks) if n < self.cursor_line), self._ordered_marks[-1])
        self.jump_to(target)
        return target

    def line_in_view(self, line: int) -> bool:
        """Is ``line`` on screen (used by tests and by the jump logic)?"""
        top = int(self.scroll_offset.y)
        return top < line <= top + max(1, self.scrollable_content_region.height)

    def _centre(self, line: int) -> None:
        height = max(1, self.scrollable_content_region.height or self.size.height)
        self.scroll_to(y=max(0, line - 1 - height // 3), animate=False, immediate=True)

    # --- actions ------------------------------------------------------------------------------
    def action_cursor(self, delta: int) -> None:
        self.cursor_line = max(1, min(self.line_count, self.cursor_line + delta))
        self._keep_cursor_visible()

    def action_page(self, direction: int) -> None:
        step = max(1, self.scrollable_content_region.height - 1)
        self.action_cursor(direction * step)

    def action_edge(self, end: int) -> None:
        self.cursor_line = self.line_count if end else 1
        self._keep_cursor_visible()

    def on_resize(self, event: events.Resize) -> None:
        # A smaller view (a narrow terminal's layout, a resize) must still show the cursor line.
        if self.line_count and not self.line_in_view(self.cursor_line):
            self._centre(self.cursor_line)

    def _keep_cursor_visible(self) -> None:
        top = int(self.scroll_offset.y)
        height = max(1, self.scrollable_content_region.height)
        if self.cursor_line - 1 < top:
            self.scroll_to(y=self.cursor_line - 1, animate=False, immediate=True)
        elif self.cursor_line > top + height:
            self.scroll_to(y=self.cursor_line - height, animate=False, immediate=True)

    class CursorMoved(Message):
        """The cursor line changed (a jump, a key, a click): the report shows that line in full."""

        def __init__(self, line: int) -> None:
            super().__init__()
            self.line = line

    def watch_cursor_line(self, line: int) -> None:
        self.refresh()
        self.post_message(self.CursorMoved(line))

    def line_fits(self, line: int) -> bool:
        """Does ``line`` show whole in the view's width (no wrap needed)?"""
        text = self._log.line(line) or ""
        return len(text) + self._gutter_width <= max(1, self.scrollable_content_region.width)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        line = int(self.scroll_offset.y) + offset.y + 1
        if 1 <= line <= self.line_count:
            self.cursor_line = line

    # --- rendering ----------------------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self.rich_style
        no = int(scroll_y) + y + 1
        text = self._log.line(no)
        if text is None:
            return Strip.blank(width, base)
        role = self._marks.get(no)
        style = base
        if role is not None:
            style = base + self.get_component_rich_style(f"log-view--{role}")
        if no == self.cursor_line and self.has_focus:
            style = style + self.get_component_rich_style("log-view--cursor")
        elif no == self.cursor_line:
            style = style + Style(underline=True)
        gutter_style = style + muted_style(style)
        marker = _MARKER.get(role or "", " ")
        gutter = f"{no:>{self._gutter_width - 2}}{marker} "
        body = Strip([Segment(text.translate(_CONTROL), style)])
        body = body.crop_extend(int(scroll_x), int(scroll_x) + max(0, width - len(gutter)), style)
        return Strip([Segment(gutter, gutter_style), *body]).simplify()
