#!/usr/bin/env python3
"""Scanning speed, memory and scaling of `trt-why --format json` against ripgrep, in one run.

    python benchmarks/bench_scan.py                      # 10M, 100M and 1G logs under /tmp
    python benchmarks/bench_scan.py --sizes 10M,100M --runs 3 --workdir /data/bench

For each size it generates a log with benchmarks/gen_log.py (--seed 1; kept in the workdir, never in
the repository, and made again when the generator changes), warms the page cache, then times, in the
same run, `rg -c -f benchmarks/patterns.txt LOG` and `trt-why --format json LOG` in turns (the page
cache warmed before each pair), then trt-why with one core and with the pure-Python finder
(TRT_WHY_MATCHER), taking the median of several runs. It reports wall time, CPU time (the machine may
be shared), peak RSS of the largest process and of all processes together (sampled), and the ratio
ripgrep / trt-why (above 1: trt-why is faster). Then memory with a .gz and with stdin, and the cost
of doubling the KB's signatures (the KB loaded twice, renamed). Writes the table to
benchmarks/results.md.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TRT_WHY = [sys.executable, "-c", "import sys; from troubleshooter.cli import main; sys.exit(main())"]


def parse_size(text: str) -> int:
    text = text.strip().upper().rstrip("B").rstrip("I")
    mult = 1
    if text and text[-1] in "KMGT":
        mult = 1024 ** ("KMGT".index(text[-1]) + 1)
        text = text[:-1]
    return int(float(text) * mult)


# -- running one command ------------------------------------------------------------------------------

def _tree_rss(pid: int) -> int:
    """Memory of a process and its descendants, in KiB (Linux /proc): the sum of their proportional
    set sizes (PSS: pages a forked child shares with its parent count once, split between them)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return total


