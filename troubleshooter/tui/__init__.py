"""The Textual app (`trt-why tui`): paste a log, walk through causes, version advice and fixes, lint the model.

Importing this package imports nothing heavy; ``troubleshooter.tui.app`` holds the app.
"""
