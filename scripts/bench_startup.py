"""Benchmark the command line's start-up: how long ``littlestone --version``, ``--help``, ``families`` and
``learners`` take, each in a fresh process, against ``python -c "import numpy"`` (the floor any command
that reads a class pays).

Each figure is the median wall time of ``--repeat`` runs (default 15), the commands interleaved so that
a change in the machine's load touches them all alike. The commands run as ``python -m adversary`` with
this checkout first on ``PYTHONPATH`` (the code of this folder, not an installed copy). The target of
issue 18: ``--version``, ``--help`` and ``families`` under 0.4 s.

Usage::

    python scripts/bench_startup.py [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: name -> the arguments of ``python`` that run it.
COMMANDS = {
    'python -c "import numpy"': ["-c", "import numpy"],
    "littlestone --version": ["-m", "adversary", "--version"],
    "littlestone --help": ["-m", "adversary", "--help"],
    "littlestone families": ["-m", "adversary", "families"],
    "littlestone learners": ["-m", "adversary", "learners"],
}
TARGET = 0.4  # seconds, for --version, --help and families


def run_once(args: list) -> float:
    """Wall time of ``python ARGS`` in a fresh process (output discarded); raises if it fails."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    t0 = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def bench(repeat: int) -> dict:
    """name -> the median seconds of ``repeat`` runs (the commands interleaved, after one warm-up each)."""
    times: dict = {name: [] for name in COMMANDS}
    for args in COMMANDS.values():
        run_once(args)  # warm the file cache
    for _ in range(repeat):
        for name, args in COMMANDS.items():
            times[name].append(run_once(args))
    return {name: statistics.median(ts) for name, ts in times.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=15, help="runs of each command (default 15)")
    ap.add_argument("--json", action="store_true", help="print one JSON object {command: median seconds}")
    args = ap.parse_args(argv)
    medians = bench(max(1, args.repeat))
    if args.json:
        print(json.dumps({k: round(v, 4) for k, v in medians.items()}))
        return 0
    floor = medians['python -c "import numpy"']
    print(f"median of {args.repeat} fresh processes each ({sys.executable}, {os.cpu_count()} CPUs)")
    print(f"{'command':<28}{'seconds':>9}{'x numpy':>9}")
    for name, t in medians.items():
        print(f"{name:<28}{t:>9.3f}{t / floor:>9.2f}")
    slow = [n for n in ("littlestone --version", "littlestone --help", "littlestone families") if medians[n] >= TARGET]
    print(f"target: --version, --help and families under {TARGET} s: " + ("met" if not slow else f"missed by {', '.join(slow)}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
