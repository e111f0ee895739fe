"""The environment read from the log (TensorRT, CUDA, driver, GPU, platform), unknowns marked."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from troubleshooter.models import Report

UNKNOWN = "unknown"


def _fact(label: str, value: str | None, line: int | None = None, *, said: bool = False) -> Content:
    label = f"{label} " if label else ""
    if value is None:
        return Content.assemble((label, "$text-muted"), (UNKNOWN, "italic $text-warning"))
    note = " (you said)" if said else (f" (line {line})" if line else "")
    return Content.assemble((label, "$text-muted"), (value, "bold"), (note, "$text-muted"))


def environment_content(report: Report, user_version: str | None = None) -> Content:
    """One fact a line, label first; anything the log does not say is marked unknown."""
    env = report.environment
    src = env.sources
    gpu = env.gpu
    if gpu and env.compute_capability:
        gpu = f"{gpu} (sm {env.compute_capability})"
    elif env.compute_capability:
        gpu = f"sm {env.compute_capability}"
    said = user_version is not None and user_version == env.tensorrt_version
    outcome = {True: "build succeeded", False: "build failed", None: "outcome unknown"}[env.build_succeeded]
    platform = env.platform + (f" (JetPack {env.jetpack})" if env.jetpack else "") if env.platform else None
    onnx = [f"opset {env.onnx_opset}"] if env.onnx_opset is not None else []
    if env.onnx_producer:
        onnx.append(env.onnx_producer)
    precision = "+".join(p.upper() for p in env.precisions) or None
    sep = Content.styled(" · ", "$text-muted")
    lines = [
        _fact("TensorRT", env.tensorrt_version, src.get("tensorrt_version"), said=said),
        sep.join([_fact("CUDA    ", env.cuda_version), _fact("driver", env.driver_version)]),
        sep.join([_fact("GPU     ", gpu), _fact("platform", platform)]),
        sep.join([_fact("tool    ", env.front_end), _fact("precision", precision)]),
        _fact("ONNX    ", " · ".join(onnx) or None),
        Content.styled(f"{outcome} · {report.source.lines:,} lines", "$text-muted"),
    ]
    return Content("\n").join(lines)


class EnvironmentPanel(Static):
    """The environment block at the top of the report screen."""

    DEFAULT_CSS = """
    EnvironmentPanel { height: auto; padding: 0 1; border: round $primary 50%; border-title-color: $text-primary; }
    """

    def on_mount(self) -> None:
        self.border_title = "Environment"

    def show_report(self, report: Report, user_version: str | None = None) -> None:
        self.update(environment_content(report, user_version))
