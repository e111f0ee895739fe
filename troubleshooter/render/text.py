"""The terminal report: what broke, the proof, why, what it means for this version, the next command."""

from __future__ import annotations

import textwrap

from troubleshooter.models import Diagnosis, Environment, Report

_ICON = {"error": "✖ error  ", "warning": "⚠ warning", "info": "ⓘ info   "}
_COLOUR = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "info": "\x1b[1;36m"}
_DIM = "\x1b[2m"
_BOLD = "\x1b[1m"
_RESET = "\x1b[0m"
WIDTH = 100
LABEL = 12


def _c(text: str, code: str, colour: bool) -> str:
    return f"{code}{text}{_RESET}" if colour else text


def headline(report: Report) -> str:
    env = report.environment
    parts = [report.source.name]
    if env.front_end:
        parts.append(env.front_end)
    parts.append(f"TensorRT {env.tensorrt_version}" if env.tensorrt_version else "TensorRT version unknown")
    if env.gpu or env.compute_capability:
        gpu = env.gpu or "GPU"
        if env.compute_capability:
            gpu += f" (sm {env.compute_capability}{', Jetson' if env.platform == 'jetson' else ''})"
        parts.append(gpu)
    elif env.platform:
        parts.append(env.platform)
    if env.precisions:
        parts.append("/".join(p.upper() for p in env.precisions))
    parts.append(f"{report.source.lines} lines")
    return " · ".join(parts)


def _label(label: str) -> str:
    return label.ljust(LABEL - 2) if len(label) < LABEL - 2 else label + " "


def _block(label: str, text: str, colour: bool) -> list[str]:
    body = textwrap.wrap(" ".join(text.split()), WIDTH - LABEL - 2) or [""]
    out = [f"  {_c(_label(label), _DIM, colour)}{body[0]}"]
    out += [" " * LABEL + line for line in body[1:]]
    return out


def _evidence_lines(d: Diagnosis, colour: bool, limit: int, full: bool = False) -> list[str]:
    """The trigger lines; the first one (every one with -v) in full, wrapped: the proof is never cut."""
    out = []
    shown = [e for e in d.evidence if e.role == "trigger"][:limit]
    for i, e in enumerate(shown):
        label = f"line {e.line}"
        text = e.text.strip()
        if i == 0 or full:
            body = textwrap.wrap(text, WIDTH - LABEL - 2, break_on_hyphens=False) or [""]
            out.append(f"  {_c(_label(label), _DIM, colour)}{body[0]}")
            out += [" " * LABEL + line for line in body[1:]]
            continue
        if len(text) > WIDTH - LABEL:
            text = text[: WIDTH - LABEL - 1] + "…"
        out.append(f"  {_c(_label(label), _DIM, colour)}{text}")
    extra = d.occurrences - len(shown)
    if extra > 0:
        out.append(" " * LABEL + f"(+{extra} more lines like this)")
    return out


def _fix_lines(d: Diagnosis, colour: bool, max_steps: int = 3, full: bool = False) -> list[str]:
    out: list[str] = []
    n = 0
    for fix in d.fixes if full else d.fixes[:1]:
        if full:
            out += _block("", f"— {fix.title}", colour)
        for step in fix.detail if full else fix.detail[:max_steps]:
            n += 1
            label = "fix" if n == 1 else ""
            out += _block(label, f"{n}. {step.text}", colour)
            if step.command:
                code = step.command.code.splitlines()
                shown = code if full else code[:8]
                for code_line in shown:
                    out.append(" " * (LABEL + 3) + _c(code_line, _BOLD, colour))
                if len(code) > len(shown):
                    out.append(" " * (LABEL + 3) + f"(+{len(code) - len(shown)} more lines: trt-why -v)")
    return out


def render_diagnosis(d: Diagnosis, colour: bool, primary: bool, full: bool = False) -> list[str]:  # noqa: C901, PLR0912  # one branch per optional part of a diagnosis; the renderers are reworked in #16
    icon = _c(_ICON[d.severity], _COLOUR[d.severity], colour)
    title = d.title if len(d.title) <= 60 else d.title[:59] + "…"
    out = [f"{icon} {title:<60} {_c(d.id, _DIM, colour)}  {d.confidence:.2f}"]
    out += _evidence_lines(d, colour, 3 if primary else 1, full)
    values = d.capture_values
    for name, vals in values.items():
        if len(vals) > 1:
            sample = ", ".join(vals[:4]) + (", …" if len(vals) > 4 else "")
            out += _block(name, f"{len(vals)}{'+' if len(vals) >= 60 else ''} distinct: {sample}", colour)
    if d.causes:
        out += _block("why", d.causes[0], colour)
        if full:
            for cause in d.causes[1:]:
                out += _block("or", cause, colour)
        elif primary and len(d.causes) > 1:
            out += _block("", f"(+{len(d.causes) - 1} other possible cause(s): trt-why -v, or --format markdown)", colour)
    if d.version_advice:
        out += _block("you", d.version_advice, colour)
    if full and d.version_status is None:
        for adv in d.version_advice_all:
            out += _block("", f"TensorRT {adv.versions} ({adv.status}): {adv.text}", colour)
    if d.model_verdict and d.model_verdict_reason:
        out += _block("model", d.model_verdict_reason, colour)
    if primary:
        out += _fix_lines(d, colour, full=full)
        if d.reduce_command:
            out += _block("repro", "minimal model that still fails:", colour)
            out.append(" " * (LABEL + 3) + _c(d.reduce_command, _BOLD, colour))
    elif d.fixes:
        out += _block("fix", d.fixes[0].title, colour)
    clues = [c for c in d.clues if c != d.model_verdict_reason]
    if clues and primary:
        out += _block("clues", "; ".join(clues[:2]), colour)
    if d.alternatives:
        alts = ", ".join(f"{a.id} ({a.confidence:.2f})" for a in d.alternatives)
        out += _block("also", f"the same lines could be: {alts}", colour)
    if d.asks and primary:
        out += _block("unknown", "would decide: " + d.asks[0], colour)
    for f in d.model_findings[:3]:
        out += _block("", f"{f.get('level', '')} {f.get('rule', '')}: {f.get('message', '')}", colour)
    if d.consequences:
        span = f"{d.consequences[0]}–{d.consequences[-1]}" if len(d.consequences) > 1 else str(d.consequences[0])
        out += _block("then", f"{len(d.consequences)} later error line(s) (lines {span}) are consequences of this one.", colour)
    return out


