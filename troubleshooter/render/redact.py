"""Hide personal data in a report before it is shown, so it can be pasted publicly.

What is replaced, in the text that comes from the log (evidence and unexplained lines, captures,
the source name, notes, clues, lint findings: every text field of the report, found by walking the
model, so that a new field is redacted without anyone remembering it) and, through the captures, in
the causes, fixes, advice and titles filled in from them:

- user names (``/home/<user>``, ``/Users/<user>``, ``C:\\Users\\<user>``, ``user@host`` prompts,
  e-mail addresses): ``<user>``, and the home folder: ``<home>``;
- project paths (under /workspace, /mnt, /data... or naming a file): ``<path>/model.onnx``;
  system paths (/usr, /opt, /lib...) say which library failed and are kept;
- host names (FQDNs outside a list of public sites, hosts of prompts): ``<host-N>``;
- IPv4 and IPv6 addresses: ``<ip-N>`` (dotted versions such as 8.6.1.6 are kept);
- with ``names=True`` also ONNX node and tensor names: ``/model.1/conv/Conv`` -> ``<node-1>``.

The same value gets the same placeholder everywhere in one report. The knowledge base's own
words (and its reference links), ids and closed vocabularies (a `Literal` field) and the facts read
about the setup (versions, GPU, stack: what an issue needs) are never touched; `TEXT_KINDS` lists
those fields and the KB's worded ones.
"""

from __future__ import annotations

import ipaddress
import re
import sys
import typing
from collections.abc import Iterator
from enum import Enum
from types import UnionType
from typing import Any, Literal, Union

from troubleshooter.models import (
    CauseOut,
    Command,
    Diagnosis,
    Environment,
    Evidence,
    Finding,
    RangeAdvice,
    Report,
    Source,
    Unexplained,
)

_NAME_KEYS = {"node", "node_name", "failed_node", "layer", "tensor", "io_tensor", "binding", "input", "output",
              "conv", "sigmoid", "weights", "name"}
_GENERIC_USERS = {"root", "user", "users", "admin", "ubuntu", "nvidia", "jetson", "default", "guest", "runner",
                  "docker", "shared", "public", "home", "ec2-user", "test", "git"}
_SYSTEM_ROOTS = {"usr", "lib", "lib32", "lib64", "bin", "sbin", "etc", "opt", "proc", "sys", "dev", "var", "tmp",
                 "run", "snap", "boot", "System", "Library", "Applications", "private", "nix", "<path>"}
_PROJECT_ROOTS = {"workspace", "workspaces", "mnt", "media", "data", "datasets", "dataset", "srv", "scratch", "nfs",
                  "shared", "share", "gpfs", "lustre", "content", "kaggle", "app", "code", "src", "projects",
                  "project", "work", "models", "notebooks", "storage", "Volumes", "raid", "ssd", "hdd", "disk",
                  "export", "mydata", "host", "local", "output", "outputs", "experiments", "repos", "git"}
_FILE_EXT = re.compile(
    r"\.(?:onnx|engine|plan|trt|py|pyc|log|so|txt|json|ya?ml|cache|calib|table|pt|pth|pb|bin|h|hpp|cpp|cc|cu|c|"
    r"npy|npz|jpe?g|png|gz|tar|zip|whl|sh|cfg|ini|toml|prototxt|caffemodel|uff|tflite|safetensors|ckpt|exe|dll|"
    r"lib|a|o|md|xml|csv|pkl|dat|data|weights|timing|mlir|ipynb)(?:\.\d+)*$", re.IGNORECASE)
_OP_LIKE = re.compile(r"^[A-Z][A-Za-z]*(?:_\d+)*(?:_output(?:_\d+)?)?$")
_TLDS = ("com|net|org|edu|gov|io|ai|co|us|uk|de|fr|jp|cn|kr|tw|eu|ca|au|nl|se|ch|ru|br|il|sg|hk|"
         "local|lan|internal|corp|intra|intranet|localdomain|cloud")
