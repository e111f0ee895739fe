"""trt-why: why did my TensorRT engine build fail, and what do I do about it?

Public API::

    from troubleshooter import diagnose, diagnose_path, lint, load_kb
    report = diagnose(open("build.log", "rb").read())
    print(report.top.id if report.top else "nothing known")
"""

from __future__ import annotations

__version__ = "0.1.0"

from troubleshooter.api import diagnose, diagnose_path, diagnose_stream, get_engine, lint, load_kb
from troubleshooter.errors import InputError, KBError, LintError, TroubleshooterError
from troubleshooter.models import Diagnosis, Environment, Evidence, Report, Suggestion, Unexplained

__all__ = [
    "Diagnosis", "Environment", "Evidence", "InputError", "KBError", "LintError", "Report", "Suggestion",
    "TroubleshooterError", "Unexplained", "__version__", "diagnose", "diagnose_path", "diagnose_stream",
    "get_engine", "lint", "load_kb",
]