def run(cmd: list[str], env: dict[str, str] | None = None, stdin_path: Path | None = None,
        sample: bool = True) -> dict[str, float]:
    """Wall and CPU seconds, peak RSS of the largest process and of the whole tree (MiB).

    The whole tree's memory is sampled by a thread of this process (every 50 ms); that costs CPU on a
    small machine, so timed runs pass sample=False and the memory comes from an untimed run."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL  # noqa: SIM115
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=stdin, env=full_env,
                            cwd=str(ROOT))
    peak_tree = [0]
    done = threading.Event()

    def sample_tree() -> None:
        while not done.is_set():
            peak_tree[0] = max(peak_tree[0], _tree_rss(proc.pid))
            done.wait(0.05)

    sampler = threading.Thread(target=sample_tree, daemon=True)
    if sample:
        sampler.start()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    if sample:
        sampler.join()
    if stdin_path:
        stdin.close()  # type: ignore[union-attr]
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(cmd[:3])}... exited with {code}: {err[-500:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024,
            "tree_rss": peak_tree[0] / 1024}


def median_of(cmd: list[str], runs: int, env: dict[str, str] | None = None,
              stdin_path: Path | None = None, warmup: bool = True) -> dict[str, float]:
    first = run(cmd, env, stdin_path)  # untimed unless it is the only run: page cache, KB cache, .pyc; memory
    samples = [run(cmd, env, stdin_path, sample=False) for _ in range(runs)] if warmup else [first]
    return _medians(samples, first)


def _medians(samples: list[dict[str, float]], sampled: dict[str, float]) -> dict[str, float]:
    """Median wall and CPU of the timed runs; the peak memory of all runs (the tree's from the sampled one)."""
    out = {k: statistics.median(s[k] for s in samples) for k in ("wall", "cpu")}
    out["rss"] = max(s["rss"] for s in [*samples, sampled])
    out["tree_rss"] = sampled["tree_rss"]
    return out


def median_pair(cmd_a: list[str], cmd_b: list[str], runs: int, env_b: dict[str, str] | None = None,
                log: Path | None = None) -> tuple[dict[str, float], dict[str, float]]:
    """Two commands timed in turns (A, B, A, B...), the page cache warmed before each pair: on a shared
    VM that reclaims idle page cache, both see the same conditions. Medians, as `median_of`."""
    first_a = run(cmd_a)
    first_b = run(cmd_b, env_b)
    a: list[dict[str, float]] = []
    b: list[dict[str, float]] = []
    for _ in range(runs):
        if log is not None:
            warm(log)
        a.append(run(cmd_a, sample=False))
        b.append(run(cmd_b, env_b, sample=False))
    mb = _medians(b, first_b)
    # each pair's own ratio (A's wall / B's wall): the spread says how much the figure moves on this machine today
    mb["pair_ratios"] = sorted(x["wall"] / y["wall"] for x, y in zip(a, b, strict=True))  # type: ignore[assignment]
    return _medians(a, first_a), mb


# -- preparing inputs ---------------------------------------------------------------------------------

def generate(workdir: Path, size: str, gen_log: Path) -> Path:
    """The log of this size, made again when the generator (its source) or the size changed."""
    path = workdir / f"trt_{size.lower()}.log"
    made_by = path.with_name(path.name + ".generator")  # which generator wrote it
    stamp = f"{hashlib.sha256(gen_log.read_bytes()).hexdigest()} {parse_size(size)}\n"
    if not path.exists() or not made_by.exists() or made_by.read_text() != stamp:
        print(f"generating {path} ...", flush=True)
        subprocess.run([sys.executable, str(gen_log), "--size", size, "--seed", "1", "-o", str(path)], check=True,
                       stdout=subprocess.DEVNULL)
        made_by.write_text(stamp)
    return path


def warm(path: Path) -> None:
    with open(path, "rb", buffering=0) as f:
        buf = bytearray(8 << 20)
        while f.readinto(buf):
            pass


def doubled_kb(workdir: Path) -> Path:
    """Every built-in entry again under another id: twice the signatures."""
    out = workdir / "kb-copy"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for entry in sorted((ROOT / "kb").glob("*.yaml")):
        text = entry.read_text(encoding="utf-8")
        new_id = entry.stem + "-copy"
        text = re.sub(rf"^id:\s*{re.escape(entry.stem)}\s*$", f"id: {new_id}", text, count=1, flags=re.MULTILINE)
        (out / f"{new_id}.yaml").write_text(text, encoding="utf-8")
    return out


# -- the benchmark ------------------------------------------------------------------------------------

def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="10M,100M,1G")
    p.add_argument("--runs", type=int, default=5, help="runs per measurement (the median is kept)")
    p.add_argument("--python-runs", type=int, default=3, help="runs of the pure-Python finder on the largest log")
    p.add_argument("--workdir", default="/tmp/trt-why-bench", help="where the generated logs go (not the repo)")
    p.add_argument("--gen-log", default=str(HERE / "gen_log.py"), help="log generator (default benchmarks/gen_log.py)")
    p.add_argument("--patterns", default=str(HERE / "patterns.txt"),
                   help="ripgrep's patterns, the reference (default benchmarks/patterns.txt)")
    p.add_argument("--results", default=str(HERE / "results.md"))
    p.add_argument("--skip-extras", action="store_true", help="no .gz / stdin / doubled-KB measurements")
    p.add_argument("--fleet", type=int, default=0, metavar="N",
                   help="only time fleet mode: `trt-why scan` over N small logs (copies of sample_logs)")
    args = p.parse_args()
    if args.fleet:
        return fleet(args.fleet, Path(args.workdir))

    rg = shutil.which("rg")
    if rg is None:
        raise SystemExit("ripgrep (rg) is needed: apt-get install -y ripgrep")
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    env_cache = {"TRT_WHY_CACHE_DIR": str(workdir / "cache")}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "troubleshooter")], check=False,
                   stdout=subprocess.DEVNULL)
    run([*TRT_WHY, "--format", "json", str(ROOT / "sample_logs" / "yolov8-int8-orin-silu.log")], env_cache)  # KB cache

    # Start-up of each configuration (a one-line log): subtracted to see how the work itself scales.
    tiny = ROOT / "sample_logs" / "e-dealloc-lone-line.log"
    startup = {
        "hyperscan": median_of([*TRT_WHY, "--format", "json", str(tiny)], args.runs,
                               {**env_cache, "TRT_WHY_MATCHER": "hyperscan"}),
        "hyperscan-1core": median_of([*TRT_WHY, "--format", "json", str(tiny)], args.runs,
                                     {**env_cache, "TRT_WHY_MATCHER": "hyperscan", "TRT_WHY_JOBS": "1"}),
        "python": median_of([*TRT_WHY, "--format", "json", str(tiny)], args.runs, {**env_cache, "TRT_WHY_MATCHER": "python"}),
    }

    rows = []
    for size in sizes:
        log = generate(workdir, size, Path(args.gen_log))
        warm(log)
        big = size == sizes[-1]
        row = {"size": size, "bytes": log.stat().st_size}
        row["rg"], row["hyperscan"] = median_pair([rg, "-c", "-f", args.patterns, str(log)],
                                                  [*TRT_WHY, "--format", "json", str(log)], args.runs,
                                                  {**env_cache, "TRT_WHY_MATCHER": "hyperscan"}, log)
        row["hyperscan-1core"] = median_of([*TRT_WHY, "--format", "json", str(log)], args.runs,
                                           {**env_cache, "TRT_WHY_MATCHER": "hyperscan", "TRT_WHY_JOBS": "1"})
        row["python"] = median_of([*TRT_WHY, "--format", "json", str(log)], args.python_runs if big else args.runs,
                                  {**env_cache, "TRT_WHY_MATCHER": "python"})
        rows.append(row)
        _print_row(row)

    extras: dict[str, dict[str, float]] = {}
    if not args.skip_extras:
        log = generate(workdir, sizes[-1], Path(args.gen_log))
        packed = workdir / (log.name + ".gz")
        if not packed.exists() or packed.stat().st_mtime < log.stat().st_mtime:
            print(f"compressing {packed} ...", flush=True)
            with open(log, "rb") as src, gzip.open(packed, "wb", compresslevel=1) as dst:
                shutil.copyfileobj(src, dst, 8 << 20)
        extras[".gz"] = median_of([*TRT_WHY, "--format", "json", str(packed)], 1, env_cache, warmup=False)
        extras["stdin"] = median_of([*TRT_WHY, "--format", "json", "-"], 1, env_cache, stdin_path=log, warmup=False)
        mid = generate(workdir, sizes[min(1, len(sizes) - 1)], Path(args.gen_log))
        copy = doubled_kb(workdir)
        for name, matcher in (("hyperscan", "hyperscan"), ("python", "python")):
            env = {**env_cache, "TRT_WHY_MATCHER": matcher, "TRT_WHY_JOBS": "1"}
            one = median_of([*TRT_WHY, "--format", "json", str(mid)], args.runs, env)
            two = median_of([*TRT_WHY, "--format", "json", "--kb", str(copy), str(mid)], args.runs, env)
            extras[f"kb x2 ({name})"] = {"one": one["wall"], "two": two["wall"], "ratio": two["wall"] / one["wall"],
                                         "cpu_ratio": two["cpu"] / one["cpu"]}
    text = render(rows, extras, startup)
    print()
    print(text)
    Path(args.results).write_text(text, encoding="utf-8")
    print(f"written to {args.results}")
    return 0


