"""Start-up: the one-shot path imports neither Textual nor onnx; the KB cache is keyed by content."""

from __future__ import annotations

import json
import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from perf_helpers import ROOT, SAMPLES

from troubleshooter.core.matcher import check_entry, derive
from troubleshooter.kb import cache
from troubleshooter.kb.loader import builtin_kb_dir, load_folders

HEAVY = ("textual", "onnx", "onnxruntime", "polygraphy", "mcp", "numpy", "torch")


def _modules_after(args: list[str], env: dict[str, str] | None = None) -> tuple[int, set[str], str]:
    code = (
        "import sys, json\n"
        "from troubleshooter.cli import main\n"
        f"rc = main({args!r})\n"
        "sys.stdout.flush()\n"
        "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)) + '\\n')\n"
        "sys.exit(rc)\n"
    )
    full = dict(os.environ, PYTHONPATH=str(ROOT))
    full.update(env or {})
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, env=full, cwd=str(ROOT), timeout=120,
                          check=False)
    err = proc.stderr.decode()
    mods = set(json.loads(err.rsplit("MODULES ", 1)[1]))
    return proc.returncode, mods, proc.stdout.decode()


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_one_shot_imports_no_heavy_module(fmt: str, tmp_path: Path) -> None:
    log = SAMPLES / "yolov8-int8-orin-silu.log"
    own = {"TRT_WHY_CACHE_DIR": str(tmp_path)}  # a cache no other test prunes between the two runs
    rc, mods, out = _modules_after(["--format", fmt, str(log)], own)
    assert rc in (0, 1) and out
    loaded = sorted({m.split(".")[0] for m in mods} & set(HEAVY))
    assert not loaded, f"the one-shot CLI imported {loaded}"
    # With the KB cache warm (the first run above wrote it) no YAML is read, and a log whose error
    # lines are all explained needs no fuzzy matching: neither library is imported.
    _rc, mods, _ = _modules_after(["--format", fmt, str(log)], own)
    assert not {m.split(".")[0] for m in mods} & {"yaml", "rapidfuzz"}
    # Text and Markdown reports are built with model_construct and read as plain objects: no pydantic validator
    # or serializer is built for them (building one is what imports pydantic's plugin loader).
    assert ("pydantic.plugin._loader" in mods) == (fmt == "json")


def test_stdin_and_gzip_one_shot_import_no_heavy_module(tmp_path: Path) -> None:
    import gzip

    packed = tmp_path / "x.log.gz"
    packed.write_bytes(gzip.compress((SAMPLES / "yolov8-int8-orin-silu.log").read_bytes()))
    _rc, mods, _ = _modules_after(["--format", "json", str(packed)])
    assert not {m.split(".")[0] for m in mods} & set(HEAVY)


def _copy_kb(tmp_path: Path) -> Path:
    kb = tmp_path / "kb"
    shutil.copytree(builtin_kb_dir(), kb)
    return kb


