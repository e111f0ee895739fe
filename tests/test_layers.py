"""Imports run downward (docs/architecture.md): no import circles, and each layer keeps to its own.

The import graph is read from the source of troubleshooter/ (every `import` and `from ... import`,
including those inside functions; not those under `if TYPE_CHECKING:`, which never run). The rules on
what troubleshooter/core/ may touch are checked on its source text.

An assert that fails because of a file whose owner has yet to change it is marked xfail(strict=True),
naming the file: when it is fixed the mark fails, and comes off.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "troubleshooter"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Module name -> file, for every module of the package."""
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_only(tree: ast.AST) -> set[int]:
    """ids of the nodes under `if TYPE_CHECKING:` (imports for annotations: never run)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skip


@cache
def imported_names(module: str) -> frozenset[str]:
    """Every absolute module name `module` imports, of any package."""
    path = modules()[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skip = _type_checking_only(tree)
    names: set[str] = set()
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:  # `from a import b`: a.b when it is a module of the package, else a
                names.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base)
    return frozenset(names)


def _owner(name: str) -> str | None:
    """The package's module that an imported name refers to (a.b.c -> a.b when c is a function)."""
    mods = modules()
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


@cache
def import_graph() -> dict[str, frozenset[str]]:
    """Module -> the package's modules it imports."""
    graph = {}
    for module in modules():
        deps = {_owner(n) for n in imported_names(module) if n.split(".")[0] == "troubleshooter"}
        graph[module] = frozenset(d for d in deps if d is not None and d != module)
    return graph


def import_cycles(graph: dict[str, frozenset[str]] | None = None) -> list[list[str]]:
    """The import circles of `graph` (default: the package's): each a strongly connected set of two or more
    modules (Tarjan), sorted."""
    graph = import_graph() if graph is None else graph
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def _in(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


# -- import circles ---------------------------------------------------------------------------------

AREAS = {
    "ways in": ("troubleshooter.cli", "troubleshooter.tui", "troubleshooter.integrations"),
    "render and models": ("troubleshooter.render", "troubleshooter.models"),
    "api": ("troubleshooter.api", "troubleshooter"),
    "reading": ("troubleshooter.reading",),
    "kb": ("troubleshooter.kb",),
    "lint": ("troubleshooter.lint",),
    "core": ("troubleshooter.core",),
}


def _area_cycles(area: str) -> list[list[str]]:
    prefixes = AREAS[area]
    exact = area == "api"  # "troubleshooter" alone is the package's __init__, not every module
    return [c for c in import_cycles()
            if any((m in prefixes) if exact else _in(m, prefixes) for m in c)]


@pytest.mark.parametrize("area", AREAS)
def test_no_import_cycles(area: str) -> None:
    assert _area_cycles(area) == []


def test_the_cycle_finder_finds_cycles() -> None:
    """The check itself: function-level imports count, and a circle through one is reported."""
    graph = import_graph()
    assert "troubleshooter.tui.app" in graph["troubleshooter.cli.tui"]  # imported inside run
    looped = {**graph, "troubleshooter.models": graph["troubleshooter.models"] | {"troubleshooter.render.chat"}}
    assert any({"troubleshooter.models", "troubleshooter.render.chat"} <= set(c) for c in import_cycles(looped))


# -- what each layer may import ---------------------------------------------------------------------

CORE_MAY_NOT_IMPORT = ("troubleshooter.reading", "troubleshooter.api", "troubleshooter.render", "troubleshooter.tui",
                       "troubleshooter.cli", "troubleshooter.integrations", "troubleshooter.lint", "argparse", "textual",
                       "onnx", "multiprocessing")
CORE_MAY_NOT_USE = {
    "os.environ": re.compile(r"\bos\.environ\b|\bgetenv\("),
    "open()": re.compile(r"(?<![.\w])open\("),
    "os.open / os.pread": re.compile(r"\bos\.(?:open|pread)\b"),
    "multiprocessing": re.compile(r"\bmultiprocessing\b"),
}


def _core_modules() -> list[str]:
    return [m for m in modules() if _in(m, ("troubleshooter.core",))]


def _source_without_strings_and_comments(path: Path) -> str:
    """The code of a file with its docstrings, strings and comments blanked (a regex may say 'open(')."""
    import io
    import tokenize

    out = []
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type in (tokenize.STRING, tokenize.COMMENT):
            continue
        if tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            continue
        out.append(tok.string)
    return " ".join(out)


@pytest.mark.parametrize("forbidden", CORE_MAY_NOT_IMPORT)
def test_core_imports_no_outer_layer(forbidden: str) -> None:
    offenders = sorted(m for m in _core_modules()
                       if any(_in(name, (forbidden,)) for name in imported_names(m)))
    assert offenders == [], f"{offenders} import {forbidden}"


@pytest.mark.parametrize("what", sorted(CORE_MAY_NOT_USE))
def test_core_reads_no_environment_file_or_process(what: str) -> None:
    pattern = CORE_MAY_NOT_USE[what]
    offenders = sorted(m for m in _core_modules() if pattern.search(_source_without_strings_and_comments(modules()[m])))
    assert offenders == [], f"{offenders} use {what}"


def test_models_import_only_errors_and_exit_codes() -> None:
    allowed = {"troubleshooter.errors", "troubleshooter.exit_codes"}
    assert set(import_graph()["troubleshooter.models"]) <= allowed


@pytest.mark.parametrize("upper", ["troubleshooter.api", "troubleshooter.core"])
def test_kb_does_not_import_the_api_or_the_core(upper: str) -> None:
    """The KB is data: the engine checks its regexes and derives their literals, handed in (`check`, `derive`)."""
    offenders = sorted(m for m in modules() if _in(m, ("troubleshooter.kb",))
                       and any(_in(d, (upper,)) for d in import_graph()[m]))
    assert offenders == []


def _renderers() -> list[object]:
    issue = "troubleshooter.render.issue"
    return [pytest.param(m, marks=pytest.mark.xfail(strict=True, reason=(
                "render/issue.py reads a line's payload with core.logs.parse_line: the report does not carry it")))
            if m == issue else m
            for m in sorted(m for m in modules() if _in(m, ("troubleshooter.render",)))]


@pytest.mark.parametrize("module", _renderers())
def test_renderers_do_not_import_the_core(module: str) -> None:
    """A renderer shows the report's data in its own words; what the engine decided reaches it in the report."""
    assert not [d for d in import_graph()[module] if _in(d, ("troubleshooter.core",))]


SELF_TEST = "troubleshooter.cli.kb_selftest"
"""The KB's self-test: the one way in that uses the core's functions, to explain signature by signature."""


def _ways_in() -> list[str]:
    return sorted(m for m in modules() if _in(m, AREAS["ways in"]) and m != SELF_TEST)


@pytest.mark.parametrize("module", _ways_in())
def test_the_ways_in_do_not_import_the_core(module: str) -> None:
    """The command line, the TUI and the integrations call the API; only the KB's self-test reads the core."""
    assert not [d for d in import_graph()[module] if _in(d, ("troubleshooter.core",))]
