"""The app-wide key bindings: read by the app (`TrtWhyApp.BINDINGS`) and by the help screen, which lists
them (kept here so that the help need not import the app)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

APP_BINDINGS: list[BindingType] = [
    Binding("f1,question_mark", "help", "Help"),
    Binding("ctrl+p", "command_palette", "Search KB", priority=True, show=False),
    Binding("ctrl+t", "toggle_theme", "Theme", priority=True),
    Binding("ctrl+q", "quit", "Quit", priority=True),
]
"""Everywhere: help, the KB search palette, the theme, quit."""
