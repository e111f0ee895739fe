"""Pipes and signals: a writer that dies, a reader that leaves early, Ctrl+C, a 1 GB stream.

Real processes on purpose (rel_helpers.popen / trt_why): pipes, closed descriptors, signals and the exit
status a shell sees exist only there. Each waits on a timeout, which is a hang guard, not a speed check.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from rel_helpers import (
    NOISE_LINE,
    OOM_ID,
    OOM_LINE_NO,
    OOM_LOG,
    ROOT,
    _default_sigint,
    child_env,
    cli_cmd,
    popen,
    proc_field,
    rss_kib,
)

from troubleshooter import exit_codes


def _no_traceback(err: bytes) -> str:
    text = err.decode("utf-8", "replace")
    assert "Traceback" not in text, text
    assert "Exception ignored" not in text, text
    return text


# -- stdin ---------------------------------------------------------------------------------------------

WRITER = (
    "import os, sys\n"
    "out = sys.stdout.buffer\n"
    "out.write(open({path!r}, 'rb').read())\n"
    "out.flush()\n"
    "os.kill(os.getpid(), 9)\n"  # dies mid-stream, no clean close
)


def test_stdin_writer_killed_mid_stream(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`producer | trt-why -` where the producer is killed: what arrived is diagnosed."""
    data = tmp_path / "part.log"
    data.write_text(NOISE_LINE * 2000 + OOM_LOG + "[11/22/2024-13:40:09] [I] half a li")
    writer = subprocess.Popen([sys.executable, "-c", WRITER.format(path=str(data))], stdout=subprocess.PIPE)
    assert writer.stdout is not None
    reader = popen("-", "--format", "json", stdin=writer.stdout)
    writer.stdout.close()
    out, err = reader.communicate(timeout=120)
    writer.wait(timeout=30)
    assert writer.returncode == -9
    _no_traceback(err)
    assert reader.returncode == exit_codes.FOUND, err
    report = json.loads(out)
    assert report["diagnoses"][0]["id"] == OOM_ID
    assert report["diagnoses"][0]["evidence"][0]["line"] == 2000 + OOM_LINE_NO


def test_stdin_writer_dies_before_writing() -> None:
    writer = subprocess.Popen([sys.executable, "-c", "import os; os.kill(os.getpid(), 9)"], stdout=subprocess.PIPE)
    assert writer.stdout is not None
    reader = popen("-", stdin=writer.stdout)
    writer.stdout.close()
    _out, err = reader.communicate(timeout=60)
    text = _no_traceback(err)
    assert reader.returncode == exit_codes.ERROR and "empty" in text and text.count("\n") == 1


def test_stdin_is_a_closed_descriptor() -> None:
    """`trt-why - <&-`: no stdin at all."""
    result = subprocess.run(["sh", "-c", f"exec {sys.executable} -m troubleshooter.cli - <&-"], capture_output=True,
                            timeout=60, env=child_env(), cwd=str(ROOT))
    text = _no_traceback(result.stderr)
    assert result.returncode == exit_codes.ERROR and text.startswith("trt-why: "), text


# -- stdout --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_stdout_closed_early_by_head(fmt: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "build.log"
    path.write_text(NOISE_LINE * 100 + OOM_LOG)
    cmd = " ".join(cli_cmd("-v", "--format", fmt, str(path))) + " | head -1"
    result = subprocess.run(["sh", "-c", cmd], capture_output=True, timeout=60, env=child_env(), cwd=str(ROOT))
    _no_traceback(result.stderr)
    assert result.stdout.count(b"\n") == 1


def test_stdout_closed_before_anything_is_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """No traceback, and the exit status does not depend on the reader: FOUND, as with a reader."""
    path = tmp_path / "build.log"
    path.write_text(OOM_LOG)
    proc = popen("-v", str(path))
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    _no_traceback(err)
    assert proc.returncode == exit_codes.FOUND


# -- Ctrl+C --------------------------------------------------------------------------------------------

def _slow_log(tmp_path, lines: int = 200_000) -> str:  # type: ignore[no-untyped-def]
    """Distinct error lines: each one goes through the matcher, so the scan takes a while (CPU-bound)."""
    path = tmp_path / "errors.log"
    with open(path, "w") as fh:
        fh.writelines(f"[11/22/2024-13:40:08] [E] [TRT] 10: Could not find any implementation for node "
                     f"/model.{i}/conv/Conv + /model.{i}/act/Relu.\n" for i in range(lines))
    return str(path)