_PUBLIC_HOSTS = re.compile(
    r"(?:^|\.)(?:nvidia\.com|github\.com|githubusercontent\.com|github\.io|pytorch\.org|onnx\.ai|onnxruntime\.ai|"
    r"python\.org|pypi\.org|stackoverflow\.com|nvcr\.io|docker\.io|docker\.com|huggingface\.co|microsoft\.com|"
    r"ubuntu\.com|anaconda\.(?:org|com)|conda\.io|readthedocs\.io|google\.com|tensorflow\.org)$", re.IGNORECASE)
_NOT_HOST_FIRST = {"self", "cls", "this", "torch", "np", "nn", "trt", "os", "sys", "threading", "model", "ctx"}

_URL_USERINFO = re.compile(r"(?<=://)[^/\s@<>]+@(?P<host>[A-Za-z0-9.-]+)")
_WIN_HOME = re.compile(r"(?i)\b[A-Z]:\\(?:Users|Documents and Settings)\\"
                       r"(?P<user>[^\\/\r\n\"'<>|:*?]{1,40}?(?=\\)|[^\\/\s\"'<>|:*?]+)")
_POSIX_HOME = re.compile(
    # a path alone, or glued to a compiler's include or library flag ("-I/home/<user>/...", "-L/home/...") or to a
    # word when a folder follows ("from file/home/<user>/model.onnx", the plugin ASSERT's "#assertion/home/<user>/...")
    # (a lower-case /users/ too: a cluster's home folders, "/users/<user>/.conda/envs/...")
    r"(?:(?<![\w.~-])|(?<=\s-[IL])|(?<=^-[IL])|(?<=[A-Za-z])(?=/(?:home\d*|[Uu]sers)/[\w.@+-]+/))(?:/mnt/[a-z]|/[a-z](?=/Users/))?(?:/[\w.-]+)*?/(?:home\d*|[Uu]sers)/"
    r"(?P<user>[\w.@+-]+)(?=/|\b|$)"
    r"|(?<![\w.~-])/root(?=/|\s|$|[\"':,)\]])|(?<![\w~])~(?=/)")
_PROMPT = re.compile(
    r"(?<![\w.+-])(?P<user>[A-Za-z_][\w.+-]{0,31})@(?P<host>[A-Za-z0-9][A-Za-z0-9-]{0,62}(?:\.[A-Za-z0-9-]+)*)"
    r"(?:(?P<colon>:)(?=[~/])|(?P<bracket>(?=\s[^\s\]]*\][$#]))|(?=[\s>),;]|$))")
_POSIX_TOKEN = re.compile(r"(?:(?P<home><home>)|(?<![\w./~>-]))(?P<path>(?:/[\w.@+%=,:-]+)+)/?")
_WIN_PATH = re.compile(r"(?i)(?<![\w])(?P<home><home>)?(?P<drive>\b[A-Z]:)?(?P<path>(?:\\[^\\\s\"'<>|*?:]+)+)\\?")
_IPV4 = re.compile(r"(?<![\w.-])(?P<ip>(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))"
                   r"(?![\w-]|\.\w)")
_IPV4_PORT = re.compile(r"^(?::\d{1,5}\b|/\d{1,2}\b)")
_IP_BEFORE = re.compile(r"(?i)(?:://|@|\b(?:ip|ipv4|addr|address|host|hostname|inet|server|peer|bind|url|endpoint|"
                        r"gateway|nameserver|proxy|connect(?:ing|ed)? to|listening on)[\s:=]*)$")
_VERSION_BEFORE = re.compile(r"(?i)(?:version|ver|v|tensorrt|trt|cuda|cudnn|cublas|driver|jetpack|l4t|release|build|"
                             r"torch|onnx|opset|nvinfer|so|r)[\s:=_-]*$")
_IPV6 = re.compile(r"(?<![\w:.])(?P<ip>[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})(?:%\w+)?(?![\w:])")
_FQDN = re.compile(rf"(?<![\w.@-])(?P<host>(?:[A-Za-z0-9](?:[A-Za-z0-9-]{{0,61}}[A-Za-z0-9])?\.)+(?:{_TLDS}))"
                   r"(?![\w-]|\.[A-Za-z0-9])", re.IGNORECASE)
_QUOTED_NAME = re.compile(r"(?i)\b(?P<kind>node|tensor|layer|input|output)s?\s*(?:name\s*)?[:=]?\s*(?P<q>['\"])"
                          r"(?P<name>[^'\"\n]{1,200})(?P=q)")
