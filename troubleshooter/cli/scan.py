"""`trt-why scan DIR_OR_GLOB... [--jobs N] [--format jsonl|text]`: many logs at once, for CI farms.

Every log gets one JSON line (file, top diagnosis, confidence, TensorRT version, severity, whether
the build failed), then a summary: logs scanned, the share of failed builds with a known diagnosis
(the classification rate: the health figure of a KB), counts per family, and the unexplained error
lines seen most often (masked, so that one message with different numbers and names counts once):
the next KB entries to write.

The logs are shared out over all cores (a process pool; each worker builds its engine once, or
inherits it where processes fork). Beyond one machine, the JSONL output is the interface to
whatever distributes the work: there is no cluster code here.

The command's arguments are declared with the rest of the command line (`cli.parser`); what it
writes comes from the format registry (`render.formats`: products fleet-log and fleet-summary).
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import glob
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from troubleshooter import exit_codes

LOG_PATTERNS = ("*.log", "*.log.gz", "*.txt", "*.txt.gz", "*.out", "*.err", "*.gz")
"""What a folder is searched for (--pattern replaces it)."""
TOP_UNEXPLAINED = 20
MAX_DISTINCT_UNEXPLAINED = 50_000
"""Distinct masked lines tracked in the summary; past it, those seen in one log only are dropped."""


# -- finding the logs -------------------------------------------------------------------------------

def find_logs(targets: Sequence[str], patterns: Sequence[str] = LOG_PATTERNS) -> list[str]:
    """Files named by the targets: files as given, folders searched recursively, globs expanded."""
    found: dict[str, None] = {}
    for target in targets:
        if os.path.isdir(target):
            for root, dirs, files in os.walk(target):
                dirs.sort()
                for name in sorted(files):
                    if any(fnmatch.fnmatch(name, p) for p in patterns):
                        found[os.path.join(root, name)] = None
        elif os.path.isfile(target):
            found[target] = None
        elif glob.has_magic(target):
            for path in sorted(glob.glob(target, recursive=True)):
                if os.path.isfile(path):
                    found[path] = None
    return list(found)


# -- one log (in a worker) --------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(kb_dirs: Sequence[str], trt_version: str | None, matcher: str | None) -> None:
    """Build this process's engine once (a forked worker inherits the parent's)."""
    from troubleshooter import api

    _WORKER["engine"] = api.get_engine(kb_dirs, prefer=matcher)
    _WORKER["trt_version"] = trt_version


def analyse(path: str) -> dict[str, Any]:
    """One log's line of the JSONL output, plus its unexplained error lines for the summary."""
    from troubleshooter import api
    from troubleshooter.errors import TroubleshooterError

    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0
    try:
        report = api.diagnose_path(path, engine=_WORKER.get("engine"), trt_version=_WORKER.get("trt_version"))
    except TroubleshooterError as exc:
        return {"file": path, "error": str(exc), "size": size}
    except (OSError, ValueError, MemoryError) as exc:  # one bad log never stops the fleet
        return {"file": path, "error": f"{exc.__class__.__name__}: {exc}", "size": size}
    return summarise(report, path, size)


def summarise(report: Any, path: str, size: int = 0) -> dict[str, Any]:
    """The fleet's view of one report."""
    from troubleshooter.api import unexplained_key

    env = report.environment
    top = report.top
    specific = [d for d in report.diagnoses if d.severity == "error" and not d.cascade]
    failed = report.failure  # the report's own verdict: what `trt-why LOG` exits 1 for, never a second rule
    unexplained = [[unexplained_key(u), u.count, u.line] for u in report.unexplained]
    return {
        "file": path,
        "top": top.id if top else None,
        "title": top.title if top else None,
        "confidence": top.confidence if top else None,
        "severity": top.severity if top else None,
        "tensorrt_version": env.tensorrt_version,
        "failed": failed,
        "known": bool(specific),
        "build_succeeded": env.build_succeeded,
        "diagnoses": [d.id for d in report.diagnoses],
        "unexplained_lines": sum(u.count for u in report.unexplained),
        "lines": report.source.lines,
        "size": size,
        "_unexplained": unexplained,
    }


# -- the summary ------------------------------------------------------------------------------------

