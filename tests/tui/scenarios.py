"""The app's screens in a known state: used by the snapshot tests and by the README screenshots.

Each scenario builds the app (pinned KB, logs from tests/tui/data, paths relative to a folder it
chooses) and brings it to one screen. Nothing depends on the clock, the user's files or the theme.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.widgets import Input, Select
from tui_helpers import DATA, make_app, settle, wait_for_palette, wait_for_report, wait_for_screen, wait_until

from troubleshooter.tui.app import TrtWhyApp
from troubleshooter.tui.widgets.findings import FindingsTree

FUSION = "orin_int8_fusion.log"
NO_VERSION = "python_no_version.log"
Step = Callable[[Any], Awaitable[None]]


@dataclass
class Scenario:
    """An app and what to do with it before the picture is taken."""

    name: str
    log: str | None = None
    model: str | None = None
    steps: list[Step] = field(default_factory=list)
    theme: str | None = None
    needs_onnx: bool = False
    description: str = ""

    def app(self) -> TrtWhyApp:
        app = make_app(pinned=True, log=self.log, model=self.model)
        if self.theme:
            app.theme = self.theme
        return app

    async def run_before(self, pilot: Any) -> None:
        await pilot.pause()
        if self.log is not None:
            await wait_for_report(pilot)
        for step in self.steps:
            await step(pilot)
        await pilot.pause()  # the snapshot harness (and make_screenshots) then wait for the screen to settle


def press(*keys: str) -> Step:
    async def step(pilot: Any) -> None:
        await pilot.press(*keys)
        await settle(pilot)

    return step


def until_screen(name: str) -> Step:
    async def step(pilot: Any) -> None:
        await wait_for_screen(pilot, name)

    return step


def choose_version(version: str) -> Step:
    async def step(pilot: Any) -> None:
        app = pilot.app
        before = app.run_id
        app.screen.query_one("#version-select", Select).value = version
        await wait_until(pilot, lambda: app.run_id > before, f"a new diagnosis run for TensorRT {version}")
        await wait_for_report(pilot)

    return step


def unfold_all() -> Step:
    async def step(pilot: Any) -> None:
        tree = pilot.app.screen.query_one(FindingsTree)
        for node in list(tree.root.children):
            node.expand_all()
        await settle(pilot)

    return step


def palette_searched() -> Step:
    async def step(pilot: Any) -> None:
        await wait_for_palette(pilot)

    return step


def lint_done() -> Step:
    async def step(pilot: Any) -> None:
        await wait_until(pilot, lambda: pilot.app.lint_report is not None, "the lint report")

    return step


def type_into(selector: str, text: str) -> Step:
    async def step(pilot: Any) -> None:
        pilot.app.screen.query_one(selector, Input).value = text
        await pilot.pause()

    return step


def make_depthwise_model(folder: Path) -> str:
    """A Q/DQ depthwise conv named like the node in orin_int8_fusion.log's neighbour logs."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    c = 6
    inits = [numpy_helper.from_array(np.full((c, 1, 3, 3), 0.1, dtype=np.float32), "w"),
             numpy_helper.from_array(np.array(0.02, dtype=np.float32), "s"),
             numpy_helper.from_array(np.array(0, dtype=np.int8), "z")]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"], name="/model.2/cv1/conv/x_q"),
        helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["xdq"], name="/model.2/cv1/conv/x_dq"),
        helper.make_node("Conv", ["xdq", "w"], ["c"], name="/model.2/cv1/conv/Conv", pads=[1, 1, 1, 1], group=c),
        helper.make_node("Sigmoid", ["c"], ["sg"], name="/model.2/cv1/act/Sigmoid"),
        helper.make_node("Mul", ["c", "sg"], ["y"], name="/model.2/cv1/act/Mul"),
    ]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, c, 8, 8])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="trt-why-tests")
    model.ir_version = 8
    path = folder / "yolov8n_qat.onnx"
    onnx.save(model, str(path))
    return path.name


SCENARIOS: dict[str, Scenario] = {s.name: s for s in [
    Scenario("paste", description="Paste a log or open a file"),
    Scenario("open_dialog", steps=[press("ctrl+o"), until_screen("OpenFileDialog")],
             description="Ctrl+O: open a log file"),
    Scenario("report_why", log=FUSION, description="What we found, and tab 1 Why: the causes and the evidence in the log"),
    Scenario("report_unfolded", log=NO_VERSION, steps=[unfold_all()],
             description="Cascades folded under their root; unexplained lines with suggestions"),
    Scenario("version_question", log=NO_VERSION, steps=[press("2")],
             description="Tab 2 Your version: the log does not say which TensorRT: the app asks"),
    Scenario("version_answered", log=NO_VERSION, steps=[press("2"), choose_version("10.3")],
             description="Tab 2 Your version: the advice for the version you chose"),
    Scenario("fix_checklist", log=FUSION, steps=[press("3"), press("space", "down")],
             description="Tab 3 Fix it: fix steps as a checklist; c copies a command"),
    Scenario("model_lint", log=FUSION, steps=[press("4"), lint_done()], needs_onnx=True,
             description="Tab 4 Check the model: lint it; findings on the logged nodes first"),
    Scenario("export_dialog", log=FUSION, steps=[press("ctrl+e"), until_screen("ExportDialog")],
             description="Export the report as Markdown or JSON"),
    Scenario("help", log=FUSION, steps=[press("f1"), until_screen("HelpScreen")],
             description="Every binding"),
    Scenario("kb_palette", log=FUSION, steps=[press("ctrl+p"), until_screen("CommandPalette"),
                                              press(*"int8 silu"), palette_searched()],
             description="The KB browser: fuzzy search over titles, ids, tags and signatures"),
    Scenario("kb_entry", log=FUSION, steps=[press("ctrl+p"), until_screen("CommandPalette"),
                                            press(*"silu"), palette_searched(), press("enter"),
                                            until_screen("EntryScreen")],
             description="A KB entry"),
    Scenario("report_light", log=FUSION, theme="trt-why-light", description="The light theme"),
]}


def prepare(scenario: Scenario, base: Path) -> Scenario:
    """Copy the logs into ``base/builds`` and work there, so every path shown is relative and stable."""
    folder = base / "builds"
    folder.mkdir(exist_ok=True)
    for name in (FUSION, NO_VERSION):
        (folder / name).write_bytes((DATA / name).read_bytes())
    if scenario.needs_onnx and scenario.model is None:
        scenario = Scenario(**{**scenario.__dict__, "model": make_depthwise_model(folder)})
    os.chdir(folder)
    return scenario
