"""trt-why over the Model Context Protocol, with the official ``mcp`` SDK (2.x, ``MCPServer``).

    trt-why mcp                                  # stdio, for Claude Desktop, VS Code, Cursor...
    trt-why mcp --http 127.0.0.1:8765            # streamable HTTP at http://127.0.0.1:8765/mcp
    trt-why mcp --allow-dir ~/models             # let lint_onnx_model read models in ~/models

Five read-only tools with structured output: diagnose_log, explain_issue, search_known_issues, issue_draft,
lint_onnx_model. Inputs are bounded: a log past ``MAX_LOG_BYTES`` is cut (the report says so), a
search query past ``MAX_QUERY_CHARS`` is cut, and lint_onnx_model reads only ``.onnx`` files under
the folders the operator allowed (none by default), after resolving symlinks.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz

from troubleshooter import __version__, api, exit_codes
from troubleshooter.errors import InputError, TroubleshooterError
from troubleshooter.integrations.answer import Detail, DiagnoseAnswer, answer
from troubleshooter.kb.schema import Entry
from troubleshooter.lint.report import LintReport
from troubleshooter.models import Report, Suggestion

MAX_LOG_BYTES = 20 * 1024 * 1024
"""diagnose_log reads at most this many bytes of log_text (UTF-8); the rest is dropped with a note."""
MAX_QUERY_CHARS = 2000
"""search_known_issues looks at most at this many characters of the query."""
MAX_SEARCH_RESULTS = 25
HTTP_BODY_LIMIT = 3 * MAX_LOG_BYTES + 1024 * 1024
"""Largest HTTP request accepted: room for an over-limit log (JSON-escaped) to be cut rather than refused."""

INSTRUCTIONS = (
    "trt-why diagnoses NVIDIA TensorRT engine-build failures (trtexec, the TensorRT Python API, the ONNX "
    "parser, Polygraphy, Torch-TensorRT) against a curated knowledge base of known failures. Call "
    "diagnose_log with the user's build log first; its top diagnosis is the root cause, with the log lines "
    "that prove it, the cause, advice for the user's TensorRT version and concrete fixes. Use "
    "explain_issue for the full entry of a diagnosis id, search_known_issues when there is no log, and "
    "lint_onnx_model to confirm a diagnosis on the ONNX model when the operator allowed its folder. "
    "Quote the evidence lines; do not invent causes the report does not give."
)



def _read_only(title: str) -> ToolAnnotations:
    """Every tool only reads: it changes nothing, repeating a call changes nothing, it talks to no one."""
    return ToolAnnotations(title=title, read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                           open_world_hint=False)


class KnownIssue(BaseModel):
    """One knowledge-base entry that matches a search."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="KB entry id; pass it to explain_issue for the full entry.")
    title: str = Field(description="One line: what goes wrong.")
    severity: str = Field(description="error (the build fails), warning (loses precision or speed) or info.")
    summary: str | None = Field(default=None, description="Two or three sentences about the failure.")
    tags: list[str] = Field(default_factory=list)
    score: float = Field(description="Similarity to the query, 0..100 (fuzzy match on titles, ids and example lines).")


class SearchResults(BaseModel):
    """Knowledge-base entries closest to a query, best first. Suggestions, not a diagnosis."""

    model_config = ConfigDict(frozen=True)

    query: str = Field(description="The query as searched (cut to a bounded length).")
    results: list[KnownIssue]
    notes: list[str] = Field(default_factory=list)


def _tool_error(exc: BaseException) -> ToolError:
    return ToolError(str(exc) or type(exc).__name__)


