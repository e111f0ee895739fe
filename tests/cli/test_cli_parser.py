"""The one parser (#15): subcommands, diagnose by default, choices read from their one list, start-up."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.rel_helpers import ROOT, run_cli
from troubleshooter import cli
from troubleshooter.models import PLATFORMS
from troubleshooter.render import formats

LOG = "[11/02/2023-10:12:40] [E] [TRT] 4: [network.cpp::validate::2965] Error Code 4: Internal Error (boom)\n"


def _choices(parser_args: list[str], option: str) -> list[str]:
    parser = cli.build_parser(parser_args[0])
    sub = parser._subparsers._group_actions[0].choices[parser_args[0]]  # type: ignore[union-attr]
    for level in parser_args[1:]:
        sub = sub._subparsers._group_actions[0].choices[level]  # type: ignore[union-attr]
    (action,) = [a for a in sub._actions if option in a.option_strings]
    return list(action.choices)


def test_help_lists_every_command_and_every_exit_code() -> None:
    r = run_cli("--help")
    out = r.stdout.decode()
    assert r.returncode == 0
    for name in cli.COMMANDS:
        assert re.search(rf"^\s+{name}\s", out, re.MULTILINE), name
    codes = out.split("Exit codes", 1)[1]
    for code in ("0", "1", "2", "130"):
        assert re.search(rf"^\s+{code}\s", codes, re.MULTILINE), code
    assert "--format" in out and "--platform" in out  # the default command's options are shown too


@pytest.mark.parametrize("name", [n for n in cli.COMMANDS if n != "diagnose"])
def test_every_command_has_its_help(name: str) -> None:
    r = run_cli(name, "--help")
    assert r.returncode == 0 and r.stdout.decode().startswith(f"usage: trt-why {name}")


def test_choices_come_from_their_one_list() -> None:
    assert _choices(["diagnose"], "--format") == list(formats.names("report"))
    assert _choices(["diagnose"], "--platform") == list(PLATFORMS)
    assert _choices(["diagnose"], "--chat") == list(formats.CHAT_LIMITS)
    assert _choices(["lint"], "--format") == list(formats.names("lint"))
    assert _choices(["scan"], "--format") == list(formats.names("fleet-summary"))


def test_diagnose_is_the_default_command(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    log.write_text(LOG, encoding="utf-8")
    implicit = run_cli("--format", "json", str(log))
    explicit = run_cli("diagnose", "--format", "json", str(log))
    assert implicit.returncode == explicit.returncode == 1
    assert json.loads(implicit.stdout) == json.loads(explicit.stdout)
    short = run_cli(str(log), "-f", "json")
    assert json.loads(short.stdout) == json.loads(implicit.stdout)


@pytest.mark.parametrize("argv", [["./tui"], ["--", "tui"], ["tui"], ["--format", "json", "tui"]])
def test_a_log_named_like_a_command_is_diagnosed(argv: list[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tui").write_text(LOG, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = run_cli(*argv)
    assert r.returncode == 1, r.stderr
    assert b"Error Code 4" in r.stdout


def test_a_command_with_arguments_stays_a_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "kb").write_text(LOG, encoding="utf-8")  # a file named kb does not hide `trt-why kb list`
    monkeypatch.chdir(tmp_path)
    r = run_cli("kb", "list", "-f", "json")
    assert r.returncode == 0 and r.stdout.lstrip().startswith(b"[")


def test_the_matcher_is_an_option_not_an_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "build.log"
    log.write_text(LOG, encoding="utf-8")
    monkeypatch.delenv("TRT_WHY_MATCHER", raising=False)
    assert cli.main(["--matcher", "python", "--format", "json", str(log)]) == 1
    assert "TRT_WHY_MATCHER" not in os.environ
    assert json.loads(capsys.readouterr().out)["schema_version"] == 1
    assert cli.main(["scan", str(log), "--matcher", "python", "--jobs", "1", "--no-progress"]) == 0  # no diagnosis
    assert "TRT_WHY_MATCHER" not in os.environ
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]["logs"] == 1
    bad = run_cli("--matcher", "fastest", str(log))
    assert bad.returncode == 2 and bad.stderr.decode().count("\n") == 1 and b"hyperscan" in bad.stderr


def test_a_bad_option_fails_before_any_log_is_read(tmp_path: Path) -> None:
    r = run_cli("--trt-version", "banana", str(tmp_path / "missing.log"))  # the option, not the missing file
    assert r.returncode == 2 and b"not a version" in r.stderr


def _modules_after(args: list[str]) -> set[str]:
    code = ("import sys, json\nfrom troubleshooter.cli import main\n"
            f"try:\n    main({args!r})\nexcept SystemExit:\n    pass\nsys.stdout.flush()\n"
            "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)) + '\\n')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=str(ROOT), timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), check=False)
    return set(json.loads(proc.stderr.decode().rsplit("MODULES ", 1)[1]))


LATER = ("troubleshooter.cli.lint", "troubleshooter.cli.tui", "troubleshooter.cli.mcp", "troubleshooter.cli.kb",
         "troubleshooter.cli.kb_selftest", "troubleshooter.cli.scan", "troubleshooter.cli.eval", "troubleshooter.tui",
         "textual", "onnx")


def test_commands_are_imported_only_when_they_run() -> None:
    log = str(ROOT / "sample_logs" / "yolov8-int8-orin-silu.log")
    for args in (["--help"], [log], ["--format", "json", log]):
        loaded = _modules_after(args)
        assert not {m for m in loaded if m.split(".")[0] in LATER or m in LATER}, args
    # A command's --help declares only that command: no engine, no models.
    loaded = _modules_after(["kb", "--help"])
    assert "pydantic" not in {m.split(".")[0] for m in loaded}
    assert "troubleshooter.cli.kb" not in loaded


NAMED = [*sorted((ROOT / "troubleshooter" / "cli").glob("*.py")),
         *sorted((ROOT / "troubleshooter" / "tui").rglob("*.py")),
         *sorted((ROOT / "troubleshooter" / "integrations").glob("*.py")),
         *sorted((ROOT / "troubleshooter" / "render").glob("*.py"))]
BARE_EXIT = re.compile(r"\b(?:return|exit\()\s*(?:0|1|2|130)\b")


@pytest.mark.parametrize("path", NAMED, ids=lambda p: str(p.relative_to(ROOT)))
def test_exit_codes_are_named(path: Path) -> None:
    """The ways in and the renderers return exit_codes.OK / FOUND / ERROR / INTERRUPTED, never a bare number."""
    bare = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if BARE_EXIT.search(line)]
    assert bare == []
