"""Write SVG screenshots of the app's main screens to docs/screenshots/ (for the README).

    python tests/tui/make_screenshots.py [NAME ...]

The screens are the snapshot tests' scenarios (pinned KB, the logs in tests/tui/data), taken at
120x40 in the dark theme (and one in the light theme), so the pictures only change when the app does.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

from scenarios import SCENARIOS, prepare
from tui_helpers import SIZE, settle

OUT = HERE.parents[1] / "docs" / "screenshots"
MAIN = ["paste", "report_why", "report_unfolded", "version_question", "fix_checklist", "model_lint", "kb_palette",
        "help", "report_light"]


async def shoot(name: str, out: Path) -> Path:
    with tempfile.TemporaryDirectory() as tmp:
        scenario = prepare(SCENARIOS[name], Path(tmp))
        app = scenario.app()
        async with app.run_test(size=SIZE) as pilot:
            await scenario.run_before(pilot)
            await settle(pilot)
            path = out / f"{name.replace('_', '-')}.svg"
            path.write_text(app.export_screenshot(title=f"trt-why: {scenario.description}"), encoding="utf-8")
            return path


def main(argv: list[str]) -> int:
    names = argv or MAIN
    OUT.mkdir(parents=True, exist_ok=True)
    cwd = Path.cwd()
    try:
        for name in names:
            print(asyncio.run(shoot(name, OUT)).relative_to(OUT.parents[1]))
    finally:
        import os

        os.chdir(cwd)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
