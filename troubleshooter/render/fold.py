"""Commands and snippets fitted to a width, broken only where the language lets them still run.

A report shown on an 80-column terminal (or in the TUI's checklist) must not wrap a command in the
middle of an argument or a string literal: what the user copies must paste and run. So a long line
is broken only where its language allows a line break without changing what it does:

- shell (bash, sh, zsh, console): between arguments, outside quotes, with a `` \\`` continuation
  (PowerShell: a `` ` `` continuation); a comment is never continued, a heredoc body never touched;
- Python: after a comma inside brackets (an implicit continuation), outside string literals; a
  trailing comment moves to its own line above the code;
- C and C++: at a space outside string literals and comments (not in a preprocessor line).

Anything else (an unbreakable argument, a language without a safe break) is left whole, longer than
the width: a cut or a fold would make it something else. Lines that fit are returned unchanged.
"""

from __future__ import annotations

import re

SHELLS = frozenset({"bash", "sh", "shell", "console", "zsh"})
PYTHON = frozenset({"python", "py", "python3"})
CPP = frozenset({"cpp", "c++", "c", "cc", "cuda"})
CONTINUE = 4
"""Extra indentation of a continuation line."""


def fit_code(code: str, lang: str | None, width: int | None) -> list[str]:
    """The lines of ``code``, long ones broken to at most ``width`` columns where ``lang`` allows it."""
    lines = code.split("\n")
    if width is None or all(len(x) <= width for x in lines):
        return lines
    lang = (lang or "").lower()
    if lang in SHELLS:
        return _shell(lines, width, " \\")
    if lang == "powershell":
        return _shell(lines, width, " `")
    if lang in PYTHON:
        return _python(lines, width)
    if lang in CPP:
        return _cpp(lines, width)
    return lines


def fits(lines: list[str], width: int) -> bool:
    return all(len(x) <= width for x in lines)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" "))]


def _pack(indent: str, words: list[str], width: int, marker: str, tail: str = "") -> list[str]:
    """``words`` greedily into lines of ``width``: every line but the last ends with ``marker``;
    continuation lines are indented by CONTINUE more than ``indent``. ``tail`` (a comment) ends the last line."""
    out: list[str] = []
    cur = indent + words[0]
    more = indent + " " * CONTINUE
    for i, word in enumerate(words[1:], 1):
        last = i == len(words) - 1
        room = width - (len(tail) if last else len(marker))
        if len(cur) + 1 + len(word) <= room:
            cur += " " + word
        else:
            out.append(cur + marker)
            cur = more + word
    out.append(cur + tail)
    return out


def _comment_lines(line: str, width: int, mark: str) -> list[str]:
    """A comment line (``# ...``) wrapped at spaces into comment lines."""
    indent = _indent(line)
    body = line.strip()[len(mark):].strip()
    out: list[str] = []
    cur = ""
    for word in body.split(" "):
        if cur and len(indent) + len(mark) + 1 + len(cur) + 1 + len(word) > width:
            out.append(f"{indent}{mark} {cur}")
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    out.append(f"{indent}{mark} {cur}")
    return out


# --- shell ---------------------------------------------------------------------------------------

_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1")


def _shell_words(line: str, quote: str, escape: str = "\\") -> tuple[list[str], str, str]:
    """(words outside quotes, the comment that ends the line, the quote still open at its end). ``escape``:
    the shell's escape character (PowerShell's is the backtick)."""
    words: list[str] = []
    cur = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            cur += ch
            if ch == escape and quote == '"' and i + 1 < len(line):
                cur += line[i + 1]
                i += 1
            elif ch == quote:
                quote = ""
        elif ch == escape and i + 1 < len(line):
            cur += line[i:i + 2]
            i += 1
        elif ch in "'\"":
            quote = ch
            cur += ch
        elif ch in " \t":
            if cur:
                words.append(cur)
                cur = ""
        elif ch == "#" and not cur:
            return words, line[i:], ""
        else:
            cur += ch
        i += 1
    if cur:
        words.append(cur)
    return words, "", quote


def _shell(lines: list[str], width: int, marker: str) -> list[str]:
    out: list[str] = []
    quote = ""
    heredoc: str | None = None
    for line in lines:
        if heredoc is not None:  # data, not shell: as it is
            out.append(line)
            if line.strip() == heredoc:
                heredoc = None
            continue
        starts_quoted = bool(quote)
        words, comment, quote = _shell_words(line, quote, marker.strip())
        doc = _HEREDOC.search(line)
        if doc is not None and not starts_quoted:
            heredoc = doc.group(2)
        if len(line) <= width or starts_quoted or quote:
            out.append(line)  # fits, or a line inside (or opening) a quoted string: a break would change it
            continue
        if not words:
            out += _comment_lines(line, width, "#") if comment else [line]
            continue
        if comment:  # a comment is never continued: it goes on its own line above
            out += _comment_lines(_indent(line) + comment, width, "#")
        continued = words[-1] == marker.strip()
        if continued:
            words = words[:-1]
        packed = _pack(_indent(line), words, width, marker)
        if continued:
            packed[-1] += marker
        out += packed
    return out


# --- Python --------------------------------------------------------------------------------------

