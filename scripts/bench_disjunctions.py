"""The disjunctions engine against itself at an earlier commit, and with its compiled enumeration off: whole calls.

Each cell is one ``opt(C)`` on ``monotone-disjunctions n k`` (the implicit class past n = 12), in a fresh process,
for each of three solvers:

* **before**: the tree at ``--baseline`` (default ``24a8aa7``, before the engine's points were compiled, its states
  keyed by bliss, their forms kept and a split's smaller side built first), extracted with ``git archive``;
* **python**: this tree with ``LITTLESTONE_KERNEL=python`` (the points enumerated in Python, the rest as now);
* **now**: this tree as it runs by default.

The time is that of ``opt(C)`` alone (the class built before the clock starts), the median of ``--repeat`` processes
for each. All three must give the same value, or the bench prints MISMATCH and exits 1. A cell past ``--time-limit``
seconds shows the bounds it proved.

Usage::

    python scripts/bench_disjunctions.py [--cells 22:5,24:5,25:5,26:5] [--repeat 1] [--baseline REV]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = """
import json, sys, time
import solvers
from solvers.classes.spec import load_class
from solvers.opt import opt
n, k, limit = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
C = load_class({"family": "monotone-disjunctions", "params": {"n": n, "k": k}})
t = time.perf_counter()
r = opt(C, time_limit=limit)
print(json.dumps({"value": r.value, "lower": r.lower, "upper": r.upper, "seconds": time.perf_counter() - t,
                  "solvers": solvers.__file__}))
"""


def run(tree: Path, n: int, k: int, limit: float, mode: str | None = None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    if mode is not None:
        env["LITTLESTONE_KERNEL"] = mode
    out = subprocess.run([sys.executable, "-c", RUN, str(n), str(k), str(limit)], env=env, capture_output=True,
                         text=True, check=True, cwd=tree)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(r["solvers"]).resolve().is_relative_to(tree.resolve()), r["solvers"]  # the tree meant ran
    return r


def extract(rev: str, into: Path) -> Path:
    """The repository's tree at ``rev`` (its ``solvers`` and ``adversary`` packages), in ``into``."""
    archive = subprocess.run(["git", "archive", rev, "solvers", "adversary"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", default="22:5,24:5,25:5,26:5", help="n:k,... (default %(default)s)")
    ap.add_argument("--repeat", type=int, default=1, help="processes per cell and solver (default 1)")
    ap.add_argument("--baseline", default="24a8aa7", help="the earlier commit (default %(default)s)")
    ap.add_argument("--time-limit", type=float, default=1800.0, help="seconds per call (default %(default)s)")
    a = ap.parse_args(argv)
    cells = [tuple(int(v) for v in c.split(":")) for c in a.cells.split(",")]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        before = extract(a.baseline, Path(tmp))
        print(f"| cell | Opt | before ({a.baseline}) | python points | now | before / now | python / now |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for n, k in cells:
            got = {}
            for name, tree, mode in (("before", before, None), ("python", ROOT, "python"), ("now", ROOT, None)):
                rs = [run(tree, n, k, a.time_limit, mode) for _ in range(a.repeat)]
                got[name] = (statistics.median(r["seconds"] for r in rs), {(r["lower"], r["upper"]) for r in rs})
            bounds = set().union(*(b for _, b in got.values()))
            solved = {lo for lo, hi in bounds if lo == hi}
            if len(solved) > 1 or any(lo > v or hi < v for v in solved for lo, hi in bounds):
                bad = 1
                print(f"MISMATCH n={n} k={k}: {sorted(bounds)}")
            shown = "/".join(str(lo) if lo == hi else f"{lo}..{hi}" for lo, hi in sorted(bounds))
            t = {name: s for name, (s, _) in got.items()}
            print(f"| n={n} k={k} | {shown} | {t['before']:.2f} s | {t['python']:.2f} s | {t['now']:.2f} s | "
                  f"{t['before'] / t['now']:.1f}x | {t['python'] / t['now']:.1f}x |", flush=True)
    return bad


if __name__ == "__main__":
    sys.exit(main())
