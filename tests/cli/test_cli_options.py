"""Options and terminal layout of the one-shot CLI and its subcommands (#16)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.rel_helpers import ROOT, run_cli

SAMPLES = ROOT / "sample_logs"
LOG = SAMPLES / "yolov8-int8-orin-silu.log"
SUCCESS = """&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --fp16
[11/02/2023-10:11:12] [V] [TRT] Registered plugin creator - ::BatchedNMS_TRT version 1
[11/02/2023-10:12:40] [I] Engine built in 41.2 sec.
&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --fp16
"""
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def on_a_terminal(*args: str, columns: int = 80, env: dict[str, str] | None = None) -> str:
    """Run the CLI with stdout on a pseudo-terminal of `columns` columns; its output, \\r\\n as \\n."""
    full = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS=str(columns), LINES="50", TERM="xterm-256color")
    for key in ("NO_COLOR", "FORCE_COLOR"):
        full.pop(key, None)
    full.update(env or {})
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "troubleshooter.cli", *args], stdout=child, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=full, cwd=str(ROOT))
    os.close(child)
    chunks = []
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(main)
    return b"".join(chunks).decode("utf-8", errors="replace").replace("\r\n", "\n")


def prose_lines(text: str) -> list[str]:
    """Lines other than commands (commands are never cut, so they stay copyable)."""
    return [x for x in ANSI.sub("", text).splitlines() if not x.startswith(" " * 15)]


# --- layout -------------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [80, 120])
def test_report_fits_the_terminal(columns: int) -> None:
    # relative to the repository (the child's cwd): the report names the file as given, so an absolute
    # path would make the width depend on where the clone lives
    out = on_a_terminal(str(LOG.relative_to(ROOT)), columns=columns)
    assert "\x1b[" in out  # a terminal: colour
    long = [x for x in prose_lines(out) if len(x) > columns]
    assert not long, long[:3]
    assert "Fused Conv + SiLU (PWN) has no INT8 kernel in this TensorRT" in ANSI.sub("", out)  # the title is whole


def test_no_mid_word_wrap_on_a_terminal() -> None:
    """rich would break a hyphenated word (cuda-python) at its hyphen: a line never ends inside a word."""
    out = ANSI.sub("", on_a_terminal(str(SAMPLES / "e-dealloc-lone-line.log"), columns=80, env={"COLUMNS": "80"}))
    assert [x for x in out.splitlines() if re.search(r"[A-Za-z0-9]-$", x)] == []
    assert "cudaMallocAsync" in out


def test_no_color_and_force_color() -> None:
    assert "\x1b[" not in on_a_terminal(str(LOG), env={"NO_COLOR": "1"})
    piped = run_cli(str(LOG), env={"FORCE_COLOR": "1"})
    assert b"\x1b[" in piped.stdout


def test_piped_report_is_not_wrapped_and_has_no_ansi() -> None:
    r = run_cli(str(LOG))
    out = r.stdout.decode()
    assert "\x1b[" not in out
    # The first cause is one paragraph: one line, however long, when piped.
    why = [x for x in out.splitlines() if x.lstrip().startswith("why")]
    assert why and len(why[0]) > 200


def test_lint_and_kb_list_fit_the_terminal() -> None:
    out = on_a_terminal("kb", "list", columns=80)
    lines = ANSI.sub("", out).splitlines()
    assert len(lines) > 20
    assert max(len(x) for x in lines) <= 80
    assert "conv-act-fusion-no-impl" in out


def test_lint_text_fits_a_width() -> None:
    from troubleshooter.lint.report import Finding, LintReport
    from troubleshooter.render.lint import render_lint

    finding = Finding(rule="int8-depthwise-alignment", level="warning", message="word " * 60,
                      nodes=[f"/model.{i}/Conv" for i in range(10)], kb="int8-grouped-conv-alignment")
    report = LintReport(model="m.onnx", trt_version=None, findings=[finding], notes=["note " * 40])
    out = render_lint(report, "text", width=80)
    assert max(len(x) for x in out.splitlines()) <= 80
    assert "word word" in out and "(+4 more)" in out


def test_piped_one_shot_does_not_import_rich() -> None:
    code = ("import sys\nfrom troubleshooter.cli import main\nmain([sys.argv[1]])\n"
            "sys.stderr.write('RICH' if any(m.split('.')[0] == 'rich' for m in sys.modules) else 'NORICH')\n")
    proc = subprocess.run([sys.executable, "-c", code, str(LOG)], capture_output=True, cwd=str(ROOT),
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), check=False)
    assert proc.stderr.decode().endswith("NORICH")


# --- options ------------------------------------------------------------------------------------


def test_contradictory_options_are_an_error() -> None:
    for args in (["--format", "json", "--chat", "slack"], ["-f", "text", "--chat", "github"]):
        r = run_cli(*args, str(LOG))
        assert r.returncode == 2, args
        err = r.stderr.decode()
        assert err.count("\n") == 1 and "--chat" in err, err
    assert run_cli("--format", "markdown", "--chat", "github", str(LOG)).returncode == 1


def test_missing_kb_folder_is_exit_2_in_one_line() -> None:
    for args in (["--kb", "/nonexistent", str(LOG)], ["kb", "--kb", "/nonexistent", "list"]):
        r = run_cli(*args)
        assert r.returncode == 2, args
        err = r.stderr.decode()
        assert err.count("\n") == 1 and "/nonexistent" in err and not r.stdout, (err, r.stdout[:200])


def test_kb_new_refuses_a_builtin_id(tmp_path: Path) -> None:
    r = run_cli("kb", "new", "conv-act-fusion-no-impl", "--dir", str(tmp_path))
    assert r.returncode == 2
    assert b"built-in" in r.stderr
    assert not list(tmp_path.iterdir())


def test_kb_validate_flags_an_unedited_scaffold(tmp_path: Path) -> None:
    assert run_cli("kb", "new", "my-plugin-crash", "--dir", str(tmp_path)).returncode == 0
    r = run_cli("kb", "--kb", str(tmp_path), "validate")
    assert r.returncode == 1
    assert b"my-plugin-crash" in r.stdout and b"scaffold" in r.stdout


def test_kb_alone_lists_its_subcommands() -> None:
    r = run_cli("kb")
    out = r.stdout.decode()
    assert r.returncode == 0, r.stderr
    for sub in ("list", "show", "validate", "test", "explain", "new", "schema"):
        assert sub in out


def test_short_format_flag_everywhere() -> None:
    rows = run_cli("kb", "list", "-f", "json")
    assert rows.returncode == 0 and rows.stdout.lstrip().startswith(b"[")
    show = run_cli("kb", "show", "conv-act-fusion-no-impl", "-f", "json")
    assert show.returncode == 0 and show.stdout.lstrip().startswith(b"{")
    assert b"-f" in run_cli("eval", "--help").stdout


def test_help_documents_every_exit_code() -> None:
    out = " ".join(run_cli("--help").stdout.decode().split())
    for code in ("0", "1", "2", "130"):
        assert re.search(rf"\b{code}\b", out.split("Exit codes", 1)[1]), code
    assert "interrupted" in out


def test_successful_build_says_so_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "ok.log"
    log.write_text(SUCCESS, encoding="utf-8")
    out = run_cli(str(log)).stdout.decode()
    said = [x for x in out.splitlines() if "succeeded" in x or "finished" in x]
    assert len(said) == 1, out
    assert "No known failure" in said[0]


def test_one_line_log_counts() -> None:
    out = run_cli(str(SAMPLES / "e-dealloc-lone-line.log")).stdout.decode()
    assert "1 line\n" in out or "1 line " in out or out.splitlines()[0].endswith("1 line")
    assert "1 lines" not in out and "more lines like this" not in out


# --- advice follows the evidence (needs KB changes: see the reasons) ----------------------------

IMPORT_ERROR = ("Traceback (most recent call last):\n  File \"build.py\", line 1, in <module>\n    import tensorrt\n"
                "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory\n")


def test_a_missing_library_fix_names_that_library(tmp_path: Path) -> None:
    log = tmp_path / "import.log"
    log.write_text(IMPORT_ERROR, encoding="utf-8")
    out = run_cli(str(log)).stdout.decode()
    assert "library-load-failure" in out
    fix = out.split("\n  fix ", 1)[1]
    assert "libnvinfer_builder_resource" not in fix
    assert "libnvinfer.so.8" in fix


def test_a_plugin_tensorrt_ships_is_not_told_to_load_a_custom_library() -> None:
    import gzip

    log = gzip.decompress((SAMPLES / "h-trtexec-efficientnms-plugin-not-found.log.gz").read_bytes())
    out = run_cli("-", stdin=log).stdout.decode()
    assert "onnx-unsupported-op" in out
    assert "libmy_plugins.so" not in out