_PLACEHOLDER = re.compile(r"<(?:node|tensor|host|ip)-\d+>|<(?:user|home|path)>")
_NAME_PART = re.compile(r"(?<![\w.:/<>~-])(?:/[\w.:-]+)+|(?<![\w:])onnx::[\w.]+")
_TENSOR_SUFFIX = re.compile(r"(?:_output(?:_\d+)?|:\d+)$")
_ONNX_NAME = re.compile(r"(?<![\w:])onnx::[\w.]+")
_SLASH_NAME = re.compile(r"(?<![\w.:/<>~-])[A-Za-z_][\w.-]*(?:/[\w.:-]+)+")


class Redactor:
    """Replaces personal data with placeholders, the same placeholder for the same value."""

    def __init__(self, names: bool = False) -> None:
        self.names = names
        self.users: set[str] = set()
        self.hosts: dict[str, str] = {}
        self.ips: dict[str, str] = {}
        self.node_names: dict[str, str] = {}
        self._counts = {"node": 0, "tensor": 0}

    # -- learning: values met anywhere in the report are replaced everywhere -----------------
    def learn(self, text: str) -> None:
        for m in _WIN_HOME.finditer(text):
            self.users.add(m["user"])
        for m in _POSIX_HOME.finditer(text):
            if m["user"]:
                self.users.add(m["user"])
        for m in _PROMPT.finditer(text):
            if _is_prompt(m):
                self.users.add(m["user"])
                if not _PUBLIC_HOSTS.search(m["host"]):
                    self._host(m["host"])

    def learn_name(self, value: str, kind: str = "node") -> None:
        """Register a node or tensor name; a fused name ("A + PWN(B, C)") registers its parts."""
        value = value.strip()
        if _PLACEHOLDER.search(value):  # already redacted (a report redacted twice)
            return
        parts = [m[0] for m in _NAME_PART.finditer(value)]
        if parts and parts != [value]:
            for part in parts:
                self.learn_name(part, "tensor" if _TENSOR_SUFFIX.search(part) else "node")
            return
        if len(value) >= 2 and not value.isdigit() and value not in self.node_names:
            self._counts[kind] += 1
            self.node_names[value] = f"<{kind}-{self._counts[kind]}>"

    def _host(self, host: str) -> str:
        if host not in self.hosts:
            self.hosts[host] = f"<host-{len(self.hosts) + 1}>"
        return self.hosts[host]

    def _ip(self, ip: str) -> str:
        if ip not in self.ips:
            self.ips[ip] = f"<ip-{len(self.ips) + 1}>"
        return self.ips[ip]

    def _quoted_name(self, m: re.Match[str]) -> str:
        name = m["name"]
        if name not in self.node_names:
            self.learn_name(name, "node" if m["kind"].lower() in ("node", "layer") else "tensor")
        return m[0].replace(name, self.node_names.get(name, name))

    def _name(self, name: str) -> str:
        if name not in self.node_names:
            kind = "tensor" if _TENSOR_SUFFIX.search(name) else "node"
            self.learn_name(name, kind)
        return self.node_names.get(name, name)

    # -- scrubbing ------------------------------------------------------------------------------
    def scrub(self, text: str) -> str:
        """Redact one string taken from the log."""
        if not text:
            return text
        text = _URL_USERINFO.sub(self._url_userinfo, text)
        text = _WIN_HOME.sub("<home>", text)
        text = _POSIX_HOME.sub("<home>", text)
        text = _PROMPT.sub(self._prompt, text)
        if self.names:
            text = self._known_names(text)
            text = _QUOTED_NAME.sub(self._quoted_name, text)
        text = _POSIX_TOKEN.sub(self._posix_path, text)
        text = _WIN_PATH.sub(self._win_path, text)
        text = _IPV4.sub(self._ipv4, text)
        text = _IPV6.sub(self._ipv6, text)
        text = _FQDN.sub(self._fqdn, text)
        if self.names:
            text = _ONNX_NAME.sub(lambda m: self._name(m[0]), text)
            text = _SLASH_NAME.sub(self._slash_name, text)
        return self._bare_words(text)

    def _url_userinfo(self, m: re.Match[str]) -> str:
        host = m["host"]
        if _IPV4.fullmatch(host):
            return f"<user>@{self._ip(host)}"
        return f"<user>@{host if _PUBLIC_HOSTS.search(host) else self._host(host)}"

    def _prompt(self, m: re.Match[str]) -> str:
        host = m["host"]
        if not _is_prompt(m):
            return m[0]
        shown = host if _PUBLIC_HOSTS.search(host) else self._host(host)
        return f"<user>@{shown}{m['colon'] or ''}"

    def _known_names(self, text: str) -> str:
        for name in sorted(self.node_names, key=len, reverse=True):
            if name in text:
                text = re.sub(rf"(?<![\w./-]){re.escape(name)}(?![\w/-])", self.node_names[name], text)
        return text

    def _bare_words(self, text: str) -> str:
        words = {u: "<user>" for u in self.users if len(u) >= 3 and u.lower() not in _GENERIC_USERS}
        words.update({h: p for h, p in self.hosts.items() if len(h) >= 3})
        for word in sorted(words, key=len, reverse=True):
            if word in text:
                text = re.sub(rf"(?<![\w.<-]){re.escape(word)}(?![\w>-])", words[word], text)
        return text

    def _posix_path(self, m: re.Match[str]) -> str:
        path = m["path"].rstrip(":.,")
        trail = m["path"][len(path):]
        parts = [p for p in path.split("/") if p]
        at_home = m["home"] is not None
        if not at_home:
            if not parts or parts[0] in _SYSTEM_ROOTS:
                return m[0]
            is_file = bool(_FILE_EXT.search(parts[-1]))
            if not is_file and (parts[0] not in _PROJECT_ROOTS or _OP_LIKE.match(parts[-1])):
                if self.names and not all(p.isdigit() for p in parts):
                    return self._name(path) + trail
                return m[0]
        return _shorten(parts, "/", "<home>" if at_home else "") + trail

    def _win_path(self, m: re.Match[str]) -> str:
        if not (m["home"] or m["drive"]):
            return m[0]
        parts = [p for p in m["path"].split("\\") if p]
        if not m["home"] and parts and parts[0].lower() in ("windows", "program files", "programdata", "program"):
            return m[0]
        return _shorten(parts, "\\", "<home>" if m["home"] else "")

    def _ipv4(self, m: re.Match[str]) -> str:
        ip, before, after = m["ip"], m.string[max(0, m.start() - 24):m.start()], m.string[m.end():]
        if _IPV4_PORT.match(after) or _IP_BEFORE.search(before):
            return self._ip(ip)
        if _VERSION_BEFORE.search(before):
            return ip
        return self._ip(ip) if max(int(x) for x in ip.split(".")) >= 32 else ip

    def _ipv6(self, m: re.Match[str]) -> str:
        candidate = m["ip"]
        if candidate.count(":") < 2 or not re.search(r"[0-9A-Fa-f]", candidate):
            return m[0]
        try:
            ipaddress.IPv6Address(candidate)
        except ValueError:
            return m[0]
        return self._ip(candidate)

    def _fqdn(self, m: re.Match[str]) -> str:
        host = m["host"]
        if _PUBLIC_HOSTS.search(host) or host.split(".")[0].lower() in _NOT_HOST_FIRST:
            return host
        return self._host(host)

    def _slash_name(self, m: re.Match[str]) -> str:
        token = m[0]
        parts = token.split("/")
        if ("://" in token or _FILE_EXT.search(parts[-1]) or len(token) < 5
                or max(len(p) for p in parts) < 3):
            return token
        return self._name(token)