def render_first_error(report: Report, colour: bool) -> list[str]:
    """The root as far as the log shows: the first error line no KB entry explains, in full."""
    u = report.first_error
    assert u is not None
    icon = _c(_ICON["error"], _COLOUR["error"], colour)
    out = [f"{icon} First error, not in the knowledge base"]
    body = textwrap.wrap(u.text.strip(), WIDTH - LABEL - 2, break_long_words=True, break_on_hyphens=False) or [""]
    out.append(f"  {_c(_label(f'line {u.line}'), _DIM, colour)}{body[0]}")
    out += [" " * LABEL + line for line in body[1:]]
    if u.count > 1:
        out.append(" " * LABEL + f"(x{u.count} in the log)")
    if u.similar:
        sims = ", ".join(f"{s.id} ({s.score:.0f})" for s in u.similar)
        out += _block("similar", f"suggestions, not a diagnosis: {sims} (trt-why kb show ID)", colour)
    for n, step in enumerate(u.next_steps, 1):
        out += _block("next" if n == 1 else "", f"{n}. {step.text}", colour)
        if step.command:
            out += [" " * (LABEL + 3) + _c(code_line, _BOLD, colour) for code_line in step.command.code.splitlines()]
    cascades = sorted({e.line for d in report.diagnoses if d.cascade and d.severity == "error"
                       for e in d.evidence if e.line > u.line})
    if cascades:
        span = f"{cascades[0]}–{cascades[-1]}" if len(cascades) > 1 else str(cascades[0])
        names = ", ".join(d.id for d in report.diagnoses if d.cascade and d.severity == "error")
        out += _block("then", f"{len(cascades)} later error line(s) (lines {span}; {names}) follow from it.", colour)
    return out


def render_text(report: Report, colour: bool = False, verbose: bool = False) -> str:
    lines = [_c(headline(report), _BOLD, colour), ""]
    lead = report.first_error
    if lead is not None:
        lines += render_first_error(report, colour)
        lines.append("")
    elif not report.diagnoses:
        if report.unexplained:
            lines.append("No known failure matched. Error lines trt-why cannot explain:")
        else:
            lines.append("No known failure and no error line found.")
            if report.environment.build_succeeded:
                lines.append("The build finished; nothing here needs action.")
    # Under an unexplained root, generic consequences (build failed, crashed) were said in one line.
    shown = [d for d in report.diagnoses if not (lead is not None and d.cascade and d.severity == "error")]
    for i, d in enumerate(shown):
        lines += render_diagnosis(d, colour, primary=(i == 0 or verbose or d.severity == "error"), full=verbose)
        lines.append("")
    rest = [u for u in report.unexplained if lead is None or u.line != lead.line]
    if rest:
        if report.diagnoses or lead is not None:
            lines.append("Other error lines no diagnosis explains:" if lead is not None else
                         "Error lines no diagnosis explains:")
        for u in rest[:6]:
            text = u.text.strip()
            text = text if len(text) <= WIDTH - 14 else text[: WIDTH - 15] + "…"
            count = f" (x{u.count})" if u.count > 1 else ""
            lines.append(f"  line {u.line}{count}: {text}")
            if u.similar:
                sims = ", ".join(f"{s.id} ({s.score:.0f})" for s in u.similar)
                lines.append(f"      suggestion, not a diagnosis: closest known issues: {sims}")
        lines.append("")
    for note in report.notes:
        lines.append(_c(f"note: {note}", _DIM, colour))
    name = report.source.name if not report.source.name.startswith("<") else "build.log"
    more = f"More: trt-why --format markdown {name} · trt-why tui {name} · trt-why lint model.onnx"
    lines.append(_c(more, _DIM, colour))
    return "\n".join(lines).rstrip() + "\n"


def environment_lines(env: Environment) -> list[str]:
    """`field: value` lines, 'unknown' where the log does not say."""
    out = []
    for key in ("tensorrt_version", "cuda_version", "driver_version", "gpu", "compute_capability", "platform",
                "front_end", "onnx_opset", "onnx_producer"):
        value = getattr(env, key)
        out.append(f"{key.replace('_', ' ')}: {value if value not in (None, '') else 'unknown'}")
    out.append(f"precisions: {', '.join(env.precisions) if env.precisions else 'unknown'}")
    return out
