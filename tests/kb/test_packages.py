"""The module table (`kb/packages/python.yaml`): what a report tells a user to `pip install` for a missing module."""

from __future__ import annotations

import re

import pytest

from troubleshooter.api import diagnose
from troubleshooter.cli.kb_selftest import validate_packages
from troubleshooter.kb.loader import load_kb
from troubleshooter.kb.packages import builtin_packages, install_for, load_packages


def test_the_table_validates_and_lists_each_module_once() -> None:
    assert validate_packages() == []
    assert len(load_packages()) == len(builtin_packages()) > 30


def test_a_module_listed_twice_is_refused(tmp_path) -> None:
    from troubleshooter.errors import KBError

    row = "  - {module: cv2, install: opencv-python, note: OpenCV's module is cv2, source: 'https://pypi.org/'}\n"
    path = tmp_path / "python.yaml"
    path.write_text("modules:\n" + row + row)
    with pytest.raises(KBError, match="listed twice"):
        load_packages(path)


def test_a_submodule_takes_its_own_row_then_its_package_row() -> None:
    assert install_for("esm.esmfold").install == "fair-esm[esmfold]"  # type: ignore[union-attr]
    assert install_for("esm").install == "fair-esm"  # type: ignore[union-attr]
    assert install_for("cv2.dnn").install == "opencv-python"  # type: ignore[union-attr]
    assert install_for("einops") is None


def test_the_signature_takes_every_dotted_module_of_the_table() -> None:
    """A dotted module is a release mismatch (the next steps say so) unless another distribution provides it: the
    signature lists exactly the table's dotted rows."""
    entry = load_kb().get("python-package-missing")
    assert entry is not None
    regex = next(s.regex for s in entry.match.signatures if s.id == "any-module-missing")
    listed = re.search(r"\(\?P<module_path>((?:[\w\\.]+\|)+)", regex)
    assert listed is not None
    in_signature = {m.replace("\\.", ".") for m in listed.group(1).strip("|").split("|")}
    assert in_signature == {m for m in builtin_packages() if "." in m}


def _report(line: str, platform_line: str = "") -> str:
    log = f'Traceback (most recent call last):\n  File "{platform_line or "/home/u/app/run.py"}", line 3, in <module>\n{line}\n'
    return diagnose(log).model_dump_json()


@pytest.mark.parametrize(("module", "install"), [
    ("yaml", "PyYAML"), ("sklearn", "scikit-learn"), ("cv2", "opencv-python"), ("google.protobuf", "protobuf"),
    ("physicsnemo.sym", "nvidia-physicsnemo.sym"), ("clip", "git+https://github.com/openai/CLIP.git"),
])
def test_the_install_command_names_what_provides_the_module(module: str, install: str) -> None:
    report = _report(f"ModuleNotFoundError: No module named '{module}'")
    assert f"pip install {install}" in report or f"pip install '{install}'" in report
    if module != install:
        assert f"pip install {module}\\n" not in report


def test_an_unlisted_module_is_installed_by_its_own_name_without_a_note() -> None:
    report = _report("ModuleNotFoundError: No module named 'einops'")
    assert "pip install einops" in report
    assert "is installed as" not in report


def test_a_windows_log_gets_the_same_name_in_its_own_form() -> None:
    report = _report("ModuleNotFoundError: No module named 'yaml'", "C:\\\\app\\\\run.py")
    assert "python -m pip install PyYAML" in report
    assert "python3 -m pip" not in report


def test_the_console_script_signature_lists_exactly_the_tables_commands() -> None:
    from troubleshooter.kb.packages import builtin_commands

    entry = load_kb().get("python-package-missing")
    assert entry is not None
    regex = next(s.regex for s in entry.match.signatures if s.id == "console-script-missing")
    groups = re.findall(r"\(\?P<command>([^)]*)\)", regex)
    assert groups and all(g == groups[0] for g in groups), "each form lists the same commands"
    assert {c.replace("\\.", ".") for c in groups[0].split("|")} == set(builtin_commands())


@pytest.mark.parametrize(("line", "install"), [
    ("bash: llamafactory-cli: command not found", "pip install llamafactory"),
    ("zsh: command not found: yolo", "pip install ultralytics"),  # zsh puts the name last
    ("bash: mytool: command not found", None),  # not a command the table knows
    ("/bin/sh: 1: torchrun: command not found", "pip install torch"),
])
def test_a_missing_command_installs_the_package_that_provides_it(line: str, install: str | None) -> None:
    report = diagnose(line)
    ids = [d.id for d in report.diagnoses]
    if install is None:
        assert "python-package-missing" not in ids
    else:
        assert ids[:1] == ["python-package-missing"], ids
        assert install in report.model_dump_json()