def _is_prompt(m: re.Match[str]) -> bool:
    """A shell prompt (user@host:~/dir, [user@host dir]$) or an e-mail address, not any word with an @."""
    return m["colon"] is not None or m["bracket"] is not None or bool(_FQDN.fullmatch(m["host"]))


def _shorten(parts: list[str], sep: str, head: str) -> str:
    """``<home>/<path>/file.onnx``: the folders hidden, the file name (and a site-packages tail) kept."""
    if not parts:
        return head or "<path>"
    tail_from = len(parts) - 1 if _FILE_EXT.search(parts[-1]) else len(parts)
    for i, p in enumerate(parts):
        if p in ("site-packages", "dist-packages"):
            tail_from = i
    tail = parts[tail_from:]
    hidden = len(parts) - len(tail) > 0
    pieces = ([head] if head else []) + (["<path>"] if hidden else []) + tail
    return sep.join(pieces)


# -- the report, walked field by field --------------------------------------------------------------

TextKind = Literal["log", "kb", "kept"]
"""log: text from the log, redacted (every text field not declared otherwise); kb: the KB's words filled
in with the log's captures (only the captured values in them are swapped for their redacted form); kept:
never touched."""

TEXT_KINDS: dict[tuple[type, str], TextKind] = {
    # The KB's words, filled in with the diagnosis's captures (core.ranking).
    (Diagnosis, "title"): "kb", (Diagnosis, "causes"): "kb", (Diagnosis, "cause_details"): "kb",
    (Diagnosis, "version_advice"): "kb", (Diagnosis, "version_advice_all"): "kb", (Diagnosis, "fixes"): "kb",
    (Diagnosis, "asks"): "kb",
    # Ids, the KB's own words and links, labels.
    (Diagnosis, "id"): "kept", (Diagnosis, "version_status"): "kept", (Diagnosis, "references"): "kept",
    (Diagnosis, "lint"): "kept", (Diagnosis, "alternatives"): "kept", (Diagnosis, "resembles"): "kept",
    (Unexplained, "similar"): "kept", (Evidence, "signature"): "kept", (Evidence, "role"): "kept",
    (CauseOut, "certainty"): "kept", (RangeAdvice, "versions"): "kept", (RangeAdvice, "status"): "kept",
    (Command, "lang"): "kept", (Finding, "rule"): "kept", (Finding, "kb"): "kept",
    (Finding, "source"): "kept", (Source, "encoding"): "kept",
    # What was read about the setup: versions, the GPU, the stack (the command it ran is the log's text).
    **{(Environment, name): "kept" for name in (
        "tensorrt_version", "cuda_version", "driver_version", "gpu", "compute_capability", "platform", "jetpack",
        "hosted", "precisions", "front_end", "stack_versions", "execution_providers", "onnx_ir_version", "onnx_producer")},
}
"""The text fields that are not the log's own text, by model class and field name (a subclass inherits its
base's); every other text field of the report is redacted."""

