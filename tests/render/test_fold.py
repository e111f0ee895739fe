"""Commands fitted to a width (render/fold.py): broken only where they still paste and run.

Every command and snippet of the KB, at widths from 40 to 100: a shell command keeps its words
(shlex) and passes `bash -n`; a Python snippet keeps its syntax tree; every line a language lets us
break fits.
"""

from __future__ import annotations

import ast
import re
import shlex
import shutil
import subprocess
from functools import cache

import pytest

from troubleshooter.api import load_kb
from troubleshooter.render.fold import PYTHON, SHELLS, fit_code

WIDTHS = (40, 65, 80, 100)


@cache
def snippets() -> list[tuple[str, str, str]]:
    """(entry id / step, lang, code) for every step with code in the KB, and every reduce-style command."""
    out = []
    for entry in load_kb().entries:
        for i, fix in enumerate(entry.fixes, 1):
            for j, step in enumerate(fix.steps, 1):
                if step.code:
                    out.append((f"{entry.id}::{i}.{j}", (step.lang or "text").lower(), step.code.rstrip("\n")))
    return out


def _bash_ok(bash: str, text: str) -> bool:
    return subprocess.run([bash, "-n"], input=text.encode(), capture_output=True, check=False).returncode == 0


def _unfold_shell(text: str, marker: str = " \\") -> str:
    return re.sub(re.escape(marker) + r"\n *", " ", text)


def test_a_long_polygraphy_command_breaks_between_arguments() -> None:
    cmd = ("polygraphy debug reduce model.onnx -o reduced.onnx --mode=bisect --check polygraphy run "
           "polygraphy_debug.onnx --trt --int8 --fail-regex 'Could not find any implementation for node'")
    lines = fit_code(cmd, "bash", 65)
    assert len(lines) > 1 and all(len(x) <= 65 for x in lines)
    assert all(x.endswith(" \\") for x in lines[:-1]) and all(x.startswith("    ") for x in lines[1:])
    assert "'Could not find any implementation for node'" in "\n".join(lines)  # never inside quotes
    assert shlex.split(_unfold_shell("\n".join(lines))) == shlex.split(cmd)


def test_python_breaks_after_commas_inside_brackets_not_in_strings() -> None:
    code = ('quantize(onnx_path="model.onnx", quantize_mode="int8", calibration_data=np.load("calib.npy"), '
            'nodes_to_exclude=["/model.1/conv/Conv, with a comma"], output_path="model.int8.onnx")')
    lines = fit_code(code, "python", 60)
    assert len(lines) > 1 and all(len(x) <= 60 for x in lines)
    assert ast.dump(ast.parse("\n".join(lines))) == ast.dump(ast.parse(code))
    assert '"/model.1/conv/Conv, with a comma"' in "\n".join(lines)


def test_short_lines_and_unknown_languages_are_left_alone() -> None:
    assert fit_code("trtexec --onnx=model.onnx", "bash", 80) == ["trtexec --onnx=model.onnx"]
    long = "x " * 60
    assert fit_code(long, "text", 40) == [long]
    assert fit_code(long, "bash", None) == [long]


def test_a_shell_comment_is_never_continued() -> None:
    code = "trtexec --onnx=model.onnx --int8 --saveEngine=model.engine  # rebuild with the calibration cache in place"
    lines = fit_code(code, "bash", 50)
    assert all(len(x) <= 50 for x in lines)
    assert not any("#" in x and x.endswith("\\") for x in lines)
    assert shlex.split(_unfold_shell("\n".join(x for x in lines if not x.lstrip().startswith("#")))) == \
        shlex.split(code.split("#")[0])


def test_a_heredoc_body_is_not_touched() -> None:
    body = "x " * 50
    code = f"cat > notes.txt <<'EOF'\n{body}\nEOF"
    assert fit_code(code, "bash", 40)[1] == body


@pytest.mark.parametrize("width", WIDTHS)
def test_every_kb_shell_command_still_runs(width: int) -> None:
    bash = shutil.which("bash")
    checked = 0
    for name, lang, code in snippets():
        if lang not in SHELLS:
            continue
        folded = "\n".join(fit_code(code, lang, width))
        if folded == code:
            continue
        checked += 1
        assert shlex.split(_unfold_shell(folded), comments=True) == shlex.split(code, comments=True), name
        if bash and _bash_ok(bash, code):  # some KB commands hold a blank to fill (<version>): not bash yet
            assert _bash_ok(bash, folded), (name, folded)
    assert checked > 0


@pytest.mark.parametrize("width", WIDTHS)
def test_every_kb_python_snippet_keeps_its_meaning(width: int) -> None:
    checked = 0
    for name, lang, code in snippets():
        if lang not in PYTHON:
            continue
        try:
            tree = ast.dump(ast.parse(code))
        except SyntaxError:
            continue  # a fragment (an indented excerpt): nothing to compare with
        folded = "\n".join(fit_code(code, lang, width))
        checked += folded != code
        assert ast.dump(ast.parse(folded)) == tree, (name, folded)
    assert checked > 0


ONE_STRING = re.compile(r"""^\s*[rbf]?("[^"]*"|'[^']*')[),\s\\]*$""")
"""A line that is one quoted string (with what closes it): no break can shorten it without changing it."""


def _one_argument(line: str) -> bool:
    """One shell argument (a quoted `python -c` script, a path), or one Python string literal."""
    from troubleshooter.render.fold import _shell_words

    words, comment, _open = _shell_words(line.strip().removesuffix(" \\"), "")
    return bool(ONE_STRING.match(line)) or (len(words) == 1 and not comment)


def test_every_kb_command_fits_80_columns_with_the_report_indent_but_one_long_string() -> None:
    """At 80 columns the report indents a command by 15: 65 columns. What is left longer is one string
    (a `python -c "..."`, a Windows path) that no break could shorten."""
    room = 65
    left = []
    for name, lang, code in snippets():
        if lang in SHELLS or lang in PYTHON:
            left += [(name, x) for x in fit_code(code, lang, room) if len(x) > room]
    assert [(name, x) for name, x in left if not _one_argument(x)] == []
    total = sum(len(code.split("\n")) for _n, lang, code in snippets() if lang in SHELLS or lang in PYTHON)
    assert len(left) <= total // 25  # (16 of 570 lines on 2026-11-27)
