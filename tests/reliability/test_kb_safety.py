"""The KB cannot hurt the user: runaway regexes, unsafe YAML, alias bombs, broken entries, extra folders."""

from __future__ import annotations

import datetime as dt
import os
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from rel_helpers import OOM_ID, OOM_LINE_NO, OOM_LOG, ROOT, assert_one_line_error, run_cli

from troubleshooter import api
from troubleshooter.api import (
    Engine,
    load_kb,  # the KB as the engine loads it: its regexes checked
)
from troubleshooter.cli.kb_selftest import SCAFFOLD
from troubleshooter.core.regexes import VALIDATE_LENGTH, adversarial_inputs, check_backtracking, derive_literals
from troubleshooter.errors import KBError
from troubleshooter.kb.loader import (
    MAX_YAML_NODES,
    KnowledgeBase,
    builtin_kb_dir,
    load_folders,
    parse_entry,
    safe_load_yaml,
)
from troubleshooter.kb.schema import Entry, Signature

BUILTIN_COUNT = len(load_folders([builtin_kb_dir()]).entries)


def entry_data(entry_id: str, regex: str = r"Exact message text with (?P<node>[^ ]+) captured",
               literals: list[str] | None = None) -> dict[str, Any]:
    """A valid entry (the `kb new` scaffold) with its trigger regex replaced (and its literals: those given,
    else the regex's own)."""
    data = yaml.safe_load(SCAFFOLD.format(id=entry_id, today=dt.date.today().isoformat()))
    sig = data["match"]["signatures"][0]
    sig["regex"] = regex
    sig["literals"] = literals or derive_literals(regex) or sig["literals"]
    return data  # type: ignore[no-any-return]


def write_entry(folder: Path, data: dict[str, Any], name: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name or data['id']}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


# -- the backtracking guard --------------------------------------------------------------------------

CATASTROPHIC = [
    r"Error Code (\w+\s?)+\(",
    r"(\w+\s?)+\(",
    r"Could not find (a|aa)+$",
    r"Could not find (?P<x>(\w|\d)+)+ implementation",
    r"Assertion failed: (.*,)*x",
    r"Error Code 4:(\s*\w+)*:",
    r"tactic ([a-z0-9]+)*!",
    r"while parsing node (?:x\w+)+y",
    r"node (?P<n>(?:[\w/.]+\s?)+) failed",
]


@pytest.mark.parametrize("pattern", CATASTROPHIC, ids=[
    "error-code-word-space", "word-space", "a-or-aa", "word-or-digit-nested", "dotstar-comma", "space-word-star",
    "class-plus-star", "x-word-plus", "node-path-space"])
def test_validate_rejects_catastrophic_backtracking(pattern: str) -> None:
    literals = (derive_literals(pattern) or [""]) if "Error" in pattern or "Could" in pattern or "node" in pattern \
        or "Assertion" in pattern or "tactic" in pattern else ["Error"]
    problem = check_backtracking(Signature(id="s", regex=pattern, literals=literals))
    assert problem is not None and "backtrack" in problem, problem


SOUND = [
    r"Could not find any implementation for node (?P<node>.+?) due to insufficient workspace",
    r"version (?P<v>(?:\d+\.)+\d+)",
    r"Error Code (?P<code>\d+): (?P<kind>[\w ]+?) \((?P<detail>[^)]*)\)",
    r"(?:\[\w+\])+ ERROR: (?P<msg>.*)",
    r"(?P<a>x)|(?P<a>y)z+",  # repeated group names: the `regex` module allows them
    r"\p{L}+ failed",  # syntax the standard library's parser does not know
]


@pytest.mark.parametrize("pattern", SOUND, ids=[
    "lazy-node", "dotted-version", "error-code-groups", "bracketed-levels", "repeated-group-names", "unicode-property"])
def test_validate_accepts_sound_regexes(pattern: str) -> None:
    assert check_backtracking(Signature(id="s", regex=pattern, literals=["failed", "ERROR", "Error", "x", "version",
                                                                          "Could"])) is None


def test_adversarial_inputs_reach_the_repeat() -> None:
    """The inputs start with what leads up to the repeat, not merely the prefilter literal."""
    sig = Signature(id="s", regex=r"node (?P<n>[a-z]+)+ failed to build", literals=[" failed to build"])
    inputs = adversarial_inputs(sig, VALIDATE_LENGTH)
    assert any(text.startswith("node aaaa") and text.endswith("\x00") for text in inputs)
    assert all(len(text) <= VALIDATE_LENGTH + 64 for text in inputs)


