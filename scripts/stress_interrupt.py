"""Send Ctrl-C (or SIGTERM) to a ``littlestone`` command at many instants of its run and count the hangs.

Each try starts the command in a process group of its own, waits for an event (a number of seconds, a
line on stdout or stderr matching a pattern), waits a random delay more, sends the signal to the whole
group (as a terminal's Ctrl-C does) and measures how long the command takes to exit. A command still
running ``--hang`` seconds after the signal counts as a hang: its stderr, with its Python stacks
(faulthandler, on SIGABRT), is shown, then it is killed. At the end: the latencies (min, median, 90 %, max), the exit
codes, the rows the interrupted runs printed, and the hangs.

Usage::

    python scripts/stress_interrupt.py [--tries 40] [--at 9:11] [--hang 30] [--signal INT|TERM] [--second S]
                                       [--event REGEX [--delay 0:2]] [--fresh-store] [-- littlestone arguments ...]

Without arguments after ``--`` the command is the one of issue 18::

    littlestone table disjunctions k=3 --grid n=5,6,7,12,13 --quiet --format csv --jobs 1 --no-store

``--at A:B`` sends the signal a uniformly random A..B seconds after the start; ``--event REGEX`` waits for
the first line of output matching REGEX instead, then a random ``--delay`` (seconds, A:B). ``--second S``
sends a second signal S seconds after the first (a user pressing Ctrl-C twice). The command runs with
this checkout on PYTHONPATH (``python -m adversary``).

Examples::

    python scripts/stress_interrupt.py --tries 40
    python scripts/stress_interrupt.py --tries 20 --at 0.5:4 -- opt disjunctions n=12 k=3 --quiet
    python scripts/stress_interrupt.py --tries 10 --event 'n=7' --delay 0:3 --second 0.2
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["table", "disjunctions", "k=3", "--grid", "n=5,6,7,12,13", "--quiet", "--format", "csv", "--jobs", "1",
           "--no-store"]


def _span(text: str) -> tuple[float, float]:
    a, _, b = text.partition(":")
    lo = float(a)
    hi = float(b) if b else lo
    if hi < lo:
        raise argparse.ArgumentTypeError(f"{text!r}: write the smaller end first")
    return lo, hi


class Run:
    """One run of the command: its output lines (with the instant each came), read by two threads."""

    def __init__(self, argv: list[str], store: str | None = None):
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               "PYTHONFAULTHANDLER": "1", **({"LITTLESTONE_STORE": store} if store else {})}
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen([sys.executable, "-m", "adversary", *argv], cwd=ROOT, env=env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        self.out: list[tuple[float, str]] = []
        self.err: list[tuple[float, str]] = []
        self.new_line = threading.Condition()
        self.readers = [threading.Thread(target=self._read, args=(s, box), daemon=True)
                        for s, box in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for t in self.readers:
            t.start()

    def _read(self, stream, box) -> None:
        for line in stream:
            with self.new_line:
                box.append((time.monotonic(), line.rstrip("\n")))
                self.new_line.notify_all()
        with self.new_line:
            self.new_line.notify_all()

    def wait_for(self, pattern: re.Pattern, timeout: float) -> bool:
        """Wait until a line of stdout or stderr matches ``pattern`` (False: the command ended or timed out)."""
        end = time.monotonic() + timeout
        seen = 0
        with self.new_line:
            while True:
                lines = [line for _, line in self.out + self.err]
                if any(pattern.search(line) for line in lines[seen:]):
                    return True
                seen = len(lines)
                if self.proc.poll() is not None or time.monotonic() >= end:
                    return False
                self.new_line.wait(0.1)

    def signal(self, signum: int) -> None:
        try:
            os.killpg(self.proc.pid, signum)
        except ProcessLookupError:
            pass

    def finish(self, hang: float) -> tuple[int | None, list[str]]:
        """Wait ``hang`` seconds for the command to end: (exit code, []) or (None, its stacks) on a hang."""
        try:
            self.proc.wait(timeout=hang)
            self.ended = time.monotonic()
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGABRT)  # faulthandler prints every thread's stack
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.signal(signal.SIGKILL)
                self.proc.wait()
            for t in self.readers:
                t.join(5)
            return None, [line for _, line in self.err]
        for t in self.readers:
            t.join(5)
        return self.proc.returncode, []


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tries", type=int, default=40)
    p.add_argument("--at", type=_span, default=(9.0, 11.0), metavar="A:B",
                   help="seconds after the start to send the signal (default 9:11)")
    p.add_argument("--event", metavar="REGEX", help="send it after the first output line matching REGEX instead")
    p.add_argument("--delay", type=_span, default=(0.0, 0.0), metavar="A:B",
                   help="with --event: a random delay after the event (default 0)")
    p.add_argument("--hang", type=float, default=30.0, help="seconds after the signal that count as a hang (30)")
    p.add_argument("--signal", choices=("INT", "TERM"), default="INT")
    p.add_argument("--second", type=float, metavar="S", help="send a second signal S seconds after the first")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--fresh-store", action="store_true",
                   help="give each try an empty results store of its own ($LITTLESTONE_STORE in a temporary folder)")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- then the littlestone arguments")
    args = p.parse_args(argv)
    # A shell starts a background job (`... &`) with SIGINT ignored, and so would its children be: they
    # would not stop on Ctrl-C at all. Caught here, SIGINT is the default again in every command started.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    command = [a for a in args.command if a != "--"] or DEFAULT
    signum = getattr(signal, "SIG" + args.signal)
    expected = 128 + signum
    rng = random.Random(args.seed)
    pattern = re.compile(args.event) if args.event else None
    print(f"littlestone {' '.join(command)}: SIG{args.signal} "
          + (f"after /{args.event}/ + {args.delay[0]:g}..{args.delay[1]:g} s" if pattern else
             f"{args.at[0]:g}..{args.at[1]:g} s in")
          + (f", again {args.second:g} s later" if args.second is not None else "")
          + f"; a hang: still running {args.hang:g} s after", flush=True)
    latencies, codes, rows, hangs = [], Counter(), Counter(), []
    folder = tempfile.TemporaryDirectory(prefix="stress-interrupt-") if args.fresh_store else None
    for i in range(args.tries):
        run = Run(command, None if folder is None else os.path.join(folder.name, f"try{i}.db"))
        if pattern is not None:
            if not run.wait_for(pattern, 300):
                run.signal(signal.SIGKILL)
                run.proc.wait()
                print(f"{i:3d}: the event /{args.event}/ never came (exit {run.proc.returncode})", flush=True)
                codes["no event"] += 1
                continue
            delay = rng.uniform(*args.delay)
        else:
            delay = max(rng.uniform(*args.at) - (time.monotonic() - run.t0), 0.0)
        time.sleep(delay)
        if run.proc.poll() is not None:
            print(f"{i:3d}: ended before the signal (exit {run.proc.returncode})", flush=True)
            codes["ended before"] += 1
            continue
        sent = time.monotonic()
        run.signal(signum)
        if args.second is not None:
            try:
                run.proc.wait(timeout=args.second)
            except subprocess.TimeoutExpired:
                run.signal(signum)
        code, stacks = run.finish(args.hang)
        at = sent - run.t0
        if code is None:
            hangs.append((i, at, stacks))
            codes["hang"] += 1
            print(f"{i:3d}: signal at {at:6.2f} s: HANG (> {args.hang:g} s); stacks:", flush=True)
            for line in stacks[-60:]:
                print("       " + line, flush=True)
            continue
        latency = run.ended - sent
        latencies.append(latency)
        codes[code] += 1
        printed = sum(1 for t, _ in run.out if t < sent)
        rows[len(run.out)] += 1
        last = run.err[-1][1] if run.err else ""
        print(f"{i:3d}: signal at {at:6.2f} s: exit {code} after {latency:5.2f} s, {len(run.out)} stdout lines "
              f"({printed} before the signal); {last[:90]}", flush=True)
    print()
    if latencies:
        q = sorted(latencies)
        print(f"latency (s) over {len(q)} runs: min {q[0]:.2f}, median {statistics.median(q):.2f}, "
              f"90% {q[int(0.9 * (len(q) - 1))]:.2f}, max {q[-1]:.2f}")
    print(f"exit codes: {dict(codes)} (expected {expected})")
    print(f"stdout lines per run: {dict(sorted(rows.items()))}")
    print(f"hangs: {len(hangs)} of {args.tries}" + (f" (signal at {', '.join(f'{a:.1f}' for _, a, _ in hangs)} s)"
                                                   if hangs else ""))
    bad = len(hangs) + sum(n for c, n in codes.items() if isinstance(c, int) and c != expected)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
