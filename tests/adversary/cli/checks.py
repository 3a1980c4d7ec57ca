"""Helpers shared by the tests of :mod:`adversary.cli`: run the CLI in-process or in a subprocess, and
check the shape of its one-line errors."""

import itertools
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from adversary.cli import main

ROOT = Path(__file__).resolve().parents[3]
# A background process may inherit SIGINT ignored; restore Python's handler (what a terminal gives).
RUN_MAIN = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from adversary.cli import main; sys.exit(main())")
posix = pytest.mark.skipif(os.name != "posix", reason="sends signals")


# ------------------------------------------------------------------------------------------ in-process
def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(code, out, err, *, contains=None):
    """Exit 2, nothing on stdout, exactly one stderr line ``littlestone: error: ...``, no traceback."""
    assert code == 2, (code, out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("littlestone: error: "), err
    assert out == ""
    if contains is not None:
        assert contains.lower() in lines[0].lower(), lines[0]
    return lines[0]


def one_error_line(code, err, *, contains=()):
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("littlestone: error: "), err
    for word in contains:
        assert word in lines[0], lines[0]
    return lines[0]


def field(out: str, key: str) -> str:
    """The value of a ``key: value`` line of the human output (opt, attack)."""
    for line in out.splitlines():
        if line.startswith(key + ":"):
            return line[len(key) + 1:].strip()
    raise AssertionError(f"no {key!r} line in {out!r}")


def monotone_disjunctions(n: int, k: int) -> np.ndarray:
    """OR of at most k of n variables over {0,1}^n: a class the solver cannot finish in a second."""
    X = np.array(list(itertools.product([0, 1], repeat=n)), dtype=bool)
    rows = [X[:, list(S)].any(axis=1) if S else np.zeros(len(X), dtype=bool)
            for r in range(k + 1) for S in itertools.combinations(range(n), r)]
    return np.array(rows)


def nested(n: int) -> str:
    return "[" * n + "]" * n


# ------------------------------------------------------------------------------------------ subprocesses
def executable():
    """The installed console script of this environment (or on PATH)."""
    sibling = Path(sys.executable).with_name("littlestone")
    if sibling.exists():
        return str(sibling)
    return shutil.which("littlestone")


def run_cli(*argv):
    return subprocess.run([sys.executable, "-m", "adversary", *map(str, argv)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def assert_one_clean_line(r):
    assert r.returncode in (1, 2), (r.returncode, r.stdout[:300], r.stderr[:300])
    lines = (r.stdout + r.stderr).strip().splitlines()
    assert len(lines) == 1, lines[:5]
    for word in ("RecursionError", "Traceback", "internal error"):
        assert word not in lines[0]
    assert len(lines[0]) < 500, lines[0][:600]
    return lines[0]


def run_bounded(*argv, gb: float = 3.0, limit: float = 120.0):
    """The CLI in a subprocess whose address space is capped at ``gb`` GB (``ulimit -v``), so that a run that
    would take the machine's memory fails instead; one still running after ``limit`` seconds (a hang, however
    loaded the machine) is killed and fails the test. Returns (exit code, stdout, stderr)."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (int(gb * 2**30), int(gb * 2**30)))

    try:
        r = subprocess.run([sys.executable, "-c", RUN_MAIN, *map(str, argv)], cwd=ROOT, capture_output=True,
                           text=True, timeout=limit, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {limit} s: littlestone {' '.join(map(str, argv))}")
    return r.returncode, r.stdout, r.stderr


def start(*argv, cwd=ROOT):
    """The CLI in a new process group (so that a signal reaches it and its workers, as from a terminal)."""
    return subprocess.Popen([sys.executable, "-c", RUN_MAIN, *map(str, argv)], cwd=cwd, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stop(p, sig, *, to_group: bool, timeout: float = 60.0):
    """Send ``sig``; return (exit code, stdout, stderr, seconds until it ended). A command still running
    ``timeout`` seconds after the signal fails the test: generous, so that a loaded machine never does,
    while a hang always does."""
    t = time.monotonic()
    if to_group:
        os.killpg(p.pid, sig)
    else:
        p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"still running {timeout} s after the signal")
    return p.returncode, out, err, time.monotonic() - t


def partial(path: Path) -> Path:
    """Where a table written with ``-o path`` streams its rows while the run goes on (renamed to ``path`` at its end)."""
    return path.with_name(path.name + ".partial")


def wait_for_text(path: Path, pattern: str, limit: float = 30.0, *, lines: int = 0) -> None:
    """Wait until the rows streamed for ``-o path`` match the regular expression ``pattern`` (multi-line) and
    are at least ``lines`` lines."""
    import re

    t = time.monotonic()
    while time.monotonic() - t < limit:
        try:
            text = partial(path).read_text()
            if len(text.splitlines()) >= lines and re.search(pattern, text, re.MULTILINE):
                return
        except FileNotFoundError:  # not yet (or already renamed into place)
            pass
        time.sleep(0.05)
    pytest.fail(f"{partial(path)} did not match {pattern!r} in {lines} lines or more in {limit} s")


def wait_for_rows(path: Path, n: int, limit: float = 30.0) -> None:
    """Wait until the rows streamed for ``-o path`` are a header and ``n`` rows (a line each)."""
    wait_for_text(path, "", limit, lines=n + 1)


class Watched:
    """The CLI in a subprocess of its own process group (a signal reaches it and its workers, as from a
    terminal), its stdout and stderr read line by line as they come: a test waits for the event it is about
    (a row, a progress line) instead of a fixed time, and sends the signal then."""

    def __init__(self, *argv, cwd=ROOT, env=None):
        self.proc = subprocess.Popen([sys.executable, "-c", RUN_MAIN, *map(str, argv)], cwd=cwd, env=env,
                                     start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.out: list = []
        self.err: list = []
        self._news = threading.Condition()
        self._readers = [threading.Thread(target=self._read, args=(s, box), daemon=True)
                         for s, box in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for t in self._readers:
            t.start()

    def _read(self, stream, box) -> None:
        for line in stream:
            with self._news:
                box.append(line.rstrip("\n"))
                self._news.notify_all()
        with self._news:
            self._news.notify_all()

    def wait_for(self, pattern: str, *, stream: str = "out", limit: float = 120.0) -> None:
        """Wait until a line of stdout (``stream="err"``: stderr) matches the regular expression ``pattern``;
        fail the test if the command ends first or ``limit`` seconds pass."""
        import re

        box = self.out if stream == "out" else self.err
        end = time.monotonic() + limit
        with self._news:
            while not any(re.search(pattern, line) for line in box):
                if self.proc.poll() is not None and not any(t.is_alive() for t in self._readers):
                    pytest.fail(f"ended (exit {self.proc.returncode}) before a line matching {pattern!r}: "
                                f"{(self.out + self.err)[-5:]}")
                if time.monotonic() >= end:
                    self.kill()
                    pytest.fail(f"no line matching {pattern!r} within {limit} s")
                self._news.wait(0.1)

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def stop(self, sig, *, to_group: bool = True, again: float | None = None, limit: float = 60.0):
        """Send ``sig`` (and once more ``again`` seconds later, if still running); return (exit code, stdout
        lines, stderr text, the stdout lines printed before the signal). A command still running ``limit``
        seconds after the signal fails the test (a hang), however loaded the machine."""
        with self._news:
            before = list(self.out)
        send = (lambda: os.killpg(self.proc.pid, sig)) if to_group else (lambda: self.proc.send_signal(sig))
        send()
        if again is not None:
            try:
                self.proc.wait(timeout=again)
            except subprocess.TimeoutExpired:
                send()
        try:
            self.proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"still running {limit} s after the signal")
        for t in self._readers:
            t.join(10)
        return self.proc.returncode, list(self.out), "\n".join(self.err), before


def tamper_store(sql: str) -> None:
    """Run ``sql`` on the test's own results store (``$LITTLESTONE_STORE``), committed: a row changed by hand."""
    import sqlite3

    db = sqlite3.connect(os.environ["LITTLESTONE_STORE"])
    db.execute(sql)
    db.commit()
    db.close()