def fleet(count: int, workdir: Path) -> int:
    """`trt-why scan` over `count` small logs (the sample logs, copied round-robin into 100 job folders)."""
    farm = workdir / f"fleet-{count}"
    samples = sorted((ROOT / "sample_logs").glob("*.log"))
    if not farm.exists() or sum(1 for _ in farm.rglob("*.log")) != count:
        shutil.rmtree(farm, ignore_errors=True)
        for i in range(count):
            folder = farm / f"job{i % 100:03d}"
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(samples[i % len(samples)], folder / f"build{i:06d}.log")
    size = sum(p.stat().st_size for p in farm.rglob("*.log"))
    env = {"TRT_WHY_CACHE_DIR": str(workdir / "cache")}
    jobs = str(os.cpu_count() or 1)
    r = median_of([*TRT_WHY, "scan", str(farm), "--jobs", jobs, "--format", "jsonl", "--exit-zero"], 3, env)
    print(f"fleet: {count} logs ({size / 2**20:.0f} MiB) with --jobs {jobs}: {r['wall']:.1f} s wall "
          f"({count / r['wall']:.0f} logs/s), cpu {r['cpu']:.1f} s, peak RSS {r['rss']:.0f} MiB per process, "
          f"{r['tree_rss']:.0f} MiB all processes")
    return 0


