"""What we found: the ranked diagnoses (cascades folded under their root) and the unexplained
error lines with their closest known issues, labelled as suggestions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from troubleshooter.models import Diagnosis, Report
from troubleshooter.tui.jobs import LogText
from troubleshooter.tui.widgets.text import muted_style

SEVERITY_ICON = {"error": "✖", "warning": "⚠", "info": "ⓘ"}


@dataclass(frozen=True)
class Item:
    """What a node of the tree stands for."""

    kind: str
    """diagnosis, cascade, line, unexplained, suggestion or section."""
    key: str = ""
    """The diagnosis or KB entry id."""
    line: int = 0
    """The log line a line / unexplained node points at."""
    text: str = ""
    severity: str = ""
    score: float = 0.0


class FindingsTree(Tree[Item]):
    """Diagnoses ranked root cause first; Enter on a diagnosis selects it, on a line jumps the log there."""

    COMPONENT_CLASSES: ClassVar[set[str]] = Tree.COMPONENT_CLASSES | {
        "findings--error",
        "findings--warning",
        "findings--info",
        "findings--muted",
        "findings--suggestion",
        "findings--section",
    }

    DEFAULT_CSS = """
    FindingsTree > .findings--error { color: $text-error; text-style: bold; }
    FindingsTree > .findings--warning { color: $text-warning; text-style: bold; }
    FindingsTree > .findings--info { color: $text-primary; }
    FindingsTree > .findings--muted { color: $text-muted; }
    FindingsTree > .findings--suggestion { color: $text-secondary; text-style: italic; }
    FindingsTree > .findings--section { text-style: bold; color: $text-accent; }
    """

    class DiagnosisSelected(Message):
        """The user moved to (or chose) a diagnosis."""

        def __init__(self, diagnosis_id: str) -> None:
            super().__init__()
            self.diagnosis_id = diagnosis_id

    class LineChosen(Message):
        """The user chose a log line (a consequence or an unexplained error)."""

        def __init__(self, line: int, diagnosis_id: str | None) -> None:
            super().__init__()
            self.line = line
            self.diagnosis_id = diagnosis_id

    class SuggestionChosen(Message):
        """The user chose a suggested KB entry: show it."""

        def __init__(self, entry_id: str) -> None:
            super().__init__()
            self.entry_id = entry_id

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("What we found", Item("section"), id=id)
        self.show_root = False
        self.guide_depth = 3
        self._diagnosis_nodes: dict[str, TreeNode[Item]] = {}

    def show_report(self, report: Report, log: LogText) -> None:
        """Fill the tree from a report; the first root diagnosis is highlighted."""
        self.clear()
        self._diagnosis_nodes = {}
        roots = [d for d in report.diagnoses if not d.cascade]
        cascades = [d for d in report.diagnoses if d.cascade]
        if not roots:
            roots, cascades = cascades, []
        found = self.root.add(
            f"Diagnoses ({len(report.diagnoses)})" if report.diagnoses else "No known failure matched",
            Item("section"), expand=True)
        for i, diag in enumerate(roots):
            node = found.add("", self._diagnosis_item(diag, "diagnosis"), expand=False)
            self._diagnosis_nodes[diag.id] = node
            under = cascades if i == 0 else []
            if diag.consequences or under:
                folded = node.add(
                    f"{len(diag.consequences)} later error(s) caused by this", Item("section"), expand=False)
                for no in diag.consequences:
                    folded.add_leaf("", Item("line", diag.id, no, (log.line(no) or "").strip()))
                for cas in under:
                    self._diagnosis_nodes[cas.id] = folded.add_leaf("", self._diagnosis_item(cas, "cascade"))
            node.allow_expand = bool(node.children)
        if report.unexplained:
            section = self.root.add(f"Unexplained error lines ({len(report.unexplained)})", Item("section"), expand=True)
            for un in report.unexplained:
                text = un.text.strip() + (f"  (×{un.count})" if un.count > 1 else "")
                node = section.add("", Item("unexplained", "", un.line, text), expand=True)
                for sug in un.similar:
                    node.add_leaf("", Item("suggestion", sug.id, un.line, sug.title, score=sug.score))
                if not un.similar:
                    node.add_leaf("", Item("section", text="no similar known issue"))
                node.allow_expand = bool(node.children)
        if roots:
            self.move_cursor(self._diagnosis_nodes[roots[0].id])

    @staticmethod
    def _diagnosis_item(diag: Diagnosis, kind: str) -> Item:
        return Item(kind, diag.id, diag.evidence[0].line if diag.evidence else 0, diag.title,
                    diag.severity, diag.confidence)

    def select_diagnosis(self, diagnosis_id: str) -> None:
        node = self._diagnosis_nodes.get(diagnosis_id)
        if node is not None:
            if node.parent is not None and not node.parent.is_expanded:
                node.parent.expand()
            self.move_cursor(node)

    # --- events -------------------------------------------------------------------------------
    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Item]) -> None:
        item = event.node.data
        if item is not None and item.kind in ("diagnosis", "cascade"):
            self.post_message(self.DiagnosisSelected(item.key))

    def on_tree_node_selected(self, event: Tree.NodeSelected[Item]) -> None:
        item = event.node.data
        if item is None:
            return
        if item.kind in ("line", "unexplained"):
            self.post_message(self.LineChosen(item.line, item.key or None))
        elif item.kind == "suggestion":
            self.post_message(self.SuggestionChosen(item.key))
        elif item.kind in ("diagnosis", "cascade") and item.line:
            self.post_message(self.LineChosen(item.line, item.key))

    # --- rendering ----------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        if name == "muted":  # $text-muted does not resolve in a component class (white on the light theme)
            return muted_style(self.rich_style)
        try:
            return self.get_component_rich_style(f"findings--{name}", partial=True)
        except KeyError:  # styles not applied yet (first layout): widths only
            return Style()

    def render_label(self, node: TreeNode[Item], base_style: Style, style: Style) -> Text:
        item = node.data
        if item is None or item.kind == "section":
            label = Text(str(node.label))
            if item is not None and item.text:
                label = Text(item.text)
            label.stylize(self._style("muted" if item and item.text else "section"))
        elif item.kind in ("diagnosis", "cascade"):
            label = Text.assemble(
                (f"{SEVERITY_ICON.get(item.severity, ' ')} {item.severity:<7} ", self._style(item.severity)),
                (f"{item.score:>4.0%} ", self._style("muted")),
                ("cascade · " if item.kind == "cascade" else "", self._style("muted")),
                item.text,
            )
        elif item.kind in ("line", "unexplained"):
            label = Text.assemble((f"line {item.line}  ", self._style("muted")), item.text)
        else:
            label = Text.assemble(
                ("suggestion ", self._style("suggestion")),
                (f"{item.score:.0f}% ", self._style("muted")),
                (f"{item.key} ", self._style("info")),
                (item.text, self._style("muted")),
            )
        label.stylize(style)
        if node._allow_expand:
            prefix = (self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE, base_style + Style(bold=True))
        else:
            prefix = ("", base_style)
        out = Text.assemble(prefix, label)
        room = self.scrollable_content_region.width - self._indent(node)
        if room > 10 and out.cell_len > room:
            out = word_cut(out, room)
        return out

    def _indent(self, node: TreeNode[Item]) -> int:
        """Columns the tree's guides take before ``node``'s label (the root is hidden)."""
        depth = 0
        parent = node.parent
        while parent is not None and parent is not self.root:
            depth += 1
            parent = parent.parent
        return depth * self.guide_depth


def word_cut(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells at the end of a word, with an ellipsis (a title is never cut mid-word;
    the selected diagnosis's whole title is in the Why tab)."""
    plain = text.plain
    end = plain.rfind(" ", 0, width - 1)
    if end < width // 2:  # one very long word: cut it
        end = width - 1
    out = text.copy()
    out.truncate(end)
    out.rstrip()
    out.append("…")
    return out
