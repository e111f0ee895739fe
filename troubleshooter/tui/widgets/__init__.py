"""Widgets of the report screen, the paste area and the run status."""