def _wchan(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/wchan", encoding="ascii") as fh:
            return fh.read().strip()
    except OSError:
        return ""


def _blocked_reading_a_pipe(pid: int) -> bool:
    """The process sleeps in a pipe/FIFO read (kernel names: pipe_read, anon_pipe_read, older pipe_wait)."""
    wchan = _wchan(pid)
    return "pipe_read" in wchan or wchan == "pipe_wait"


def _unread(pipe) -> int:  # type: ignore[no-untyped-def]
    """Bytes written into a pipe/FIFO that its reader has not read yet."""
    import fcntl
    import struct
    import termios

    return int(struct.unpack("i", fcntl.ioctl(pipe.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0])


def _has_open(pid: int, path: str) -> bool:
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == path:
                return True
        except OSError:
            pass
    return False


def _stdin_offset(pid: int) -> int:
    return proc_field(pid, "fdinfo/0", "pos:")


def _wait_until(proc: subprocess.Popen[bytes], ready, fallback: float) -> None:  # type: ignore[no-untyped-def]
    """Until `ready()` says the process reached the state the test interrupts (read from /proc, so the
    signal lands there on a fast or a loaded machine alike), or it exited. Without /proc: `fallback` s."""
    if not os.path.isdir(f"/proc/{proc.pid}"):
        time.sleep(fallback)
        return
    deadline = time.monotonic() + 60  # a hang guard, not a speed figure
    while proc.poll() is None and not ready():
        assert time.monotonic() < deadline, "the process never reached the state to interrupt"
        time.sleep(0.01)


def _interrupt_when(proc: subprocess.Popen[bytes], ready, fallback: float) -> tuple[bytes, bytes]:  # type: ignore[no-untyped-def]
    _wait_until(proc, ready, fallback)
    if proc.poll() is not None:
        pytest.skip("the scan finished before it could be interrupted (a very fast machine)")
    proc.send_signal(signal.SIGINT)
    return proc.communicate(timeout=30)


def test_ctrl_c_mid_scan_of_a_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log = _slow_log(tmp_path)
    proc = popen(log)
    out, err = _interrupt_when(proc, lambda: _has_open(proc.pid, log), 2.5)  # opened: the scan starts
    text = _no_traceback(err)
    assert proc.returncode == exit_codes.INTERRUPTED, text
    assert text == "trt-why: interrupted\n"
    assert out == b""


def test_ctrl_c_mid_scan_of_stdin(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with open(_slow_log(tmp_path), "rb") as fh:
        proc = popen("-", stdin=fh)
        _out, err = _interrupt_when(proc, lambda: _stdin_offset(proc.pid) > 0, 2.5)  # reading has begun
    text = _no_traceback(err)
    assert proc.returncode == exit_codes.INTERRUPTED, text


def test_ctrl_c_while_a_fifo_writer_stalls(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A named pipe given as the log path: half a log, then the writer stalls; Ctrl+C mid-read."""
    fifo = tmp_path / "build.log"
    os.mkfifo(fifo)
    proc = popen(str(fifo))
    with open(fifo, "wb") as writer:
        writer.write((NOISE_LINE * 1000).encode())
        writer.flush()
        # Read all of it, and waits for more:
        _wait_until(proc, lambda: _unread(writer) == 0 and _blocked_reading_a_pipe(proc.pid), 1.5)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    _no_traceback(err)
    assert proc.returncode == exit_codes.INTERRUPTED


def test_ctrl_c_while_waiting_for_stdin() -> None:
    """`trt-why` reading a terminal/pipe that never sends anything: Ctrl+C ends it cleanly."""
    proc = popen("-", stdin=subprocess.PIPE)
    _wait_until(proc, lambda: _blocked_reading_a_pipe(proc.pid), 2.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    _no_traceback(err)
    assert proc.returncode == exit_codes.INTERRUPTED


PARALLEL_RUN = (
    "import sys\n"
    "from troubleshooter.reading import parallel\n"
    "# a small file scanned in parts on two processes, as a file of 96 MiB and more is\n"
    "parallel.PARALLEL_MIN_BYTES = parallel.PART_MIN_BYTES = parallel.CHUNK_BYTES = 64 * 1024\n"
    "sys.argv = ['trt-why', *{args!r}]\n"
    "from troubleshooter.cli import entry\n"  # what the `trt-why` console script runs
    "entry()\n"
)


def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                found += [int(c) for c in fh.read().split()]
    except OSError:
        pass
    return found


def _group(pgid: int) -> list[int]:
    """The live processes of a process group (from /proc: state and group after the command's name)."""
    members = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry))
    return members


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a large file is scanned in parts on Linux only")
def test_ctrl_c_mid_parallel_scan_stops_every_process(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Ctrl+C reaches the whole foreground process group, the scanning workers included: one line, exit 130,
    no traceback from any worker, and no worker left behind."""
    log = _slow_log(tmp_path)
    proc = subprocess.Popen([sys.executable, "-c", PARALLEL_RUN.format(args=[log])], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=child_env({"TRT_WHY_JOBS": "2"}), cwd=str(ROOT),
                            start_new_session=True,  # its own group, as a terminal's foreground job
                            preexec_fn=_default_sigint)  # as a terminal hands it (a background job's SIGINT is ignored)
    _wait_until(proc, lambda: bool(_children(proc.pid)), 3.0)  # the workers are forked: the scan is on
    if proc.poll() is not None:
        pytest.skip("the scan finished before it could be interrupted (a very fast machine)")
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == exit_codes.INTERRUPTED, err
    assert _no_traceback(err) == "trt-why: interrupted\n" and out == b""
    assert _group(proc.pid) == []


POOL_START_INTERRUPT = (
    "import os, signal\n"
    "import multiprocessing.context as mpc\n"
    "# Ctrl+C while the pool starts its workers (SIGINT is held then): it lands as the mask is lifted\n"
    "start = mpc.BaseContext.Pool\n"
    "def pool(self, *args, **kwargs):\n"
    "    started = start(self, *args, **kwargs)\n"
    "    os.kill(os.getpid(), signal.SIGINT)\n"
    "    return started\n"
    "mpc.BaseContext.Pool = pool\n"
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a large file is scanned in parts on Linux only")
def test_ctrl_c_while_the_pool_starts_closes_the_pool(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The interrupt held while the workers are forked lands when the pool is up but before any task: the pool is
    closed and joined as after Ctrl+C mid-scan (it was left to the interpreter's exit, which killed the workers and
    could hang - the fresh-clone run's timeout in test_ctrl_c_mid_parallel_scan_stops_every_process)."""
    log = _slow_log(tmp_path, lines=20_000)
    proc = subprocess.Popen([sys.executable, "-c", POOL_START_INTERRUPT + PARALLEL_RUN.format(args=[log])],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env({"TRT_WHY_JOBS": "2"}),
                            cwd=str(ROOT), start_new_session=True, preexec_fn=_default_sigint)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == exit_codes.INTERRUPTED, err
    assert _no_traceback(err) == "trt-why: interrupted\n" and out == b""
    assert _group(proc.pid) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a large file is scanned in parts on Linux only")
def test_parallel_scan_into_a_closed_pipe(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The reader of a file scanned in parts leaves before the report: no traceback, the verdict's status."""
    log = tmp_path / "build.log"
    log.write_text(NOISE_LINE * 20_000 + OOM_LOG)
    proc = subprocess.Popen([sys.executable, "-c", PARALLEL_RUN.format(args=["-v", str(log)])], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=child_env({"TRT_WHY_JOBS": "2"}), cwd=str(ROOT))
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert _no_traceback(err) == ""
    assert proc.returncode == exit_codes.FOUND


STARTUP_INTERRUPT = (
    "import sys\n"
    "class Interrupt:\n"
    "    # Ctrl+C landing while the package imports its dependencies (the first ~0.3 s of every run)\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name == 'regex':\n"
    "            raise KeyboardInterrupt\n"
    "        return None\n"
    "sys.meta_path.insert(0, Interrupt())\n"
    "sys.argv = ['trt-why', {log!r}]\n"
    "from troubleshooter.cli import main\n"  # what the `trt-why` console script runs
    "sys.exit(main())\n"
)


def test_ctrl_c_during_startup(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "build.log"
    log.write_text(OOM_LOG)
    result = subprocess.run([sys.executable, "-c", STARTUP_INTERRUPT.format(log=str(log))], capture_output=True,
                            timeout=60, env=child_env(), cwd=str(ROOT))
    _no_traceback(result.stderr)
    assert result.returncode == exit_codes.INTERRUPTED


# -- a 1 GB log -------------------------------------------------------------------------------------------

GIB = 1 << 30


@pytest.mark.slow
def test_one_gigabyte_on_stdin_memory_stays_flat() -> None:
    """Stream 1 GiB of realistic lines (error at the end) into `trt-why -`, for at most BUDGET seconds.

    Either the scan finishes (the error is found on the right line) or it is interrupted with Ctrl+C
    (exit 130): in both cases the process never holds more than a bounded amount of memory.
    """
    budget = 25.0
    block = (NOISE_LINE * ((1 << 20) // len(NOISE_LINE))).encode()
    blocks = GIB // len(block)
    proc = popen("-", "--format", "json", stdin=subprocess.PIPE)
    assert proc.stdin is not None
    sent = [0]

    def feed() -> None:
        try:
            for _ in range(blocks):
                proc.stdin.write(block)  # type: ignore[union-attr]
                sent[0] += len(block)
            proc.stdin.write(OOM_LOG.encode())  # type: ignore[union-attr]
            proc.stdin.close()  # type: ignore[union-attr]
        except (BrokenPipeError, ValueError, OSError):
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    start = time.monotonic()
    peak = 0
    while proc.poll() is None and time.monotonic() - start < budget:
        peak = max(peak, rss_kib(proc.pid))
        time.sleep(0.2)
    proc.stdin = None  # the writer thread owns it (communicate() would flush it)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        _no_traceback(err)
        assert proc.returncode == exit_codes.INTERRUPTED
        assert sent[0] > 8 << 20, "the scan did not make progress"
    else:
        out, err = proc.communicate(timeout=60)
        _no_traceback(err)
        report = json.loads(out)
        assert report["source"]["bytes"] >= GIB - len(block)
        assert report["diagnoses"][0]["id"] == OOM_ID
        assert report["diagnoses"][0]["evidence"][0]["line"] == blocks * (len(block) // len(NOISE_LINE)) + 3
    writer.join(timeout=30)
    assert peak < 400 * 1024, f"peak RSS {peak} KiB while streaming"