def _print_row(row: dict) -> None:  # type: ignore[type-arg]
    rg = row["rg"]
    pairs = row["hyperscan"].get("pair_ratios") or []
    parts = [f"{row['size']:>5}: rg {rg['wall']:.2f}s"]
    if pairs:
        parts.append(f"paired rg/trt-why {statistics.median(pairs):.2f} (spread {pairs[0]:.2f}-{pairs[-1]:.2f}, "
                     f"{len(pairs)} pairs)")
    for k in ("hyperscan", "hyperscan-1core", "python"):
        r = row[k]
        parts.append(f"{k} {r['wall']:.2f}s (x{rg['wall'] / r['wall']:.2f}, {r['rss']:.0f}/{r['tree_rss']:.0f} MiB)")
    print("  ".join(parts), flush=True)


def render(rows: list[dict], extras: dict[str, dict[str, float]],  # type: ignore[type-arg]
           startup: dict[str, dict[str, float]] | None = None) -> str:
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            names = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
        cpu = f"{names[0]} x{len(names)}" if names else ""
    except OSError:
        pass
    out = [
        "# Scan benchmark",
        "",
        (f"`python benchmarks/bench_scan.py` on {platform.machine()}, {cpu}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}. Logs from `gen_log.py --seed 1`; page cache warm; median of several runs. "
        "Ratio = ripgrep wall time / trt-why wall time (above 1: trt-why is faster). Memory: peak RSS of the "
        "largest process / peak of all processes together (sum of PSS, sampled every 50 ms)."),
        "",
        ("| log | rg -c -f patterns.txt | trt-why --format json (Hyperscan) | same, one core | pure Python | "
        "ratio HS (paired: median, spread) | ratio HS 1 core | ratio Python |"),
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        rg = row["rg"]

        def cell(r: dict[str, float]) -> str:
            return f"{r['wall']:.2f} s (cpu {r['cpu']:.2f} s, {r['rss']:.0f}/{r['tree_rss']:.0f} MiB)"

        out.append(f"| {row['size']} | {rg['wall']:.2f} s (cpu {rg['cpu']:.2f} s) | {cell(row['hyperscan'])} | "
                   f"{cell(row['hyperscan-1core'])} | {cell(row['python'])} | "
                   f"{_paired(row)} | {rg['wall'] / row['hyperscan-1core']['wall']:.2f} | "
                   f"{rg['wall'] / row['python']['wall']:.2f} |")
    if startup and len(rows) > 1:
        out += ["", ("Scaling: CPU seconds per GiB above start-up (the same configuration on a one-line log: "
                     + ", ".join(f"{k} {v['cpu']:.2f} s" for k, v in startup.items())
                     + "). Linear time means the same figure at every size; at 10 MiB the work is a few "
                     "hundredths of a second, so that column is mostly noise. Large files are scanned on every "
                     "core from 96 MiB and count newlines with numpy from 512 MiB."), "",
                "| configuration | " + " | ".join(r["size"] for r in rows) + " |",
                "| --- |" + " --- |" * len(rows)]
        for k in ("hyperscan", "hyperscan-1core", "python"):
            rates = [(r[k]["cpu"] - startup[k]["cpu"]) / (r["bytes"] / 1024**3) for r in rows]
            out.append(f"| {k} | " + " | ".join(f"{x:.2f}" for x in rates) + " |")
    if extras:
        out += ["", "Other inputs and a doubled KB:", ""]
        for name, r in extras.items():
            if "ratio" in r:
                out.append(f"- {name}: {r['one']:.2f} s -> {r['two']:.2f} s with every signature twice "
                           f"(x{r['ratio']:.2f} wall, x{r['cpu_ratio']:.2f} cpu)")
            else:
                out.append(f"- {sizes_label(rows)} {name}: {r['wall']:.2f} s, peak RSS {r['rss']:.0f} MiB "
                           f"(all processes {r['tree_rss']:.0f} MiB)")
    return "\n".join(out) + "\n"


def _paired(row: dict) -> str:  # type: ignore[type-arg]
    """The ratio from the pairs run in turns: their median and spread (min-max), never a best run."""
    pairs = row["hyperscan"].get("pair_ratios") or []
    if not pairs:
        return f"{row['rg']['wall'] / row['hyperscan']['wall']:.2f}"
    return f"{statistics.median(pairs):.2f} ({pairs[0]:.2f}-{pairs[-1]:.2f}, {len(pairs)} pairs)"


def sizes_label(rows: list[dict]) -> str:  # type: ignore[type-arg]
    return rows[-1]["size"] if rows else ""


if __name__ == "__main__":
    sys.exit(main())
