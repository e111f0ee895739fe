"""Shell syntax that runs on one platform only: what keeps a command off the platforms it cannot run on.

The KB's own fixes are gated by their `platforms` (checked against these tables by tests/kb/test_command_gates.py);
the next steps for a line the KB does not explain (the stacks' steps and the kinds outside TensorRT) hold a POSIX
command and, where one was written, its Windows form: on a Windows log a POSIX command with Linux-only syntax and no
Windows form is left out (its text stays), never shown to a user who cannot run it.
"""

from __future__ import annotations

from troubleshooter.re_programs import re_compile

POSIX_SHELLS = ("bash", "sh", "shell", "console", "zsh")
WINDOWS_SHELLS = ("powershell", "ps1", "pwsh", "cmd", "bat", "batch")

LINUX_ONLY: list[tuple[str, str]] = [
    ("ldd", r"\bldd\b"),
    ("ldconfig", r"\bldconfig\b"),
    ("LD_LIBRARY_PATH", r"\bLD_LIBRARY_PATH\b"),
    ("LD_PRELOAD", r"\bLD_PRELOAD\b"),
    ("xxd", r"\bxxd\b"),
    ("sudo", r"\bsudo\b"),
    ("apt", r"\bapt(?:-get)?\s+(?:-\S+\s+)*(?:install|update|upgrade|remove|purge)\b"),
    ("export VAR=", r"(?m)(?:^|[;&|]|\$\()\s*export\s+[A-Za-z_]\w*="),  # the shell's export, not `yolo export model=`
    ("leading VAR=value cmd", r"(?m)(?:^|[;&|]|\$\()\s*[A-Za-z_]\w*=\S*\s+[\w./-]"),
    ("$VAR expansion", r"\$\{?[A-Z_][A-Z0-9_]*\b"),
    ("/usr/ path", r"(?<![\w.~-])/usr/"),
    ("find /", r"\bfind\s+/"),
    ("/dev/null, /proc, /etc", r"(?<![\w.~-])/(?:dev/null|proc/|etc/)"),
    ("POSIX tool (grep, head, rm -f, cat, ls, which)",
     r"(?m)\bgrep\b|\bhead\s+-|\|\s*head\b|\brm\s+-\w*f|\bcat\s|(?:^|[;&|]\s*)ls\s|\bwhich\s|\bsed\s|\bawk\s|\btee\s"),
]
"""Syntax that only works in a Linux shell (Linux, WSL, Jetson): (what it is, its pattern)."""

WINDOWS_ONLY: list[tuple[str, str]] = [
    ("drive path", r"\b[A-Za-z]:\\"),
    ("%VAR%", r"%[A-Za-z_]\w*%"),
    ("$env:", r"\$env:"),
    ("dumpbin", r"\bdumpbin\b"),
    ("where.exe", r"\bwhere\.exe\b"),
    ("os.add_dll_directory", r"\badd_dll_directory\b"),
    (".dll", r"\.dll\b"),
    ("PowerShell cmdlet", r"\b(?:Copy-Item|Get-ChildItem|Select-String|Set-Item|Remove-Item)\b"),
]
"""Syntax that only works on Windows."""


def hits(rules: list[tuple[str, str]], code: str) -> list[str]:
    """The names of the rules whose pattern `code` holds."""
    return [name for name, rx in rules if re_compile(rx).search(code)]


_PYTHON_C = re_compile(r"""(\bpython[\d.]*(?:\.exe)?\s+-c\s+)("[^"]*"|'[^']*')""")
"""A `python -c "..."` program: its body is Python, not shell syntax (`g=tf.GraphDef(); g.Parse...` is no shell's
`VAR=value cmd`)."""


def linux_only(code: str, lang: str) -> list[str]:
    """What in a POSIX shell command only a Linux shell runs (empty for another language; a `python -c` program's
    body is not read as shell)."""
    if lang.lower() not in POSIX_SHELLS:
        return []
    return hits(LINUX_ONLY, _PYTHON_C.sub(lambda m: m.group(1) + '""', code))
