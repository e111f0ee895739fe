"""trt-why: why did my TensorRT engine build fail, and what do I do about it?

Public API (``__all__``)::

    from troubleshooter import diagnose, diagnose_path, get_engine, lint, render_chat
    report = diagnose(open("build.log", "rb").read(), trt_version="8.6.1")
    print(report.top.id if report.top else "nothing known")
    messages = render_chat(report, "slack")   # chat-sized Markdown, each message within Slack's limit
    engine = get_engine()                     # the KB and its matcher, loaded once: diagnose(..., engine=engine)
    findings = lint("model.onnx")             # a LintReport (needs the `lint` extra)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from troubleshooter.errors import InputError, KBError, LintError, TroubleshooterError

if TYPE_CHECKING:
    from troubleshooter.api import Engine, Options, diagnose, diagnose_path, diagnose_stream, get_engine, lint, load_kb
    from troubleshooter.lint.report import LintReport
    from troubleshooter.models import Diagnosis, Environment, Evidence, Report, Suggestion, Unexplained
    from troubleshooter.render.chat import render_chat

    __version__: str

# The API and the models load on first use (PEP 562): `trt-why` starts without pydantic until main()
# runs, so a Ctrl+C during start-up is handled like any other, and `import troubleshooter` stays cheap.
_LAZY = {
    "diagnose": "troubleshooter.api", "diagnose_path": "troubleshooter.api", "diagnose_stream": "troubleshooter.api",
    "get_engine": "troubleshooter.api", "lint": "troubleshooter.api", "load_kb": "troubleshooter.api",
    "Engine": "troubleshooter.api", "Options": "troubleshooter.api",
    "Diagnosis": "troubleshooter.models", "Environment": "troubleshooter.models", "Evidence": "troubleshooter.models",
    "Report": "troubleshooter.models", "Suggestion": "troubleshooter.models", "Unexplained": "troubleshooter.models",
    "LintReport": "troubleshooter.lint.report",
    "render_chat": "troubleshooter.render.chat",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        return _version()
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'troubleshooter' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def _version() -> str:
    """The installed distribution's version, from its metadata (read when first asked: importing
    importlib.metadata costs a one-shot run ~40 ms)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("trt-why")
    except PackageNotFoundError:  # a source tree that was never installed
        found = "0+unknown"
    globals()["__version__"] = found  # later reads find it without calling __getattr__
    return found


__all__ = [
    "Diagnosis", "Engine", "Environment", "Evidence", "InputError", "KBError", "LintError", "LintReport", "Options",
    "Report", "Suggestion", "TroubleshooterError", "Unexplained", "__version__", "diagnose", "diagnose_path",
    "diagnose_stream", "get_engine", "lint", "load_kb", "render_chat",
]