@dataclass
class Summary:
    """Figures over the whole fleet, kept in bounded memory."""

    logs: int = 0
    unreadable: int = 0
    failed: int = 0
    classified: int = 0
    with_findings: int = 0
    lines: int = 0
    bytes: int = 0
    families: Counter[str] = field(default_factory=Counter)
    versions: Counter[str] = field(default_factory=Counter)
    unexplained_logs: Counter[str] = field(default_factory=Counter)
    unexplained_lines: Counter[str] = field(default_factory=Counter)
    examples: dict[str, tuple[str, int]] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)

    def add(self, result: dict[str, Any]) -> None:
        self.logs += 1
        self.bytes += int(result.get("size") or 0)
        if result.get("error"):
            self.unreadable += 1
            return
        self.lines += result["lines"]
        if result["failed"]:
            self.failed += 1
            if result["known"]:
                self.classified += 1
        if result["top"]:
            self.families[result["top"]] += 1
            if result["severity"] in ("error", "warning"):
                self.with_findings += 1
        self.versions[result["tensorrt_version"] or "unknown"] += 1
        for masked, count, line in result["_unexplained"]:
            self.unexplained_logs[masked] += 1
            self.unexplained_lines[masked] += count
            self.examples.setdefault(masked, (result["file"], line))
        if len(self.unexplained_logs) > MAX_DISTINCT_UNEXPLAINED:
            for key in [k for k, n in self.unexplained_logs.items() if n <= 1]:
                del self.unexplained_logs[key]
                self.unexplained_lines.pop(key, None)
                self.examples.pop(key, None)

    def as_dict(self, top: int = TOP_UNEXPLAINED) -> dict[str, Any]:
        seconds = time.monotonic() - self.started
        return {
            "logs": self.logs,
            "unreadable": self.unreadable,
            "failed": self.failed,
            "failed_with_known_diagnosis": self.classified,
            "classification_rate": round(self.classified / self.failed, 4) if self.failed else None,
            "logs_with_findings": self.with_findings,
            "families": dict(sorted(self.families.items(), key=lambda kv: (-kv[1], kv[0]))),
            "tensorrt_versions": dict(sorted(self.versions.items(), key=lambda kv: (-kv[1], kv[0]))),
            "top_unexplained": [
                {"text": text, "logs": n, "lines": self.unexplained_lines[text],
                 "example": {"file": self.examples[text][0], "line": self.examples[text][1]}}
                for text, n in sorted(self.unexplained_logs.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
            ],
            "lines": self.lines,
            "bytes": self.bytes,
            "seconds": round(seconds, 3),
        }


# -- the command ------------------------------------------------------------------------------------

def _results(paths: list[str], jobs: int, init_args: tuple[Any, ...]) -> Iterator[dict[str, Any]]:
    """Results in the order of `paths`, computed by `jobs` processes."""
    _init_worker(*init_args)  # also in the parent: forked workers inherit the engine
    if jobs <= 1 or len(paths) < 2:
        yield from map(analyse, paths)
        return
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods and sys.platform == "linux" else None)
    chunk = max(1, min(64, len(paths) // (jobs * 8)))
    with ctx.Pool(jobs, initializer=_init_worker if ctx.get_start_method() != "fork" else None,
                  initargs=init_args if ctx.get_start_method() != "fork" else ()) as pool:
        yield from pool.imap(analyse, paths, chunksize=chunk)


def _progress(total_bytes: int, enabled: bool):  # type: ignore[no-untyped-def]
    if not enabled or not sys.stderr.isatty() or os.environ.get("TERM") == "dumb":
        return None
    from troubleshooter.render.progress import ProgressBar

    return ProgressBar(total_bytes or None, sys.stderr)


def run(args: argparse.Namespace) -> int:
    """`trt-why scan` with its parsed arguments (declared in `cli.parser`). Returns the exit code."""
    from troubleshooter.render import formats

    paths = find_logs(args.targets, tuple(args.pattern) if args.pattern else LOG_PATTERNS)
    if not paths:
        sys.stderr.write("trt-why scan: no logs found in " + " ".join(args.targets) + "\n")
        return exit_codes.ERROR
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    jobs = min(jobs, len(paths))
    total = 0
    for path in paths:
        with contextlib.suppress(OSError):
            total += os.path.getsize(path)
    output = formats.get(args.format)
    per_log = output.renderer("fleet-log") if output.can_render("fleet-log") else None
    # A per-log stream is for programs even on a terminal; a summary alone may share the screen with a bar.
    bar = _progress(total, not args.no_progress and (per_log is None or not sys.stdout.isatty()))
    summary = Summary()
    status = exit_codes.OK
    out = sys.stdout
    done = 0
    try:
        for result in _results(paths, jobs, (args.kb, args.trt_version, args.matcher)):
            summary.add(result)
            done += int(result.get("size") or 0)
            if result.get("severity") in ("error", "warning"):
                status = exit_codes.FOUND
            if per_log is not None:
                out.write(per_log({k: v for k, v in result.items() if not k.startswith("_") and k != "size"}))
            if bar is not None:
                bar.label = f"{summary.logs}/{len(paths)} logs"
                bar(done)
    finally:
        if bar is not None:
            bar.close()
    out.write(formats.render(args.format, "fleet-summary", summary.as_dict(args.top)))
    out.flush()
    return exit_codes.OK if args.exit_zero else status
