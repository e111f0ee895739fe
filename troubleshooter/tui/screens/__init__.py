"""Screens: paste or open a log, the report walk-through, help, a KB entry."""