FILLED_FROM: dict[type, tuple[str, ...]] = {Diagnosis: ("captures", "capture_values")}
"""Where a record's `kb` fields took the log's values from: those values are swapped in them."""

WALKED_FIRST: dict[type, tuple[str, ...]] = {Report: ("source", "environment", "notes", "unexplained", "first_error")}
"""Fields visited before the others (which follow in declaration order): what reading found before what the
KB made of it. The order numbers the placeholders (`<host-1>`, `<node-1>`...) and decides which of two
overlapping names is learnt first."""


def _filled_from(cls: type) -> tuple[str, ...]:
    return next((names for base, names in FILLED_FROM.items() if issubclass(cls, base)), ())


def _kind(cls: type, name: str, inherited: TextKind) -> TextKind:
    for base in cls.__mro__:
        kind = TEXT_KINDS.get((base, name))
        if kind is not None:
            return kind
    return inherited


_FIELDS: dict[tuple[type, TextKind], tuple[tuple[str, TextKind], ...]] = {}


def _fields(cls: type, inherited: TextKind) -> tuple[tuple[str, TextKind], ...]:
    """The fields of a record class that may hold text, with their kind, in declaration order (fields of a
    closed vocabulary, a `Literal` or an `Enum`, hold no text; a `kept` field is not walked)."""
    known = _FIELDS.get((cls, inherited))
    if known is None:
        first = next((names for base, names in WALKED_FIRST.items() if issubclass(cls, base)), ())
        order = [*first, *(name for name in cls.model_fields if name not in first)]  # type: ignore[attr-defined]
        kinds = ((name, _kind(cls, name, inherited)) for name in order)
        known = _FIELDS[cls, inherited] = tuple((name, kind) for name, kind in kinds
                                                 if kind != "kept" and not _vocabulary(_annotation(cls, name)))
    return known


