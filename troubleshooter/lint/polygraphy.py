"""polygraphy: findings from NVIDIA Polygraphy's ``check lint``, run in a subprocess
===================================================================================

``trt-why lint --polygraphy`` also runs ``polygraphy check lint MODEL -o report.json`` when
``polygraphy`` is on PATH, and merges its ``lint_entries``. Polygraphy loads the model in
ONNX Runtime on the CPU; it tells whether the model executes and which node breaks first
(data-dependent Reshape sizes, Gather indices out of range...). It knows nothing about
TensorRT, so:

* it runs in a subprocess with a timeout (its node-by-node mode is quadratic);
* never on models with custom-domain ops (a guaranteed slow path for one warning);
* dynamic inputs are a reason to skip it rather than let it substitute 1 for every dim;
* its "topologically sorted" and "Duplicate node name" exceptions are dropped: TensorRT accepts both;
* no report file means the tool itself failed (missing onnxruntime, ...): a note, not a finding.

**Levels:** Polygraphy's ``exception`` becomes error, ``warning`` warning, ``info`` info. **KB:** none.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from troubleshooter.lint.report import Finding, LintLevel

RULE = "polygraphy"
TITLE = "Polygraphy check lint (ONNX Runtime execution)"

_DISCOUNT = ("topologically sorted", "Duplicate node name")
_LEVELS: dict[str, LintLevel] = {"exception": "error", "error": "error", "warning": "warning", "info": "info"}


def run_polygraphy(
    path: str, input_shapes: dict[str, list[int]], *, timeout: float = 120.0, executable: str | None = None
) -> tuple[list[Finding], list[str]]:
    """Run ``polygraphy check lint`` on ``path``; return (findings, notes). Never raises for tool failures."""
    exe = executable or shutil.which("polygraphy")
    if exe is None:
        return [], ["--polygraphy: polygraphy is not installed (pip install polygraphy onnxruntime onnx-graphsurgeon)"]
    with tempfile.TemporaryDirectory(prefix="trt-why-polygraphy-") as tmp:
        out = Path(tmp) / "report.json"
        command = [exe, "check", "lint", os.fspath(path), "-o", os.fspath(out), "--seed", "0"]
        if input_shapes:
            command.append("--input-shapes")
            command.extend(f"{name}:[{','.join(str(d) for d in dims)}]" for name, dims in input_shapes.items())
        env = {k: v for k, v in os.environ.items() if k != "POLYGRAPHY_AUTOINSTALL_DEPS"}
        try:
            proc = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True
            )
        except OSError as err:
            return [], [f"--polygraphy: could not start polygraphy ({err.strerror})"]
        try:
            _stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            return [], [f"--polygraphy: polygraphy check lint did not finish within {timeout:g} s; stopped"]
        if not out.exists():
            reason = _last_error(stderr) or f"exit code {proc.returncode}"
            return [], [f"--polygraphy: polygraphy failed without a report: {reason}"]
        try:
            data = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            return [], [f"--polygraphy: unreadable report ({err})"]
    return parse_report(data)


def parse_report(data: object) -> tuple[list[Finding], list[str]]:
    """Findings from a Polygraphy lint report (``lint_entries``), discounting what TensorRT accepts."""
    notes: list[str] = []
    entries = data.get("lint_entries", []) if isinstance(data, dict) else []
    findings: list[Finding] = []
    dropped = 0
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        message = " ".join(str(entry.get("message", "")).split())
        if any(text in message for text in _DISCOUNT):
            dropped += 1
            continue
        level = _LEVELS.get(str(entry.get("level", "")).lower(), "warning")
        nodes = [str(n) for n in entry.get("nodes", []) or [] if n]
        findings.append(
            Finding(
                rule=RULE,
                level=level,
                message=message[:500] or "(no message)",
                nodes=nodes,
                kb=None,
                source=f"polygraphy:{entry.get('source', 'unknown')}",
            )
        )
    if dropped:
        notes.append(
            f"--polygraphy: {dropped} Polygraphy exception(s) about node order or duplicate names ignored "
            "(TensorRT accepts both)"
        )
    notes.append(f"--polygraphy: polygraphy check lint ran: {len(findings)} finding(s)")
    return findings, notes


def _kill(proc: subprocess.Popen[str]) -> None:
    """Stop the polygraphy process group we started."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.communicate()


def _last_error(stderr: str) -> str:
    """The last ``[!]`` line Polygraphy printed, or the last non-empty line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    marked = [line for line in lines if "[!]" in line]
    chosen = (marked or lines or [""])[-1]
    return chosen[:300]
