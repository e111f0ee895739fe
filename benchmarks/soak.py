"""Soak test: diagnose many generated logs in one process, as a chat bot would, and watch memory.

    python benchmarks/soak.py                      # 10,000 logs, RSS printed every 1,000
    python benchmarks/soak.py --count 2000 --every 250 --max-growth-mb 25

Each log is one of the sample logs, mutated so that no two are alike (noise lines before and after,
fresh node names, numbers and paths, CRLF or colour codes now and then, sometimes gzip or UTF-16 or
garbage). Every report is rendered to JSON, Markdown and chat chunks, as a bot would. Memory is read
from /proc/self/status (VmRSS). After a warm-up (the first tenth), RSS must stay within
--max-growth-mb of its warm-up value; the script exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import random
import re
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from troubleshooter import api
from troubleshooter.errors import InputError
from troubleshooter.render import render
from troubleshooter.render.chat import render_chat


def rss_mb() -> float:
    """Resident set size now, in MiB (peak RSS where /proc is missing)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


NOISE = [
    "[{ts}] [V] [TRT] Tactic: 0x{hex:016x} Time: 0.{n} ms",
    "[{ts}] [I] [TRT] [MemUsageChange] Init CUDA: CPU +{n}, GPU +0, now: CPU {n}, GPU {n} (MiB)",
    "[{ts}] [I] Average on {n} runs - GPU latency: 1.{n} ms",
    "[{ts}] [V] [TRT] Parsing node: /model.{n}/conv/Conv [Conv]",
    "{n}it [00:0{d}, {n}.{d}it/s]",
    "",
]


def _mutate(text: str, rng: random.Random) -> str:
    """Fresh names and numbers, so that caches keyed on text would keep growing if they were unbounded."""
    text = re.sub(r"/model\.(\d+)", lambda m: f"/model.{rng.randint(0, 10**6)}", text)
    text = re.sub(r"(?<=[ _])(\d{3,})(?=[ ,.)])", lambda m: str(rng.randint(100, 10**9)), text)
    return text.replace("/home/", f"/home/u{rng.randint(0, 10**6)}/")


def make_log(samples: list[str], rng: random.Random) -> bytes:
    ts = f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/2024-{rng.randint(0, 23):02d}:00:00"

    def noise(k: int) -> str:
        return "".join(rng.choice(NOISE).format(ts=ts, hex=rng.getrandbits(64), n=rng.randint(0, 99999),
                                                d=rng.randint(0, 9)) + "\n" for _ in range(k))

    body = _mutate(rng.choice(samples), rng)
    text = noise(rng.randint(0, 300)) + body + noise(rng.randint(0, 100))
    roll = rng.random()
    if roll < 0.05:
        text = text.replace("\n", "\r\n")
    elif roll < 0.10:
        text = "".join(f"\x1b[3{rng.randint(0, 7)}m{line}\x1b[0m\n" for line in text.splitlines())
    data = text.encode("utf-8")
    roll = rng.random()
    if roll < 0.05:
        return gzip.compress(data, compresslevel=1)
    if roll < 0.08:
        return b"\xff\xfe" + text.encode("utf-16-le")
    if roll < 0.10:
        return rng.randbytes(rng.randint(0, 4000))  # garbage: an InputError, as a bot would receive
    return data


def load_samples() -> list[str]:
    out = []
    for path in sorted((ROOT / "sample_logs").glob("*.log")):
        raw = path.read_bytes()
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            out.append(raw.decode("utf-16"))
        else:
            out.append(raw.decode("utf-8", errors="replace"))
    if not out:
        raise SystemExit("soak: no sample logs found in sample_logs/")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000, help="logs to diagnose (default 10,000)")
    parser.add_argument("--every", type=int, default=1_000, help="print RSS every N logs")
    parser.add_argument("--max-growth-mb", type=float, default=30.0,
                        help="fail when RSS grows more than this after the warm-up (default 30)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    samples = load_samples()
    engine = api.get_engine()
    start = time.perf_counter()
    print(f"soak: {args.count} logs from {len(samples)} samples; RSS at start {rss_mb():.1f} MiB", flush=True)
    warm = max(1, args.count // 10)
    baseline = None
    diagnosed = refused = found = 0
    total_bytes = 0
    readings: list[float] = []
    for i in range(1, args.count + 1):
        data = make_log(samples, rng)
        total_bytes += len(data)
        try:
            report = api.diagnose(data, engine=engine, name=f"log-{i}")
        except InputError:
            refused += 1
        else:
            diagnosed += 1
            found += report.top is not None
            render(report, "json")
            render(report, "markdown")
            render_chat(report, "slack")
        if i == warm:
            gc.collect()
            baseline = rss_mb()
        if i % args.every == 0 or i == args.count:
            gc.collect()
            now = rss_mb()
            readings.append(now)
            rate = i / (time.perf_counter() - start)
            print(f"soak: {i:>6} logs  RSS {now:7.1f} MiB  ({rate:5.0f} logs/s, {total_bytes / 1e6:7.1f} MB read)",
                  flush=True)
    elapsed = time.perf_counter() - start
    end = rss_mb()
    growth = end - (baseline if baseline is not None else readings[0])
    print(f"soak: done in {elapsed:.1f} s: {diagnosed} reports ({found} with a diagnosis), {refused} refused; "
          f"RSS after warm-up {baseline:.1f} MiB, at the end {end:.1f} MiB (growth {growth:+.1f} MiB)")
    if growth > args.max_growth_mb:
        print(f"soak: FAILED: memory grew by {growth:.1f} MiB (limit {args.max_growth_mb} MiB)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