def _cut(text: str, limit: int) -> tuple[bytes, str | None]:
    """The log as UTF-8, cut at a line boundary to ``limit`` bytes, and the note saying so."""
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) <= limit:
        return data, None
    cut = data.rfind(b"\n", 0, limit)
    cut = cut + 1 if cut > limit // 2 else limit
    kept = data[:cut]
    lines = kept.count(b"\n") + (0 if kept.endswith(b"\n") else 1)
    note = (f"log_text was {len(data) / 1e6:.1f} MB, more than the {limit / 1e6:.1f} MB this tool reads: only "
            f"the first {len(kept) / 1e6:.1f} MB ({lines} lines) were diagnosed; send the part around the first "
            "error for the rest")
    return kept, note


def _search(engine: api.Engine, query: str, limit: int) -> list[Suggestion]:
    """The suggester's search; its many equal scores are ordered by how well the words match the title and tags."""
    hits = engine.suggester.search(query, limit=max(3 * limit, 30))
    words = query.lower()

    def closeness(hit: Suggestion) -> float:
        entry = engine.kb.get(hit.id)
        about = " ".join([entry.title, entry.id.replace("-", " "), *entry.tags]) if entry else hit.title
        return float(fuzz.token_set_ratio(words, about.lower()))

    return sorted(hits, key=lambda h: (-h.score, -closeness(h), h.id))[:limit]


class IssueDraft(BaseModel):
    """An upstream issue drafted from a log (`trt-why --format issue`), for the tracker of the log's stack."""

    model_config = ConfigDict(frozen=True)

    markdown: str = Field(description="The issue body, Markdown, redacted, at most 65,536 characters: title, "
                                      "environment, failing line, excerpt, what trt-why checked, reproduction, "
                                      "attachments.")
    stack: str | None = Field(description="The stack the log shows (triton, onnxruntime...); None: unknown.")
    tracker: str | None = Field(description="Where to file it: owner/repo, or the forum's name.")
    new_issue_url: str | None = Field(description="The page that opens a new issue there.")
    known_fix: str | None = Field(description="A KB entry id when the KB holds this failure with a confirmed fix: "
                                              "the user likely needs no issue (the draft says so first).")


def issue_draft(
    log_text: Annotated[str, Field(description="The failing log, as printed (only the first 20 MB are read).")],
    trt_version: Annotated[str | None, Field(description="TensorRT version when the log does not say.")] = None,
) -> IssueDraft:
    """The issue draft of one log (the body of the MCP tool of the same name)."""
    from troubleshooter.kb.stacks import stack_for
    from troubleshooter.render.issue import known_fix, render_issue

    data, _note = _cut(log_text, MAX_LOG_BYTES)
    try:
        report = api.diagnose(data, trt_version=trt_version, name="log_text")
    except TroubleshooterError as exc:
        raise _tool_error(exc) from None
    stack = stack_for(report.environment.front_end)
    known = known_fix(report)
    return IssueDraft(markdown=render_issue(report), stack=report.environment.front_end,
                      tracker=stack.tracker.name if stack else None,
                      new_issue_url=stack.tracker.new_issue if stack else None, known_fix=known.id if known else None)


