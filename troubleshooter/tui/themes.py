"""The app's two themes: Textual's dark and light, with the text colours it uses made readable.

Textual's light theme draws warning, accent and success text at about 3:1 against its panels;
the light theme here darkens them to at least 4.5:1 (WCAG AA), and the dark theme lightens the
secondary colour used for suggestions. A test checks every text colour the app uses in both.
"""

from __future__ import annotations

import dataclasses

from textual.theme import BUILTIN_THEMES, Theme

DARK = "trt-why-dark"
LIGHT = "trt-why-light"
TEXT_COLOURS = ("text-warning", "text-error", "text-success", "text-primary", "text-accent", "text-secondary")
"""The theme variables the app writes text in (besides $text and $text-muted, which are automatic)."""


def _variant(base: str, name: str, **variables: str) -> Theme:
    theme = BUILTIN_THEMES[base]
    return dataclasses.replace(theme, name=name, variables={**theme.variables, **variables})


THEMES = [
    _variant("textual-dark", DARK, **{"text-secondary": "#6CB4EE"}),
    _variant("textual-light", LIGHT, **{"text-warning": "#7A4200", "text-accent": "#7A4200",
                                        "text-success": "#176030"}),
]
