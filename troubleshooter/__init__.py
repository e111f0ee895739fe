"""trt-why: why did my TensorRT engine build fail, and what do I do about it?

Public API::

    from troubleshooter import diagnose, diagnose_path, lint, load_kb, render_chat
    report = diagnose(open("build.log", "rb").read())
    print(report.top.id if report.top else "nothing known")
    messages = render_chat(report, "slack")   # chat-sized Markdown, each message within Slack's limit
"""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

from troubleshooter.errors import InputError, KBError, LintError, TroubleshooterError

if TYPE_CHECKING:
    from troubleshooter.api import Options, diagnose, diagnose_path, diagnose_stream, get_engine, lint, load_kb
    from troubleshooter.models import Diagnosis, Environment, Evidence, Report, Suggestion, Unexplained
    from troubleshooter.render.chat import render_chat

# The API and the models load on first use (PEP 562): `trt-why` starts without pydantic until main()
# runs, so a Ctrl+C during start-up is handled like any other, and `import troubleshooter` stays cheap.
_LAZY = {
    "diagnose": "troubleshooter.api", "diagnose_path": "troubleshooter.api", "diagnose_stream": "troubleshooter.api",
    "get_engine": "troubleshooter.api", "lint": "troubleshooter.api", "load_kb": "troubleshooter.api",
    "Options": "troubleshooter.api",
    "Diagnosis": "troubleshooter.models", "Environment": "troubleshooter.models", "Evidence": "troubleshooter.models",
    "Report": "troubleshooter.models", "Suggestion": "troubleshooter.models", "Unexplained": "troubleshooter.models",
    "render_chat": "troubleshooter.render.chat",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'troubleshooter' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)

__all__ = [
    "Diagnosis", "Environment", "Evidence", "InputError", "KBError", "LintError", "Options", "Report", "Suggestion",
    "TroubleshooterError", "Unexplained", "__version__", "diagnose", "diagnose_path", "diagnose_stream",
    "get_engine", "lint", "load_kb", "render_chat",
]