class _Tools:
    """The tool bodies: plain functions over the embedding API, run by the SDK on worker threads."""

    def __init__(self, allow_dirs: Sequence[str | os.PathLike[str]], max_log_bytes: int) -> None:
        self.roots = [_allowed_root(d) for d in allow_dirs]
        self.max_log_bytes = max_log_bytes

    def diagnose_log(
        self,
        log_text: Annotated[str, Field(description="The build or conversion log, as printed (any size; "
                                                   "only the first 20 MB are read).")],
        trt_version: Annotated[str | None, Field(description="TensorRT version when the log does not say, "
                                                             "e.g. '8.6.1' or '10.3'.")] = None,
        redact: Annotated[bool, Field(description="Hide user names, home and project paths, host names and "
                                                  "IP addresses in the returned report.")] = False,
        detail: Annotated[Detail, Field(description="compact (default): the diagnoses in brief, a few KB; full: "
                                                    "also the whole report in `report` (every cause, fix step, "
                                                    "reference and clue).")] = "compact",
    ) -> DiagnoseAnswer:
        return answer(self.diagnose_report(log_text, trt_version, redact), detail)

    def diagnose_report(self, log_text: str, trt_version: str | None = None, redact: bool = False) -> Report:
        """The full report of ``log_text`` (cut to the size limit, with a note saying so)."""
        data, note = _cut(log_text, self.max_log_bytes)
        try:
            report = api.diagnose(data, trt_version=trt_version, name="log_text", redact=redact)
        except TroubleshooterError as exc:
            raise _tool_error(exc) from None
        if note is not None:
            report = report.model_copy(update={
                "notes": [note, *report.notes],
                "source": report.source.model_copy(update={"truncated": True}),
            })
        return report

    def explain_issue(
        self,
        id: Annotated[str, Field(description="A KB entry id, e.g. 'conv-act-fusion-no-impl' (from a diagnosis "
                                             "or a search result).", max_length=200)],
    ) -> Entry:
        engine = api.get_engine()
        entry = engine.kb.get(id.strip())
        if entry is None:
            close = ", ".join(s.id for s in engine.suggester.search(id[:MAX_QUERY_CHARS], limit=3))
            hint = f"; closest ids: {close}" if close else ""
            raise ToolError(f"no knowledge-base entry with id {id.strip()!r}{hint} (search_known_issues lists ids)")
        return entry

    def search_known_issues(
        self,
        query: Annotated[str, Field(description="Words or an error message to look for, e.g. 'INT8 grouped "
                                                "convolution' or a pasted error line.")],
        limit: Annotated[int, Field(ge=1, le=MAX_SEARCH_RESULTS, description="Most results to return.")] = 10,
    ) -> SearchResults:
        notes = []
        if len(query) > MAX_QUERY_CHARS:
            notes.append(f"the query was cut to its first {MAX_QUERY_CHARS} characters")
            query = query[:MAX_QUERY_CHARS]
        engine = api.get_engine()
        results = []
        for hit in _search(engine, query, limit):
            entry = engine.kb.get(hit.id)
            if entry is not None:
                results.append(KnownIssue(id=entry.id, title=entry.title, severity=entry.severity,
                                          summary=entry.summary, tags=list(entry.tags), score=hit.score))
        if not results:
            notes.append("nothing similar in the knowledge base")
        return SearchResults(query=query, results=results, notes=notes)

    def lint_onnx_model(
        self,
        path: Annotated[str, Field(description="Path of an .onnx file inside a folder the server operator "
                                               "allowed with --allow-dir (relative paths are looked up in "
                                               "those folders).", max_length=4096)],
    ) -> LintReport:
        model = self._model_path(path)
        try:
            return api.lint(model)
        except TroubleshooterError as exc:
            raise _tool_error(exc) from None
        except ImportError:
            raise ToolError("linting needs the 'lint' extra on the server: pip install 'trt-why[lint]'") from None

    def _model_path(self, path: str) -> Path:
        if not self.roots:
            raise ToolError("lint_onnx_model is disabled: this server was started without --allow-dir, so it may "
                            "read no model files (the operator can restart it with `trt-why mcp --allow-dir FOLDER`)")
        if not path.strip() or "\0" in path:
            raise ToolError("give the path of an .onnx file")
        given = Path(path)
        candidates = [given] if given.is_absolute() else [root / given for root in self.roots]
        allowed = ", ".join(str(r) for r in self.roots)
        for candidate in candidates:
            real = candidate.resolve()  # follows symlinks: a link out of an allowed folder is refused
            if not any(real == root or real.is_relative_to(root) for root in self.roots):
                continue
            if real.suffix.lower() != ".onnx":
                raise ToolError(f"{path}: only .onnx files can be linted")
            if not real.is_file():
                raise ToolError(f"{path}: no such model file in the allowed folders ({allowed})")
            return real
        raise ToolError(f"{path}: refused, this path is outside the folders the server may read ({allowed}); "
                        "the operator allows a folder with --allow-dir")