def test_cache_key_changes_with_any_kb_file(tmp_path: Path) -> None:
    kb = _copy_kb(tmp_path)
    first = min(kb.glob("*.yaml"))
    key = cache.cache_key([kb])
    assert cache.cache_key([kb]) == key  # stable

    # Same size, same modification time, one byte different: still a new key.
    data = first.read_bytes()
    st = first.stat()
    pos = data.index(b"title:") + 7
    changed = data[:pos] + (b"X" if data[pos:pos + 1] != b"X" else b"Y") + data[pos + 1:]
    assert len(changed) == len(data)
    first.write_bytes(changed)
    os.utime(first, ns=(st.st_atime_ns, st.st_mtime_ns))
    key_edited = cache.cache_key([kb])
    assert key_edited != key

    first.write_bytes(data)
    os.utime(first, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert cache.cache_key([kb]) == key  # back to the same content, back to the same key

    (kb / "zz-new-entry.yaml").write_text("id: zz-new-entry\n")
    assert cache.cache_key([kb]) != key  # an added file
    (kb / "zz-new-entry.yaml").unlink()
    first.unlink()
    assert cache.cache_key([kb]) != key  # a removed file


def _load_cached(extra: Any = ()) -> tuple[Any, Any]:
    """The KB as the engine loads it: checked and derived, through the cache."""
    return cache.load_kb_cached(extra, check=check_entry, derive=derive)


def test_cache_round_trip_and_invalidation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRT_WHY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TRT_WHY_NO_CACHE", raising=False)
    extra = tmp_path / "extra"
    extra.mkdir()
    entry = (builtin_kb_dir() / "int8-missing-scale.yaml").read_text()
    (extra / "my-scale.yaml").write_text(entry.replace("id: int8-missing-scale", "id: my-scale"))
    kb_copy = _copy_kb(tmp_path)
    monkeypatch.setattr(cache, "builtin_kb_dir", lambda: kb_copy)

    kb1, lits1 = _load_cached([extra])
    files = list((tmp_path / "cache" / "trt-why").glob("kb-*.marshal"))
    assert len(files) == 1
    kb2, lits2 = _load_cached([extra])  # from the cache
    assert kb2.entries == kb1.entries and lits2 == lits1 and kb2.digest == kb1.digest
    assert kb1.get("my-scale") is not None
    assert kb1.entries == load_folders([tmp_path / "kb", extra]).entries

    # An edited entry is seen at once (a new cache file).
    (extra / "my-scale.yaml").write_text(entry.replace("id: int8-missing-scale", "id: my-scale")
                                         .replace("title:", "title: Edited", 1))
    kb3, _ = _load_cached([extra])
    assert kb3.get("my-scale").title.startswith("Edited")  # type: ignore[union-attr]
    assert len(list((tmp_path / "cache" / "trt-why").glob("kb-*.marshal"))) == 2

    # A damaged cache file is ignored (and the KB read from YAML).
    for f in (tmp_path / "cache" / "trt-why").glob("kb-*.marshal"):
        f.write_text('{"entries": [{"id": 5}]')
    kb4, _ = _load_cached([extra])
    assert kb4.entries == kb3.entries


def test_old_cache_files_are_pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache" / "trt-why"
    folder.mkdir(parents=True)
    for i in range(20):
        (folder / f"kb-{i:032d}.marshal").write_bytes(b"{}")
        os.utime(folder / f"kb-{i:032d}.marshal", (i, i))
    monkeypatch.setenv("TRT_WHY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TRT_WHY_NO_CACHE", raising=False)
    _load_cached()
    assert len(list(folder.glob("kb-*.marshal"))) <= cache.KEEP_FILES


def test_cached_entries_are_the_validated_ones() -> None:
    """The cache rebuilds entries without validating them again: every built-in entry comes back equal,
    field for field (dates, nested models, optional fields), and dumps to the same JSON."""
    from troubleshooter.kb.schema import Entry

    kb = load_folders([builtin_kb_dir()])
    for entry in kb.entries:
        dumped = entry.model_dump(mode="json")
        rebuilt = cache.trusted(Entry, dumped)
        assert rebuilt == entry, entry.id
        assert rebuilt.model_dump(mode="json") == dumped, entry.id
        assert type(rebuilt.last_verified) is type(entry.last_verified)


def test_a_cache_of_another_shape_is_read_from_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A readable cache of the wrong shape (another version's cache under the same name) is not trusted."""
    monkeypatch.setenv("TRT_WHY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TRT_WHY_NO_CACHE", raising=False)
    kb, _ = _load_cached()
    for f in (tmp_path / "cache" / "trt-why").glob("kb-*.marshal"):
        data = marshal.loads(f.read_bytes())
        data["entries"][0]["last_verified"] = "yesterday"
        f.write_bytes(marshal.dumps(data))
    again, derived = _load_cached()
    assert again.entries == kb.entries and derived is not None


def test_the_payload_literals_kept_with_the_kb_are_the_derived_ones() -> None:
    """The warning-line prefilter's literals come from the KB cache (a run derives no regex for them), and they are
    exactly what deriving them from `_PAYLOAD_ERROR` gives."""
    from troubleshooter.api import get_engine
    from troubleshooter.core import logs
    from troubleshooter.core.regexes import derive_literals

    get_engine()
    assert [derive_literals(logs._PAYLOAD_ERROR.pattern, 3)] == logs._REMEMBERED_PAYLOAD_LITERALS
    assert logs.payload_error_literals() == derive_literals(logs._PAYLOAD_ERROR.pattern, 3)


def test_the_kb_cache_keeps_each_signature_compiled_and_reads_back_only_patterns() -> None:
    """A run from the KB cache parses no signature regex: each is kept compiled (the regex module's own pickle form)
    and read back by an unpickler that builds a compiled pattern and nothing else."""
    import pickle

    import regex

    from troubleshooter.core.regexes import compile_pattern, freeze_pattern, thaw_pattern
    from troubleshooter.kb.loader import load_folders

    kb = load_folders([builtin_kb_dir()], check=check_entry)
    derived = derive(kb.entries)
    sigs = {f"{e.id}::{s.id}": s for e in kb.entries for s in e.match.signatures}
    assert set(derived["compiled"]) == set(sigs)
    line = "[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::32] Error Code 1: Serialization (Serialization assertion "
    for key, sig in list(sigs.items())[::7]:
        thawed = thaw_pattern(derived["compiled"][key][0])
        fresh = compile_pattern(sig.regex, sig.ignore_case)
        assert thawed is not None and thawed.pattern == fresh.pattern and thawed.flags == fresh.flags
        assert thawed.groupindex == fresh.groupindex
        assert bool(thawed.search(line)) == bool(fresh.search(line))
    # anything else is refused, not run: a pickle that names another callable, a damaged text
    evil = __import__("base64").b64encode(pickle.dumps(print)).decode()
    assert thaw_pattern(evil) is None
    assert thaw_pattern("not base64 at all!") is None
    assert thaw_pattern(freeze_pattern(regex.compile("x"))[:-8]) is None


def test_a_matcher_with_compiled_patterns_reads_a_log_as_one_that_compiles_them() -> None:
    from troubleshooter.api import Engine, diagnose
    from troubleshooter.kb.loader import load_folders

    kb = load_folders([builtin_kb_dir()], check=check_entry)
    derived = derive(kb.entries)
    text = (SAMPLES / "yolov8-int8-orin-silu.log").read_text()
    with_compiled = diagnose(text, engine=Engine.from_kb(kb, "python", derived))
    without = dict(derived)
    without.pop("compiled")
    plain = diagnose(text, engine=Engine.from_kb(kb, "python", without))
    assert with_compiled.model_dump_json() == plain.model_dump_json()
