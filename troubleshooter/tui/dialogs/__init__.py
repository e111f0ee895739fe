"""Modal dialogs: open a file, export the report."""