def _allowed_root(folder: str | os.PathLike[str]) -> Path:
    path = Path(folder).expanduser()
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise InputError(f"--allow-dir {folder}: no such folder") from None
    if not real.is_dir():
        raise InputError(f"--allow-dir {folder}: not a folder")
    return real


def _compact_text(method: Callable[..., BaseModel]) -> Callable[..., CallToolResult]:
    """The tool, answering with its model as structured content and the same JSON, without indentation, as
    text (the SDK would indent it: a third more bytes of an assistant's context, for clients that read text)."""

    @functools.wraps(method)
    def tool(*args: object, **kwargs: object) -> CallToolResult:
        result = method(*args, **kwargs)
        return CallToolResult(content=[TextContent(type="text", text=result.model_dump_json())],
                              structured_content=result.model_dump(mode="json"))

    return tool


def _build_deferred_models() -> None:
    """Build every troubleshooter model declared so far (they are ``defer_build``), nested ones included."""
    seen: set[type[BaseModel]] = set()
    todo: list[type[BaseModel]] = list(BaseModel.__subclasses__())
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        todo.extend(model.__subclasses__())
        if model.__module__.startswith("troubleshooter.") and not model.__name__.startswith("_"):
            model.model_rebuild()


def build_server(allow_dirs: Sequence[str | os.PathLike[str]] = (), *,
                 max_log_bytes: int = MAX_LOG_BYTES) -> MCPServer:
    """The MCP server with its four tools. ``allow_dirs``: folders lint_onnx_model may read."""
    tools = _Tools(allow_dirs, max_log_bytes)
    # The SDK serializes a tool's result (a Report, an Entry...) with pydantic_core, which pydantic 2.13 refuses
    # for a model still deferred: build them all now.
    _build_deferred_models()
    limit_mb = f"{max_log_bytes / 1e6:g} MB"
    server: MCPServer = MCPServer("trt-why", title="trt-why: TensorRT build-failure diagnosis",
                                  instructions=INSTRUCTIONS, version=__version__, log_level="WARNING")
    server.add_tool(
        _compact_text(tools.diagnose_log), name="diagnose_log", title="Diagnose a TensorRT build log",
        annotations=_read_only("Diagnose a TensorRT build log"),
        description=(
            "Diagnose a TensorRT engine-build or ONNX-conversion log (trtexec, TensorRT Python API, ONNX "
            "parser, Polygraphy, Torch-TensorRT) against trt-why's knowledge base of known failures. Returns "
            "the detected environment (TensorRT/CUDA versions, GPU, precisions) and the diagnoses ranked root "
            "cause first, each with the log lines that prove it (evidence), its causes, the verdict for the "
            "detected TensorRT version and its fixes with their first command; when the first error is one no "
            "known issue explains, it leads (first_error) with the next steps. An empty diagnoses list means "
            "no known failure matched. The answer is compact (a few KB); pass detail='full' for the whole "
            f"report (every cause, fix step, reference and clue). Logs over {limit_mb} are cut and the notes "
            "say so. Pass trt_version when the log does not print it; pass redact=true before sharing."),
    )
    server.add_tool(
        tools.explain_issue, name="explain_issue", title="Explain a known TensorRT issue",
        annotations=_read_only("Explain a known TensorRT issue"),
        description=(
            "Return the full trt-why knowledge-base entry for one known TensorRT failure, by its id (as "
            "given in a diagnose_log diagnosis or a search_known_issues result): title, severity, the log "
            "signatures (regexes) that recognise it, the TensorRT versions, platforms and precisions it "
            "concerns, its causes with their certainty, per-version advice, fixes with commands, the lint "
            "rules that confirm it on a model, references to primary sources, and example log lines."),
    )
    server.add_tool(
        tools.search_known_issues, name="search_known_issues", title="Search known TensorRT issues",
        annotations=_read_only("Search known TensorRT issues"),
        description=(
            "Fuzzy-search trt-why's knowledge base of known TensorRT build and conversion failures by words "
            "or by a pasted error message (numbers and node names are masked before matching). Returns the "
            "closest entries with id, title, severity, summary and a 0-100 similarity score. These are "
            "suggestions, not a diagnosis: use diagnose_log when you have the log, explain_issue for an "
            "entry's details."),
    )
    server.add_tool(
        tools.lint_onnx_model, name="lint_onnx_model", title="Lint an ONNX model for TensorRT",
        annotations=_read_only("Lint an ONNX model for TensorRT"),
        description=(
            "Check an ONNX model file for constructs TensorRT rejects or handles badly (INT8 grouped "
            "convolutions, Q/DQ placement, scales and zero points, unsupported ops, INT64 weights, dynamic "
            "shapes...) without building an engine. Returns findings with level, rule, message, the node "
            "names concerned and the knowledge-base entry each supports. Reads only .onnx files inside the "
            "folders the server operator allowed with --allow-dir (none by default; symlinks are resolved "
            "first), never external weight files outside the model's folder, and writes nothing."),
    )
    server.add_tool(
        issue_draft, name="issue_draft", title="Draft an upstream issue for a TensorRT failure",
        annotations=_read_only("Draft an upstream issue for a TensorRT failure"),
        description=(
            "Draft the upstream issue for a failing TensorRT log, for the tracker of the stack the log shows "
            "(NVIDIA/TensorRT, microsoft/onnxruntime, triton-inference-server/server, pytorch/TensorRT, "
            "NVIDIA/TensorRT-LLM, ultralytics/ultralytics, open-mmlab/mmdeploy, dusty-nv/jetson-inference, "
            "NVIDIA's forums for DeepStream...). Returns the Markdown body (redacted: user names, hosts and "
            "addresses hidden; at most 65,536 characters) with the environment table, the failing line and "
            "excerpt, what trt-why checked, the stack's reproduction step, the attachments its template asks "
            "for and a search link to find an existing issue first; plus the tracker and its new-issue URL. "
            "When known_fix is set the knowledge base already holds the failure with a confirmed fix: offer "
            "that fix before suggesting an issue."),
    )
    return server


