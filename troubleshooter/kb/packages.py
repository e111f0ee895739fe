"""What to install for a Python module, as data: ``kb/packages/python.yaml``.

A missing module's pip argument is often not the module's name (cv2 is opencv-python, yaml is PyYAML), and some
modules are on no index under that name (NVIDIA's apex, OpenAI's clip: a PyPI package of the same name is another
library). A report that names a missing module fills `{pip_package}` and `{pip_note}` from this table
(`core.advice.template_values`), so the command installs what provides the module, not what shares its name.

The file is read when a report first needs it (a diagnosis that captured a module), never at start-up, and it lives
in a subfolder so the entry loader never reads it as an entry.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from pydantic import Field

from troubleshooter.kb.schema import StrictModel

_MODULE = r"^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$"


class ModuleInstall(StrictModel):
    """How a module is installed when its pip argument is not its name."""

    module: str = Field(pattern=_MODULE, description="The module as `import` names it (dotted for a submodule that "
                        "another distribution provides: physicsnemo.sym).")
    install: str = Field(min_length=2, pattern=r"^\S+$", description="The one argument to `pip install` that provides "
                         "it: a distribution (with extras) or a `git+https://` URL.")
    note: str = Field(min_length=10, description="One sentence for the report: what provides the module and what to "
                      "know before installing it.")
    source: str = Field(pattern=r"^https://", description="Where the install name is defined (the index page, the "
                        "project's install guide).")


class CommandInstall(StrictModel):
    """A command (console script) that a pip package installs."""

    command: str = Field(pattern=r"^[\w.-]+$", description="The command as a shell runs it.")
    install: str = Field(min_length=2, pattern=r"^\S+$", description="The one argument to `pip install` that provides it.")
    source: str = Field(pattern=r"^https://", description="Where the package documents the command or its install.")


class PackagesFile(StrictModel):
    """The file: one row per module, one per command."""

    modules: list[ModuleInstall] = Field(min_length=1)
    commands: list[CommandInstall] = Field(default_factory=list)


def packages_path() -> Path:
    """The table that ships with the package (beside the built-in KB's entries)."""
    from troubleshooter.kb.loader import builtin_kb_dir

    return builtin_kb_dir() / "packages" / "python.yaml"


def load_packages(path: Path | None = None, *, validate: bool = True) -> dict[str, ModuleInstall]:
    """Module -> row of `path` (default: the built-in file). Raises KBError on a broken file or a module listed twice."""
    return _load(path, validate=validate)[0]


def _load(path: Path | None, *, validate: bool) -> tuple[dict[str, ModuleInstall], dict[str, CommandInstall]]:
    """Both tables of `path` (default: the built-in file), from one read of it."""
    from troubleshooter.errors import KBError
    from troubleshooter.kb.loader import _describe, _read_limited, safe_load_yaml

    path = path or packages_path()
    data: Any = safe_load_yaml(_read_limited(path), str(path))
    if not isinstance(data, dict) or not isinstance(data.get("modules"), list):
        raise KBError("the packages file is a YAML mapping with a `modules:` list", path=str(path))
    if validate:
        from pydantic import ValidationError

        try:
            parsed = PackagesFile.model_validate(data)
        except ValidationError as exc:
            raise KBError(_describe(exc), path=str(path)) from None
        rows, commands = parsed.modules, parsed.commands
    else:
        try:
            rows = [ModuleInstall.model_construct(**row) for row in data["modules"]]
            commands = [CommandInstall.model_construct(**row) for row in data.get("commands") or []]
        except TypeError as exc:
            raise KBError(f"not a packages file ({exc}); run `trt-why kb validate`", path=str(path)) from None
    table: dict[str, ModuleInstall] = {}
    for row in rows:
        if row.module in table:
            raise KBError(f"module {row.module!r} is listed twice", path=str(path))
        table[row.module] = row
    return table, {c.command: c for c in commands}


@functools.cache
def _builtin() -> tuple[dict[str, ModuleInstall], dict[str, CommandInstall]]:
    """Both built-in tables, read once per process."""
    return _load(None, validate=False)


def builtin_packages() -> dict[str, ModuleInstall]:
    """The built-in module table."""
    return _builtin()[0]


def load_commands(path: Path | None = None) -> dict[str, CommandInstall]:
    """Command -> row of `path`'s `commands:` (default: the built-in file)."""
    return _load(path, validate=False)[1]


def builtin_commands() -> dict[str, CommandInstall]:
    """The built-in commands."""
    return _builtin()[1]


def install_for(module: str) -> ModuleInstall | None:
    """The row for `module` or, for a submodule, for the nearest package above it that has one (`esm.esmfold` has its
    own row; `cv2.dnn` is cv2's)."""
    table = builtin_packages()
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        row = table.get(".".join(parts[:end]))
        if row is not None:
            return row
    return None
