"""Every output format renders (the enum is exhaustive)."""

from __future__ import annotations

import json

import pytest

from troubleshooter import diagnose
from troubleshooter.render import OutputFormat, render
from troubleshooter.render.markdown import fence

LOG = ("[11/02/2023-10:12:40] [E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error "
       "(Could not find any implementation for node /m/Conv + PWN(PWN(/m/Sigmoid), /m/Mul).)\n"
       "[E] [TRT] 2: [foo.cpp::bar::9] Error Code 2: Internal Error (something nobody knows)\n")


@pytest.mark.parametrize("fmt", list(OutputFormat))
def test_every_format_renders(fmt: OutputFormat) -> None:
    report = diagnose(LOG)
    out = render(report, fmt)
    assert out.endswith("\n") and "conv-act-fusion-no-impl" in out
    if fmt is OutputFormat.JSON:
        assert json.loads(out)["diagnoses"][0]["id"] == "conv-act-fusion-no-impl"


def test_text_labels_suggestions_as_suggestions() -> None:
    out = render(diagnose(LOG), "text")
    assert "Error lines no diagnosis explains" in out


def test_fence_survives_backticks() -> None:
    block = fence("a ``` b", "text")
    assert block.startswith("````text") and block.endswith("````")
