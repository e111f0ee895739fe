"""What a diagnosis says: placeholders filled, advice for the user's version, fixes, the repro command.

Values captured from the log are untrusted text: in shell commands they are quoted, in source
snippets escaped, so that a hostile node name cannot become syntax in a command the user copies.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Collection, Sequence
from typing import Any

import regex

from troubleshooter.core.shell_syntax import POSIX_SHELLS, WINDOWS_SHELLS
from troubleshooter.core.state import EntryHits
from troubleshooter.core.versions import any_in_range, in_range, possible_releases
from troubleshooter.kb.schema import Cause, Entry, FixSpec, Step, VersionAdvice
from troubleshooter.kb.stacks import runs_python
from troubleshooter.models import PLATFORM_NAMES, PLATFORMS, RUNTIME_LANGUAGES, Command, Environment, Fix, FixStep, Platform
from troubleshooter.re_programs import re_compile

_PLACEHOLDER = re_compile(r"\{([a-z_][a-z0-9_]*)\}")
_OPTIONAL = re_compile(r"\[\[(.*?)\]\]", re.DOTALL)
"""A part of a KB text said only when the log gave the values it names (prose only; `[[` is bash syntax in code)."""
_SHELLS = POSIX_SHELLS
_SAFE_WORD = re_compile(r"[\w@%+=:,./\\-]+")
"""A value that needs no quoting in any shell (node names, paths without spaces)."""
_SOURCE = ("python", "cpp", "c++", "c")


def fill(text: str, values: dict[str, str], lang: str | None = None) -> str:
    """Replace {name} by a known value; leave other braces (code, dict literals) alone.

    Values come from the log, i.e. from whoever wrote it: in a shell command they are quoted
    (`shlex.quote`, a no-op for ordinary node names), in source code they are escaped for a string
    literal, so a hostile node name cannot become syntax in a command the user copies.
    """
    if values.get("tensorrt_version") == UNKNOWN_RELEASE:
        text = text.replace("TensorRT {tensorrt_version}", UNKNOWN_RELEASE)  # not "TensorRT your TensorRT version"
    if lang is None and "[[" in text:
        # prose: an optional part `[[ (node {node_number})]]` is said only when the log gave every value in it
        text = _OPTIONAL.sub(lambda m: m.group(1) if all(
            values.get(n, MISSING) != MISSING for n in _PLACEHOLDER.findall(m.group(1))) else "", text)

    def value(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in values:
            return m.group(0)
        v = values[name]
        if v == MISSING or (lang is not None and name in ENV_PLACEHOLDERS and v == _unknown_env(name)):
            return f"<{name}>"  # a name the log did not give: a placeholder the user fills in, never a guess
        if lang in _SHELLS:  # a home-relative path keeps its ~/ outside the quotes, where the shell expands it
            return "~/" + shlex.quote(v[2:]) if v.startswith("~/") and len(v) > 2 else shlex.quote(v)
        if lang in ("powershell", "pwsh", "ps1"):  # single quotes, with '' for a quote inside
            return v if _SAFE_WORD.fullmatch(v) else "'" + v.replace("'", "''") + "'"
        if lang in ("bat", "cmd", "batch"):  # double quotes; cmd has no escape for '"' inside them
            return v if _SAFE_WORD.fullmatch(v) and "%" not in v else '"' + v.replace('"', "").replace("%", "%%") + '"'

        if lang in _SOURCE:
            return v.replace("\\", "\\\\").replace('"', '\\"').replace("'", "\\'").replace("\n", "\\n")
        return v

    return _PLACEHOLDER.sub(value, text)



def capture_names(entry: Entry) -> set[str]:
    """Every named group of the entry's signatures (`regexes.group_names`: read once, kept in the KB cache), and the
    releases a signature on a TensorRT API name captures."""
    from troubleshooter.core.regexes import group_names

    names = {name for sig in entry.match.signatures for name in group_names(sig.regex)}
    names |= {key for sig in entry.match.signatures for spec, key in ((sig.api_added_in, "api_added"),
                                                                      (sig.api_removed_in, "api_removed")) if spec}
    return names  # the last two: the release a signature on a TensorRT name captures (`matcher._api_groups`)


def placeholders(text: str) -> set[str]:
    """The `{name}` placeholders a KB text uses."""
    return set(_PLACEHOLDER.findall(text))


ENV_PLACEHOLDERS = ("tensorrt_version", "cuda_version", "driver_version", "gpu", "compute_capability", "platform")
DERIVED_PLACEHOLDERS = ("newest_release", "pip_package", "pip_note")
"""Values the engine works out rather than reads: `newest_release`, the newest TensorRT out by the log's own date
(absent without a dated log, so a `[[...]]` part that uses it is left out); `pip_package` and `pip_note`, what
provides the missing module a signature captured (`module_path`, else `dependency`), from `kb/packages/python.yaml`
(`pip_package` is the module's own top-level name when the table has no row, `pip_note` then absent)."""
_MODULE_CAPTURES = ("module_path", "dependency")


MISSING = "\x00missing\x00"
"""The value of a capture the log did not give (`fill` writes `<name>`)."""
UNKNOWN_RELEASE = "your TensorRT"


def _unknown_env(key: str) -> str:
    """What prose says for an environment fact the log does not give (code gets a `<placeholder>` instead)."""
    return UNKNOWN_RELEASE if key == "tensorrt_version" else f"your {key.replace('_', ' ')}"


def template_values(captures: dict[str, str], env: Environment, names: set[str] = frozenset()) -> dict[str, str]:  # type: ignore[assignment]
    vals = dict.fromkeys(names, MISSING)
    vals.update(captures)
    for key in ENV_PLACEHOLDERS:
        value = getattr(env, key)
        if value:
            vals.setdefault(key, str(value))
        else:
            vals.setdefault(key, _unknown_env(key))
    out_by_then = possible_releases(env.log_date) if env.log_date else []
    newest = f"TensorRT {out_by_then[-1]}" if out_by_then else MISSING
    vals.setdefault("newest_release", newest)
    vals.update(_pip_values(captures) or {"pip_package": MISSING, "pip_note": MISSING})
    return vals


def _pip_values(captures: dict[str, str]) -> dict[str, str]:
    """`pip_package` and `pip_note` for the module (or the package's command) the log names (none when it names none)."""
    module = next((captures[k] for k in _MODULE_CAPTURES if captures.get(k, MISSING) != MISSING), None)
    if module is None and captures.get("command", MISSING) != MISSING:
        from troubleshooter.kb.packages import builtin_commands

        found = builtin_commands().get(captures["command"])
        return {"pip_package": found.install, "pip_note": MISSING} if found is not None else {}
    if module is None:
        return {}
    from troubleshooter.kb.packages import install_for

    row = install_for(module)
    if row is None:
        return {"pip_package": module.split(".")[0], "pip_note": MISSING}
    return {"pip_package": row.install, "pip_note": row.note}


def advice_for(ranges: Sequence[VersionAdvice], env: Environment, vals: dict[str, str]) -> tuple[str | None, str | None]:
    """The advice line for the log's release (`ranges`: the entry's version advice that applies to this log)."""
    if not ranges:
        return None, None
    version = env.tensorrt_version
    if version:
        for adv in ranges:
            if in_range(version, adv.versions):
                return fill(adv.text.strip(), vals), adv.status
        return f"No advice recorded for TensorRT {version}.", "unknown"
    possible = env.tensorrt_possible
    if possible:
        fitting = [adv for adv in ranges if any_in_range(possible, adv.versions)]
        if len(fitting) == 1:
            return f"{env.release_text}: " + fill(fitting[0].text.strip(), vals), fitting[0].status
    by_status: dict[str, list[str]] = {}
    for adv in ranges:
        if possible and not any_in_range(possible, adv.versions):
            continue
        by_status.setdefault(adv.status, []).append(adv.versions)
    summary = "; ".join(f"{status} on {', '.join(ranges)}" for status, ranges in by_status.items())
    return f"The log does not say which TensorRT this is (pass --trt-version X): {summary}.", None


_OTHER_LANGUAGES: dict[str, tuple[str, ...]] = {"cpp": ("python",), "python": ("cpp", "cmake"),
                    **{runtime: ("python", "cpp", "c++", "c", "cmake") for runtime in RUNTIME_LANGUAGES}}


def _other_languages(entry: Entry, env: Environment, fits: Callable[[Any], bool]) -> tuple[str, ...]:
    """The code languages of steps to leave out: those of the other language than the failing program's (a Python
    snippet for a C++ demo), unless that leaves the entry without a fix."""
    other = _OTHER_LANGUAGES.get(env.language or "", ())
    if other and not any(fits(fx) and any(fits(st) and _in(st, other, env) for st in fx.steps) for fx in entry.fixes):
        return ()
    return other


def _in(step: Step, other: tuple[str, ...], env: Environment) -> bool:
    """A step in the failing program's language: not in one of `other`, and, for a program of another runtime (Node,
    the JVM, .NET, Rust), not one that runs Python either."""
    return ((step.lang or "").lower() not in other
            and not (env.language in RUNTIME_LANGUAGES and runs_python(step.code, step.lang)))


def fits_setting(spec: Cause | FixSpec | Step, env: Environment) -> bool:
    """The gates a cause, a fix and a step share: the stack that ran (`front_ends` / `not_front_ends`) and a hosted
    notebook (`hosted`: a notebook's own step only there, a driver install or `docker run` never there)."""
    return ((not spec.front_ends or env.front_end in spec.front_ends) and env.front_end not in spec.not_front_ends
            and spec.hosted in (None, env.hosted is not None))


_PYTHON_CALL = re_compile(r"(?m)(?P<lead>^[ \t]*|[;&|][ \t]*)(?:(?:python3?|py)(?:\.exe)?(?=[ \t]+-[cm][ \t])"
                          r"|(?P<pip>pip3?)(?=[ \t]+(?:install|uninstall|show|list|check)\b))")
"""A command's call of the Python on PATH or of its pip, at the start of a command ("python -m pip install ...",
"pip install ...", "python -c ...")."""


def with_interpreter(code: str, lang: str, python: str | None) -> str:
    """`code` with its Python calls made with the interpreter the log shows the program ran with (an app's embedded
    Python, `Environment.python`, a Windows path): cmd's quoting for a batch step, PowerShell's call operator for any
    other shell's; unchanged without one."""
    if not python or lang == "python":
        return code
    call = f'"{python}"' if lang in ("bat", "cmd") else f'& "{python}"'  # a Windows path: PowerShell's call operator

    def repl(m: regex.Match[str]) -> str:
        return str(m.group("lead")) + call + (" -m pip" if m.group("pip") else "")

    return _PYTHON_CALL.sub(repl, code)


def step_with_interpreter(step: FixStep, python: str | None) -> FixStep:
    """`step` with its command's Python calls made with the interpreter the log shows (`with_interpreter`): the one
    rewrite for the steps built outside the KB's fixes (the first error's next steps)."""
    cmd = step.command
    if not python or cmd is None:
        return step
    code = with_interpreter(cmd.code, cmd.lang, python)
    if code == cmd.code:
        return step
    return FixStep.model_construct(text=step.text, command=Command.model_construct(lang=cmd.lang, code=code))


def fixes_for(entry: Entry, env: Environment, vals: dict[str, str], matched: Collection[str] = ()) -> list[Fix]:
    """The fixes for this version and for what the log showed (`matched`: the signature ids that matched)."""
    version = env.tensorrt_version

    platform = env.platform
    # The platforms the log leaves possible (a Linux path alone is also a Jetson's); None: any
    possible = {platform, *env.platform_alternatives} if platform is not None else None

    # The releases the log leaves possible when it does not print one (its date, its JetPack): a step for none of
    # them is not shown, and one for all of them needs no "for whom" label
    possible_releases = env.tensorrt_possible if version is None else []

    def fits_release(spec: str | None) -> bool:
        if not spec:
            return True
        if possible_releases:
            return any_in_range(possible_releases, spec)
        return in_range(version, spec) is not False

    producer = (env.onnx_producer or "").lower()

    def fits(spec: Any) -> bool:
        # a step for the tool that wrote the ONNX (`producers`) only when the log names that tool
        producers = getattr(spec, "producers", None)
        return (fits_release(spec.versions) and (not spec.when or any(s in matched for s in spec.when))
                and not any(s in matched for s in spec.unless)
                and (not spec.platforms or possible is None or bool(possible & set(spec.platforms)))
                and fits_setting(spec, env)
                and (not producers or producer in {p.lower() for p in producers})
                # a step for some releases of a stack's own package: not for a log that prints another one
                and all(in_range(env.stack_versions.get(stack), spec_) is not False
                        for stack, spec_ in getattr(spec, "stack_versions", {}).items()))

    def whom(platforms: Sequence[Platform]) -> Sequence[Platform]:
        """The platforms to name for a step: none when the log's platform is known and the step covers every one
        it leaves possible."""
        return platforms if possible is None or (platforms and not possible <= set(platforms)) else ()

    def specific(spec: Any) -> bool:
        return bool(spec.when) or bool(spec.front_ends)

    other = _other_languages(entry, env, fits)
    # a log that shows another builder than trtexec (a stack, or a Python program): a trtexec command says it is
    # trtexec's form of the step (the remedy is the same in the builder the log shows)
    elsewhere = _built_elsewhere(env)

    def in_language(step: Any) -> bool:
        return not other or _in(step, other, env)

    out: list[tuple[int, int, Fix]] = []
    for fx in entry.fixes:
        if not fits(fx):
            continue
        steps: list[str] = []
        detail: list[FixStep] = []
        kept_platforms: list[Sequence[Platform]] = []
        kept_releases: list[str | None] = []
        for step in fx.steps:
            if not fits(step) or not in_language(step):
                continue
            text = fill(step.text.strip(), vals)
            releases = step.versions or fx.versions if version is None else None
            if releases and possible_releases and all(in_range(r, releases) for r in possible_releases):
                releases = None  # every release the log leaves possible is one this step is for
            stack_ranges = [releases_label(spec_, stack) for stack, spec_ in step.stack_versions.items()
                            if env.stack_versions.get(stack) is None]  # the log prints none: say whom it is for
            by_trtexec = elsewhere and _runs_trtexec(step.code, step.lang) and "trtexec" not in text
            label = ", ".join(filter(None, ("trtexec" if by_trtexec else None, *stack_ranges,
                                            _whom(releases, whom(step.platforms or fx.platforms)))))
            if label:
                text = f"({label}) {text}"
            lang = (step.lang or "text").lower()
            cmd = (Command.model_construct(lang=lang, code=with_interpreter(fill(step.code.rstrip(), vals, lang), lang,
                                                                            env.python))
                   if step.code else None)
            kept_platforms.append(step.platforms or fx.platforms)
            kept_releases.append(releases)
            detail.append(FixStep.model_construct(text=text, command=cmd))
            steps.append(text + (f"\n{cmd.code}" if cmd else ""))
        if steps:
            # within a fix, a step for only some of the platforms the log leaves possible comes after the steps that
            # fit them all (a Jetson's step after the Linux one, when a Linux path could be either)
            order = sorted(range(len(steps)), key=lambda i: _for_some_only(kept_platforms[i], possible))
            steps, detail = [steps[i] for i in order], [detail[i] for i in order]
            fix = Fix.model_construct(title=fill(fx.title, vals), steps=steps, detail=detail)
            # a fix for only some of the platforms the log leaves possible (a Jetson's, when a Linux path could be
            # either: its steps together do not cover them), or for only some of the releases it leaves possible (a
            # 9.x step when the release is unknown), comes after the fixes that fit them all
            covered = {p for plats in kept_platforms for p in (plats or PLATFORMS)}
            narrower = ((possible is not None and not possible <= covered)
                        or all(releases is not None for releases in kept_releases))
            out.append((2 * (0 if specific(fx) else 1) + int(narrower), len(out), fix))
    # A fix written for what this log shows (a signature it matched, its stack) comes before the general ones.
    return [fix for _rank, _i, fix in sorted(out, key=lambda t: (t[0], t[1]))]


_TRTEXEC_FIRST = re_compile(r"^\s*(?:\S*[\\/])?trtexec(?:\.exe)?\s")
"""A command whose first call is trtexec (a path to it included: /usr/src/tensorrt/bin/trtexec)."""
_OWN_TRTEXEC = ("trtexec", "polygraphy")
"""The front ends whose users run trtexec (Polygraphy's users have it beside it)."""


def _built_elsewhere(env: Environment) -> bool:
    """The log shows a builder other than trtexec: a stack's (Torch-TensorRT, Ultralytics, DeepStream, an app...), or a
    Python program's own (TensorRT's Python API, a converter), with no trtexec run in it."""
    if env.front_end is not None:
        return env.front_end not in _OWN_TRTEXEC
    return env.language == "python"


def _runs_trtexec(code: str | None, lang: str | None) -> bool:
    """A shell step whose command starts with trtexec."""
    return (bool(code) and (lang or "bash").lower() in (*POSIX_SHELLS, *WINDOWS_SHELLS)
            and _TRTEXEC_FIRST.match(code or "") is not None)


def _for_some_only(platforms: Sequence[Platform], possible: Collection[Platform] | None) -> bool:
    """A step or fix for only some of the platforms the log leaves possible (none known: never)."""
    return possible is not None and bool(platforms) and not set(possible) <= set(platforms)


def releases_label(spec: str, product: str = "TensorRT") -> str:
    """A version range as a reader says it: '>=10' -> 'TensorRT 10+', '<10' -> 'TensorRT before 10',
    '>=8.4,<11' -> 'TensorRT 8.4 to 10.x' (`product`: another package's name, 'onnxruntime 1.21+')."""
    low = high = None
    other: list[str] = []
    for clause in (c.strip() for c in spec.split(",") if c.strip()):
        if clause.startswith(">="):
            low = clause[2:]
        elif clause.startswith("<") and not clause.startswith("<="):
            high = clause[1:]
        else:
            other.append(clause)
    if len(other) == 1 and other[0].startswith("==") and low is None and high is None:
        return f"{product} {other[0][2:]}"
    if other or (low is None and high is None):
        return f"{product} {spec}"
    if low and high:
        parts = high.split(".")
        below = f"{int(parts[0]) - 1}.x" if len(parts) == 1 or parts[1:] in (["0"], ["0", "0"]) else f"before {high}"
        return f"{product} {low} to {below}" if below.endswith(".x") else f"{product} {low} to <{high}"
    if low:
        return f"{product} {low}+"
    return f"{product} before {high}"


def _whom(versions: str | None, platforms: Collection[Platform]) -> str:
    """Whom a step is for, said when the log does not tell the release or the platform."""
    parts = [releases_label(versions)] if versions else []
    if platforms:
        parts.append(" / ".join(PLATFORM_NAMES[p] for p in platforms))
    return ", ".join(parts)


def reduce_command(entry: Entry, hits: EntryHits, env: Environment) -> str | None:
    if not entry.reduce:
        return None
    from troubleshooter.core.regexes import literals_for

    # The trigger that fired first in this log, so the repro fails for the same reason.
    live = set(entry.live_triggers(hits.by_sig))
    fired = [s for s in entry.match.signatures if s.id in live]
    trig = min(fired, key=lambda s: hits.by_sig[s.id].first_line)
    return polygraphy_reduce(re.escape(literals_for(trig)[0]).replace("\\ ", " "), env)


def polygraphy_reduce(fail_regex: str, env: Environment) -> str:
    """`polygraphy debug reduce` to a minimal model that still fails with `fail_regex`, with the log's precisions."""
    prec = "".join(f" --{p}" for p in env.precisions if p in ("int8", "fp16", "bf16", "fp8"))
    # --fail-regex belongs to `debug reduce`; everything after --check is the check command.
    return (
        f"polygraphy debug reduce model.onnx -o reduced.onnx --mode=bisect --fail-regex {shlex.quote(fail_regex)} "
        f"--check polygraphy run polygraphy_debug.onnx --trt{prec}"
    )


