"""``trt-why lint``: a TensorRT-aware ONNX model linter.

Importing this package does not import onnx: ``lint_path`` loads it when called, so the
one-shot CLI stays fast and works without the ``lint`` extra until lint is used.
"""

from __future__ import annotations

import os
import sys
import types

from troubleshooter.errors import LintError
from troubleshooter.lint.report import Finding, LintReport

__all__ = ["Finding", "LintReport", "lint_path"]


def lint_path(
    path: str | os.PathLike[str],
    *,
    trt_version: str | None = None,
    polygraphy: bool = False,
    polygraphy_timeout: float = 120.0,
    input_shapes: dict[str, list[int]] | None = None,
) -> LintReport:
    """Lint the ONNX model at ``path`` for TensorRT.

    ``trt_version`` selects version-dependent rules and messages (None: current releases,
    with 8.x differences noted). ``polygraphy`` also runs ``polygraphy check lint`` in a
    subprocess when it is installed. Raises ``LintError`` (CLI exit 2) when onnx is missing
    or the file cannot be linted (missing, not ONNX, truncated, unsafe external data...).
    """
    try:
        import onnx  # noqa: F401
    except ImportError:
        raise LintError("onnx is not installed: pip install 'trt-why[lint]'") from None
    from troubleshooter.lint.engine import lint

    return lint(path, trt_version=trt_version, polygraphy=polygraphy, polygraphy_timeout=polygraphy_timeout,
                input_shapes=input_shapes)


class _LintPackage(types.ModuleType):
    """This package doubles as the API function.

    ``from troubleshooter import lint`` must give the function ``lint(path, ...)``, but once anything
    imports ``troubleshooter.lint.*`` the import system binds this package to that name. Making the
    package callable keeps both spellings working.
    """

    def __call__(self, path: str | os.PathLike[str], *, trt_version: str | None = None,
                 polygraphy: bool = False) -> LintReport:
        return lint_path(path, trt_version=trt_version, polygraphy=polygraphy)


sys.modules[__name__].__class__ = _LintPackage
