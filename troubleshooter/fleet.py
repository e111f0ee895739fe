"""`trt-why scan DIR_OR_GLOB... [--jobs N] [--format jsonl|text]`: many logs at once, for CI farms.

Every log gets one JSON line (file, top diagnosis, confidence, TensorRT version, severity, whether
the build failed), then a summary: logs scanned, the share of failed builds with a known diagnosis
(the classification rate: the health figure of a KB), counts per family, and the unexplained error
lines seen most often (masked, so that one message with different numbers and names counts once):
the next KB entries to write.

The logs are shared out over all cores (a process pool; each worker builds its engine once, or
inherits it where processes fork). Beyond one machine, the JSONL output is the interface to
whatever distributes the work: there is no cluster code here.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import glob
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
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
    if matcher:
        os.environ["TRT_WHY_MATCHER"] = matcher
    from troubleshooter import api

    _WORKER["engine"] = api.get_engine(kb_dirs)
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
    from troubleshooter.core.logs import parse_line
    from troubleshooter.core.suggest import mask

    env = report.environment
    top = report.top
    specific = [d for d in report.diagnoses if d.severity == "error" and not d.cascade]
    failed = (env.build_succeeded is False or bool(specific)
              or (env.build_succeeded is not True and bool(report.unexplained)))
    unexplained = [[mask(parse_line(u.line, u.text).text), u.count, u.line] for u in report.unexplained]
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


def render_text(summary: dict[str, Any]) -> str:
    """The summary for a person."""
    out = [f"trt-why scan · {summary['logs']} logs · {summary['lines']:,} lines · {summary['seconds']:.1f} s"]
    if summary["unreadable"]:
        out.append(f"  {summary['unreadable']} could not be read")
    rate = summary["classification_rate"]
    out.append(f"  failed builds: {summary['failed']}; with a known diagnosis: {summary['failed_with_known_diagnosis']}"
               + (f" (classification rate {rate * 100:.1f}%)" if rate is not None else ""))
    out.append(f"  logs with an error or warning diagnosis: {summary['logs_with_findings']}")
    if summary["families"]:
        out.append("")
        out.append("Top diagnosis per log, by family:")
        width = max(len(k) for k in summary["families"])
        for fam, n in summary["families"].items():
            out.append(f"  {fam:<{width}}  {n:>6}")
    if summary["top_unexplained"]:
        out.append("")
        out.append("Unexplained error lines seen most often (the next KB entries to write):")
        for item in summary["top_unexplained"]:
            ex = item["example"]
            out.append(f"  {item['logs']:>5} logs  {item['text'][:110]}")
            out.append(f"         e.g. {ex['file']}:{ex['line']}")
    return "\n".join(out) + "\n"


# -- the command ------------------------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="trt-why scan",
        description="Diagnose many logs at once: one JSON line per log, then a summary "
                    "(classification rate, families, the unexplained error lines seen most often).",
    )
    p.add_argument("targets", nargs="+", metavar="DIR_OR_GLOB", help="folders (searched recursively), files or globs")
    p.add_argument("-j", "--jobs", type=int, default=0, help="worker processes (default: one per core)")
    p.add_argument("-f", "--format", choices=("jsonl", "text"), default="jsonl")
    p.add_argument("--pattern", action="append", metavar="GLOB",
                   help=f"file names to take from folders (repeatable; default {' '.join(LOG_PATTERNS)})")
    p.add_argument("--kb", action="append", default=[], metavar="DIR", help="extra KB folder (repeatable)")
    p.add_argument("--trt-version", metavar="X", help="TensorRT version for logs that do not say")
    p.add_argument("--top", type=int, default=TOP_UNEXPLAINED, help="unexplained lines listed in the summary")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when a log has an error or warning diagnosis")
    p.add_argument("--matcher", choices=("auto", "python", "hyperscan"), default=None, help=argparse.SUPPRESS)
    return p


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


def main(argv: Iterable[str] | None = None) -> int:
    """`trt-why scan`. Returns the exit code."""
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
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
    # On a terminal the text summary may show a bar; JSONL on a terminal is still for programs.
    bar = _progress(total, not args.no_progress and (args.format == "text" or not sys.stdout.isatty()))
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
            if args.format == "jsonl":
                line = {k: v for k, v in result.items() if not k.startswith("_") and k != "size"}
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
            if bar is not None:
                bar.label = f"{summary.logs}/{len(paths)} logs"
                bar(done)
    finally:
        if bar is not None:
            bar.close()
    final = summary.as_dict(args.top)
    if args.format == "jsonl":
        out.write(json.dumps({"summary": final}, separators=(",", ":")) + "\n")
    else:
        out.write(render_text(final))
    out.flush()
    return exit_codes.OK if args.exit_zero else status