def _annotation(cls: type, name: str) -> Any:
    """A field's type: a pydantic field's own, else the annotation of the class declaring it, evaluated in
    that class's module (a subclass declared elsewhere does not see its base's names)."""
    annotation = getattr(cls.model_fields[name], "annotation", None)  # type: ignore[attr-defined]
    if annotation is not None:
        return annotation
    for klass in cls.__mro__:
        raw = klass.__dict__.get("__annotations__", {}).get(name)  # noqa: RUF063 - the class's own, not inherited
        if raw is not None:
            return eval(raw, vars(sys.modules[klass.__module__])) if isinstance(raw, str) else raw
    return None


def _vocabulary(annotation: Any) -> bool:
    """A `Literal[...]` or an `Enum` (or either, or None): a closed set of words, not text."""
    if typing.get_origin(annotation) is Literal:
        return True
    if isinstance(annotation, type):
        return issubclass(annotation, Enum)
    if typing.get_origin(annotation) in (Union, UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return bool(args) and all(_vocabulary(a) for a in args)
    return False


def _is_record(value: Any) -> bool:
    return hasattr(type(value), "model_fields") and hasattr(value, "model_copy")


def _texts(value: Any, kind: TextKind) -> Iterator[tuple[TextKind, str]]:
    """Every text in `value` with its kind, in the order the report declares its fields."""
    if isinstance(value, str):
        yield kind, value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item, kind)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item, kind)
    elif _is_record(value):
        for name, field_kind in _fields(type(value), kind):
            yield from _texts(getattr(value, name), field_kind)


class _ReportRedaction:
    """One report's redaction: each text from the log scrubbed once (the same text, the same result)."""

    def __init__(self, red: Redactor) -> None:
        self.red = red
        self._scrubbed: dict[str, str] = {}

    def scrub(self, text: str) -> str:
        done = self._scrubbed.get(text)
        if done is None:
            done = self._scrubbed[text] = self.red.scrub(text)
        return done

    def swaps(self, record: Any) -> dict[str, str]:
        """The record's captured values whose redacted form differs, longest first (see FILLED_FROM)."""
        found: dict[str, str] = {}
        for name in _filled_from(type(record)):
            for _, text in _texts(getattr(record, name), "log"):
                if text and text not in found:
                    found[text] = self.scrub(text)
        return {k: found[k] for k in sorted(found, key=len, reverse=True) if found[k] != k}

    def value(self, value: Any, kind: TextKind, swaps: dict[str, str]) -> Any:
        if isinstance(value, str):
            if kind == "log":
                return self.scrub(value)
            for original, redacted in swaps.items():
                value = value.replace(original, redacted)
            return value
        if isinstance(value, list):
            return [self.value(item, kind, swaps) for item in value]
        if isinstance(value, dict):
            return {key: self.value(item, kind, swaps) for key, item in value.items()}
        if _is_record(value):
            if _filled_from(type(value)):
                swaps = self.swaps(value)
            update = {name: self.value(getattr(value, name), field_kind, swaps)
                      for name, field_kind in _fields(type(value), kind)}
            return value.model_copy(update=update) if update else value
        return value


def _learn_names(red: Redactor, report: Report) -> None:
    """With `names`: the node and tensor names the diagnoses captured (so that they are hidden wherever
    they appear, even where no pattern would take them for a name)."""
    for d in report.diagnoses:
        pairs = [*d.captures.items(), *((key, v) for key, vals in d.capture_values.items() for v in vals)]
        for key, value in pairs:
            if key in _NAME_KEYS:
                red.learn_name(value, "tensor" if "tensor" in key or key in ("binding", "output") else "node")


def redact_report(report: Report, names: bool = False) -> Report:
    """A copy of ``report`` with user names, paths, hosts and IPs (and with ``names`` node names) hidden."""
    red = Redactor(names)
    if names:
        _learn_names(red, report)
    for kind, text in _texts(report, "log"):
        if kind == "log":
            red.learn(text)
    redacted: Report = _ReportRedaction(red).value(report, "log", {})
    return redacted
