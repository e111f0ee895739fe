"""Fixtures for the reliability tests; the shared helpers live in rel_helpers.py.

(Test modules import `rel_helpers`, not `conftest`: with several conftest.py files in one
session, `from conftest import ...` would pick whichever was imported first.)
"""


from rel_helpers import engine  # noqa: F401 - a fixture: pytest finds it by name here