def test_every_builtin_signature_passes_the_guard() -> None:
    kb = load_kb()
    bad = [f"{e.id}: {problem}" for e in kb.entries for s in e.match.signatures if (problem := check_backtracking(s))]
    assert bad == []


def test_kb_validate_cli_reports_a_catastrophic_regex_in_an_extra_folder(tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    path = write_entry(folder, entry_data("my-runaway", r"Exact message text (\w+\s?)+\(", ["Exact message"]))
    write_entry(folder, entry_data("my-fine-entry"))
    result = run_cli("kb", "--kb", str(folder), "validate", timeout=180)
    out = result.stdout.decode()
    assert "Traceback" not in result.stderr.decode()
    assert result.returncode == 1, out
    assert f"{path}: match.signatures.main-message.regex:" in out and "backtrack" in out
    assert f"{BUILTIN_COUNT + 1} entries" in out  # the sound extra entry loaded, the runaway one did not


# -- the run-time budget -------------------------------------------------------------------------------

def _engine_with(*entries: Entry) -> Engine:
    """An engine built straight from entries: bypasses the load-time regex check, as a stale cache might."""
    return Engine.from_kb(KnowledgeBase(list(entries)))


def test_runaway_signature_is_skipped_at_run_time_with_a_note() -> None:
    runaway = parse_entry(yaml.safe_dump(entry_data("my-runaway", r"Could not find (a|aa)+$")), "x.yaml")
    sound = load_kb().get(OOM_ID)
    assert sound is not None
    engine = _engine_with(runaway, sound)
    hostile = "".join(f"[E] Could not find {'a' * 3000}!\n" for _ in range(200))
    start = time.monotonic()
    report = api.diagnose(hostile + OOM_LOG, engine=engine)
    elapsed = time.monotonic() - start
    # A hang guard, not a speed figure: unskipped, (a|aa)+$ on 3000 a's runs for ever.
    assert elapsed < 60, f"{elapsed:.1f} s: the runaway signature was not skipped"
    assert any("my-runaway::main-message" in note and "skipped" in note for note in report.notes), report.notes
    assert report.top is not None and report.top.id == OOM_ID
    assert report.top.evidence[0].line == 200 + OOM_LINE_NO


def test_slow_signature_in_an_extra_folder_is_skipped_via_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A quadratic regex that passes validation, under a tiny run-time budget (TRT_WHY_MATCH_TIMEOUT=0.002,
    read at start-up: test_limit_variables_are_read_at_start_up checks that part in a fresh interpreter)."""
    folder = tmp_path / "kb"
    write_entry(folder, entry_data("my-slow-entry", r"Selected Thing: (?P<thing>.+?)\s*$"))
    log = tmp_path / "build.log"
    log.write_text("[E] Selected Thing: a" + " " * 8000 + "x\n" + OOM_LOG)
    monkeypatch.setattr(api, "_MATCH_TIMEOUT", 0.002)
    result = run_cli("--kb", str(folder), "--format", "json", str(log))
    import json

    report = json.loads(result.stdout)
    assert "Traceback" not in result.stderr.decode()
    assert any("my-slow-entry::main-message" in n and "skipped" in n for n in report["notes"]), report["notes"]
    assert report["diagnoses"][0]["id"] == OOM_ID


def test_signature_time_is_budgeted_per_log_not_only_per_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines each just under the per-line limit: past a total budget per log the signature is skipped."""
    slow = parse_entry(yaml.safe_dump(entry_data("my-slow-entry", r"Selected Thing: (?P<thing>.+?)\s*$")), "x.yaml")
    engine = _engine_with(slow)
    engine.matcher.signature_budget = 0.0  # any time at all exhausts it
    pad = " " * 2000
    text = "".join(f"[E] Selected Thing: {pad}x{i}\n" for i in range(5))  # distinct lines: no memo
    report = api.diagnose(text, engine=engine)
    notes = [n for n in report.notes if "my-slow-entry::main-message" in n]
    assert notes and "in total" in notes[0] and "skipped" in notes[0], report.notes
    # Skipped after the first line: the rest of the log no longer pays for it.
    assert "(line 1)" in notes[0]


# -- YAML ---------------------------------------------------------------------------------------------

def test_yaml_python_tags_are_never_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f"id: !!python/object/apply:os.system ['touch {marker}']\n"
    with pytest.raises(KBError, match="not valid YAML"):
        safe_load_yaml(text, "evil.yaml")
    folder = tmp_path / "kb"
    folder.mkdir()
    (folder / "evil.yaml").write_text(text)
    kb = load_kb([folder])
    assert not marker.exists()
    assert any(p.path.endswith("evil.yaml") for p in kb.problems)
    assert len(kb) == BUILTIN_COUNT


def _laughs(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        refs = ", ".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_rejected_quickly(tmp_path: Path) -> None:
    start = time.monotonic()
    with pytest.raises(KBError, match=f"more than {MAX_YAML_NODES} nodes"):
        safe_load_yaml(_laughs(), "laughs.yaml")
    assert time.monotonic() - start < 60  # a hang guard, not a speed figure: expanded, it is 9**9 nodes
    folder = tmp_path / "kb"
    folder.mkdir()
    (folder / "laughs.yaml").write_text(_laughs())
    result = run_cli("kb", "--kb", str(folder), "validate", timeout=180)
    assert "Traceback" not in result.stderr.decode()
    assert "laughs.yaml" in result.stdout.decode() and "nodes" in result.stdout.decode()


@pytest.mark.parametrize("text", [
    pytest.param("a: &a [*a]\n", id="recursive-sequence"),
    pytest.param("a: &a {b: *a}\n", id="recursive-mapping"),
    # libyaml's composer would overflow the C stack; newer PyYAML scanners refuse it themselves
    pytest.param("a: " + "[" * 200_000 + "]" * 200_000 + "\n", id="200k-brackets"),
    pytest.param("".join("  " * i + f"k{i}:\n" for i in range(500)) + "  " * 500 + "v\n", id="500-levels"),
])
def test_recursive_and_deep_yaml_is_refused_not_a_crash(text: str) -> None:
    """Refused as a KBError naming the file, in one line, whichever layer (ours or PyYAML's) stops it:
    the wording of a library's own message is not ours to pin."""
    start = time.monotonic()
    with pytest.raises(KBError) as caught:
        safe_load_yaml(text, "deep.yaml")
    message = str(caught.value)
    assert message.startswith("deep.yaml: ") and "\n" not in message and len(message) < 400
    assert time.monotonic() - start < 60  # a hang guard, not a speed figure


def test_ordinary_anchors_still_work() -> None:
    assert safe_load_yaml("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}


# -- broken entries and --strict ------------------------------------------------------------------------

BROKEN = {
    "missing-causes": (lambda d: d.pop("causes"), "causes"),
    "bad-severity": (lambda d: d.update(severity="catastrophic"), "severity"),
    "bad-version-range": (lambda d: d["applies"].update(trt="eight point six"), "applies.trt"),
    "no-trigger": (lambda d: d["match"]["signatures"][0].update(role="support"), "trigger"),
    "regex-does-not-compile": (lambda d: d["match"]["signatures"][0].update(regex="(unclosed"), "regex"),
    "unknown-field": (lambda d: d.update(colour="red"), "colour"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_entry_is_reported_with_file_and_field_and_the_rest_loads(name: str, tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    data = entry_data(f"my-{name}")
    mutate, field = BROKEN[name]
    mutate(data)
    path = write_entry(folder, data)
    write_entry(folder, entry_data("my-good-entry"))
    kb = load_kb([folder])
    assert [p.path for p in kb.problems] == [str(path)]
    assert field in kb.problems[0].message, kb.problems[0].message
    assert "\n" not in kb.problems[0].message
    assert len(kb) == BUILTIN_COUNT + 1 and kb.get("my-good-entry") is not None
    # The CLI still diagnoses, and says the KB had a problem.
    log = tmp_path / "build.log"
    log.write_text(OOM_LOG)
    result = run_cli("--kb", str(folder), str(log))
    assert result.returncode == 1 and "Traceback" not in result.stderr.decode()
    assert b"could not be loaded" in result.stdout
    # --strict fails instead, naming the file.
    with pytest.raises(KBError, match=str(path)):
        load_kb([folder], strict=True)
    strict = run_cli("kb", "--kb", str(folder), "--strict", "list")
    assert_one_line_error(strict, str(path))


@pytest.mark.parametrize("content, words", [
    pytest.param(b"\xff\xfe\x00binary", "utf-8", id="not-utf8"),
    pytest.param(b"", "empty", id="empty"),
    pytest.param(b"- just\n- a list\n", "mapping", id="a-list"),
    pytest.param(b"id: x\n---\nid: y\n", "not valid YAML", id="two-documents"),  # ours; the rest is PyYAML's
    pytest.param(b"x" * (300 * 1024), "larger than", id="300kb"),
])
def test_unreadable_entry_files(content: bytes, words: str, tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    folder.mkdir()
    (folder / "odd.yaml").write_bytes(content)
    kb = load_kb([folder])
    assert len(kb.problems) == 1 and words in kb.problems[0].message, kb.problems
    assert len(kb) == BUILTIN_COUNT


def test_id_must_match_file_name(tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    write_entry(folder, entry_data("my-entry"), name="other-name")
    kb = load_kb([folder])
    assert "id" in kb.problems[0].message and "other-name" in kb.problems[0].path


# -- extra folders: --kb and TRT_WHY_KB_PATH ---------------------------------------------------------------

def _override_attempt(folder: Path) -> Path:
    data = entry_data(OOM_ID, r"Building engine failed", ["Building engine"])
    data["title"] = "HIJACKED TITLE"
    return write_entry(folder, data)


def test_extra_folder_never_overrides_a_builtin_id(tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    path = _override_attempt(folder)
    kb = load_kb([folder])
    entry = kb.get(OOM_ID)
    assert entry is not None and entry.title != "HIJACKED TITLE"
    assert kb.origins[OOM_ID].startswith(str(builtin_kb_dir()))
    assert any(p.path == str(path) and "already defined" in p.message for p in kb.problems)


@pytest.mark.parametrize("how", ["--kb", "TRT_WHY_KB_PATH"])
def test_override_attempt_via_cli_is_visible_not_silent(how: str, tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    _override_attempt(folder)
    log = tmp_path / "build.log"
    log.write_text(OOM_LOG)
    args = ["--kb", str(folder)] if how == "--kb" else []
    env = {"TRT_WHY_KB_PATH": str(folder)} if how != "--kb" else None
    result = run_cli(*args, str(log), env=env)
    out = result.stdout.decode()
    assert "HIJACKED" not in out and "could not be loaded" in out
    validate = run_cli("kb", *args, "validate", env=env, timeout=180)
    assert "already defined" in validate.stdout.decode() and validate.returncode == 1


def test_env_folder_gets_the_same_regex_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "kb"
    write_entry(folder, entry_data("my-runaway", r"Could not find (a|aa)+$"))
    monkeypatch.setenv("TRT_WHY_KB_PATH", str(folder) + os.pathsep + str(tmp_path / "missing"))
    kb = load_kb()
    assert kb.get("my-runaway") is None
    messages = " | ".join(str(p) for p in kb.problems)
    assert "backtrack" in messages and "missing" in messages


def test_missing_extra_folder_via_cli_is_one_line_with_strict(tmp_path: Path) -> None:
    result = run_cli("kb", "--kb", str(tmp_path / "nope"), "--strict", "list")
    assert_one_line_error(result, "nope")


def test_symlinked_entry_outside_the_folder_is_bounded(tmp_path: Path) -> None:
    """A link to a huge or special file is refused by size or skipped, never read whole."""
    folder = tmp_path / "kb"
    folder.mkdir()
    big = tmp_path / "big.bin"
    with open(big, "wb") as fh:
        fh.truncate(1 << 30)
    (folder / "big.yaml").symlink_to(big)
    (folder / "zero.yaml").symlink_to("/dev/zero")
    start = time.monotonic()
    kb = load_kb([folder])
    assert time.monotonic() - start < 60  # a hang guard, not a speed figure: /dev/zero read whole never ends
    assert any("larger than" in p.message for p in kb.problems)
    assert len(kb) == BUILTIN_COUNT


def test_builtin_kb_dir_is_inside_the_repository() -> None:
    assert builtin_kb_dir() == ROOT / "kb" or builtin_kb_dir().name == "kb_data"
