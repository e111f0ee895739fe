"""Every output format renders what the registry (`troubleshooter.render.formats`) says it renders."""

from __future__ import annotations

import json

import pytest

from troubleshooter import diagnose
from troubleshooter.render import formats, render, render_many
from troubleshooter.render.markdown import fence

LOG = ("[11/02/2023-10:12:40] [E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error "
       "(Could not find any implementation for node /m/Conv + PWN(PWN(/m/Sigmoid), /m/Mul).)\n"
       "[E] [TRT] 2: [foo.cpp::bar::9] Error Code 2: Internal Error (something nobody knows)\n")


@pytest.mark.parametrize("fmt", formats.names("report"))
def test_every_format_renders(fmt: str) -> None:
    report = diagnose(LOG)
    out = render(report, fmt)
    assert out.endswith("\n") and "conv-act-fusion-no-impl" in out
    if fmt == "json":
        assert json.loads(out)["diagnoses"][0]["id"] == "conv-act-fusion-no-impl"


@pytest.mark.parametrize("fmt", formats.names("reports"))
def test_every_format_renders_several_reports(fmt: str) -> None:
    reports = [diagnose(LOG, name="a.log"), diagnose(LOG, name="b.log")]
    out = render_many(reports, fmt)
    assert out.endswith("\n") and out.count("conv-act-fusion-no-impl") >= 2
    if fmt == "json":
        assert [r["source"]["name"] for r in json.loads(out)] == ["a.log", "b.log"]


def test_every_registered_renderer_exists_and_suffixes_are_distinct() -> None:
    from typing import get_args

    products = get_args(formats.Product)
    for f in formats.FORMATS:
        assert f.suffix.startswith(".") and f.label and f.renderers
        for product in f.renderers:
            assert product in products, (f.name, product)
            assert callable(f.renderer(product)), (f.name, product)  # type: ignore[arg-type]
    assert len({f.suffix for f in formats.FORMATS}) == len(formats.FORMATS)
    assert len({f.name for f in formats.FORMATS}) == len(formats.FORMATS)


def test_unknown_format_is_a_value_error_naming_the_choices() -> None:
    report = diagnose(LOG)
    with pytest.raises(ValueError, match="text, markdown, json"):
        render(report, "yaml")
    with pytest.raises(ValueError, match="sarif"):  # SARIF renders lint reports only
        formats.render("jsonl", "lint", report)
    with pytest.raises(ValueError, match="unknown format"):
        formats.get("yaml")


def test_the_export_choices_and_terminal_options_come_from_the_registry() -> None:
    assert [f.name for f in formats.exportable()] == ["markdown", "json", "issue"]
    assert all(f.can_render("report") for f in formats.exportable())
    # Only a terminal format receives colour / width: the others ignore them.
    report = diagnose(LOG)
    assert formats.render("json", "report", report, colour=True, width=40) == render(report, "json")


def test_text_labels_suggestions_as_suggestions() -> None:
    out = render(diagnose(LOG), "text")
    assert "Error lines no diagnosis explains" in out


def test_fence_survives_backticks() -> None:
    block = fence("a ``` b", "text")
    assert block.startswith("````text") and block.endswith("````")