_HTTP = re.compile(r"^(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<host>[\w.-]+)):(?P<port>\d{1,5})$")


def parse_http(spec: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) -> (host, port). Raises InputError."""
    m = _HTTP.match(spec.strip())
    port = int(m["port"]) if m else 0
    if not m or not 0 < port < 65536:
        raise InputError(f"--http {spec!r}: expected HOST:PORT, e.g. 127.0.0.1:8765")
    return (m["v6"] or m["host"]), port


def waiting_message(http: str | None = None, *, terminal: bool = True) -> str | None:
    """What `trt-why mcp` says on stderr while it waits: on stdio only when started on a terminal (a client
    that launched it reads nothing from stderr), with --http always (where to point a client)."""
    if http is None:
        if not terminal:
            return None
        return ("trt-why mcp: waiting for an MCP client on stdin/stdout (a client such as Claude Desktop or VS Code "
                "starts this command itself; Ctrl+C stops; `trt-why mcp --http 127.0.0.1:8765` serves over HTTP)")
    host, port = parse_http(http)
    where = f"[{host}]" if ":" in host else host
    return f"trt-why mcp: serving MCP over streamable HTTP at http://{where}:{port}/mcp (Ctrl+C stops)"


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False


def serve(http: str | None = None, allow_dirs: Sequence[str] = ()) -> int:
    """Run the server until the client disconnects (stdio) or it is interrupted (HTTP). Returns exit_codes.OK."""
    import sys

    server = build_server(allow_dirs)
    message = waiting_message(http, terminal=_isatty(sys.stdin))
    if message is not None:
        print(message, file=sys.stderr, flush=True)
    if http is None:
        server.run("stdio")
        return exit_codes.OK
    host, port = parse_http(http)
    server.run("streamable-http", host=host, port=port, max_request_body_size=HTTP_BODY_LIMIT)
    return exit_codes.OK