_STRING_START = re.compile(r"(?i)[rbfu]{0,2}('\'\'|\"\"\"|'|\")")


def _python_scan(line: str, depth: int, triple: str) -> tuple[list[tuple[int, bool]], int, int | None, str]:
    """Where a line may break: (index of a space outside strings or just after an opening bracket, whether it
    is inside brackets: no backslash needed), the bracket depth and the triple quote open at its end, and where its comment
    starts (None: no comment)."""
    spaces: list[tuple[int, bool]] = []
    i = 0
    n = len(line)
    while i < n:
        if triple:
            end = line.find(triple, i)
            if end < 0:
                return spaces, depth, None, triple
            i, triple = end + 3, ""
            continue
        ch = line[i]
        m = _STRING_START.match(line, i) if ch.isalpha() or ch in "'\"" else None
        if m is not None and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
            q = m.group(1)
            i = m.end()
            if len(q) == 3:
                triple = q
                continue
            while i < n and line[i] != q:
                i += 2 if line[i] == "\\" else 1
            i += 1
            continue
        if ch == "#":
            return spaces, depth, i, ""
        if ch in "([{":
            depth += 1
            if i + 1 < n and line[i + 1] not in ")]} ":
                spaces.append((i + 1, True))  # just inside an opening bracket: an implicit continuation
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == " ":
            spaces.append((i, depth > 0))
        i += 1
    return spaces, depth, None, triple


def _python(lines: list[str], width: int) -> list[str]:
    out: list[str] = []
    depth, triple = 0, ""
    statement_indent = ""
    for line in lines:
        starts_in_string, starts_in_brackets = bool(triple), depth > 0
        spaces, end_depth, comment_at, end_triple = _python_scan(line, depth, triple)
        depth, triple = end_depth, end_triple
        if not starts_in_brackets and not starts_in_string:
            statement_indent = _indent(line)
        if len(line) <= width or starts_in_string or triple:
            out.append(line)
            continue
        code = line
        if comment_at is not None:
            comment = line[comment_at:].strip()
            code = line[:comment_at].rstrip()
            if not code.strip():
                out += _comment_lines(line, width, "#")
                continue
            out += _comment_lines(_indent(line) + comment, width, "#")  # a comment line is valid anywhere
            if len(code) <= width:
                out.append(code)
                continue
        indent = _indent(code)
        if starts_in_brackets and len(indent) > len(statement_indent) + CONTINUE:
            # Inside brackets indentation means nothing: a continuation aligned far right comes back.
            cut = len(indent) - len(statement_indent) - CONTINUE
            spaces = [(at - cut, inside) for at, inside in spaces if at >= len(indent)]
            indent = statement_indent + " " * CONTINUE
            code = indent + code.lstrip(" ")
            if len(code) <= width:
                out.append(code)
                continue
        out += _pack_at(code, indent, [(at, inside) for at, inside in spaces if at > len(indent)], width)
    return out


def _pack_at(code: str, indent: str, spaces: list[tuple[int, bool]], width: int) -> list[str]:
    """``code`` broken greedily at some of ``spaces`` (inside brackets: as it is; outside: with a backslash)."""
    out: list[str] = []
    more = indent + " " * CONTINUE
    start, prefix = len(indent), indent
    while True:
        rest = prefix + code[start:].strip()
        if len(rest) <= width:
            out.append(rest)
            return out
        chosen: tuple[int, str] | None = None
        first: tuple[int, str] | None = None
        for at, inside in spaces:
            if at <= start or not code[start:at].strip():
                continue
            piece = prefix + code[start:at].strip() + ("" if inside else " \\")
            first = first or (at, piece)
            if len(piece) <= width:
                chosen = (at, piece)
        chosen = chosen or first  # no break makes it fit: the shortest overlong piece
        if chosen is None:
            out.append(rest)
            return out
        start, piece = chosen
        out.append(piece)
        prefix = more


# --- C and C++ -----------------------------------------------------------------------------------


def _cpp(lines: list[str], width: int) -> list[str]:
    out: list[str] = []
    for line in lines:
        if len(line) <= width or line.lstrip().startswith("#") or "/*" in line or 'R"' in line:
            out.append(line)  # a preprocessor line, a block comment or a raw string: left as it is
            continue
        breaks, comment_at = _cpp_scan(line)
        code = line
        if comment_at is not None:
            code = line[:comment_at].rstrip()
            out += _comment_lines(_indent(line) + line[comment_at:].strip(), width, "//")
            if not code.strip() or len(code) <= width:
                out += [code] if code.strip() else []
                continue
        indent = _indent(code)
        out += _pack_at(code, indent, [(at, True) for at in breaks if len(indent) < at < len(code)], width)
    return out


def _cpp_scan(line: str) -> tuple[list[int], int | None]:
    """Where a C/C++ line may break (a space outside literals, just after an opening bracket) and where its
    // comment starts."""
    breaks: list[int] = []
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif line.startswith("//", i):
            return breaks, i
        elif ch == " ":
            breaks.append(i)
        elif ch in "([{" and i + 1 < len(line) and line[i + 1] not in ")]} ":
            breaks.append(i + 1)
        i += 1
    return breaks, None
