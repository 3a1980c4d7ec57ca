"""Benchmark the exact adversary (``adversary.attack.attack(..., strategy="exact")``) on a fixed list of cases.

Each case is a learner on a finite class; the script runs the exact search (the true worst case, or a
cycle), checks that the witness verifies (``attack`` always re-verifies it), and prints one Markdown
row per case: the worst case found, the learner's proven bound for the class, Opt(C), the verdict,
the seconds of the search alone (Opt excluded), the positions searched and the learner states met.

Baseline: for the learners the exact strategy searches per target (Winnow, the Perceptron, the
elimination algorithms; see ``adversary/strategies/exact.py``), the same case is also run with
``ExactStrategy(mode="version-space")``, the search over (learner state, version space) that was the
exact strategy before the per-target search, capped at ``--baseline-limit`` seconds; the last column
is the ratio of the two times, measured in this one run (">" when the baseline hit its cap).

The headline target of issue 4: Winnow2 ([15-859B]) on monotone-disjunctions n=5 k=2 in under 10 s;
its row is marked ``TARGET`` and the exit status is 1 if it takes longer (or does not finish).

Timing: ``time.perf_counter`` around the search (``stats["runs"][0]["seconds"]``), one run per case,
in this process.

Usage::

    python scripts/bench_attack.py [--quick] [--only SUBSTRING] [--time-limit S] [--csv FILE]

References
----------
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
"""

from __future__ import annotations

import argparse
import csv
import math
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adversary.attack import attack  # noqa: E402
from adversary.referee import verify_witness  # noqa: E402
from solvers.classes.families import make  # noqa: E402

TARGET_SECONDS = 10.0
TARGET = ("winnow2", "monotone-disjunctions", {"n": 5, "k": 2})

# (learner, family, params). The quick list runs in a few seconds.
QUICK = [
    ("halving", "thresholds", {"N": 15}),
    ("soa", "intervals", {"N": 6}),
    ("con", "singletons", {"N": 6}),
    ("elim", "disjunctions", {"n": 2}),
    ("conjunction-elimination", "monotone-conjunctions", {"n": 3}),
    ("winnow1", "monotone-disjunctions", {"n": 4, "k": 1}),
    ("winnow2", "monotone-disjunctions", {"n": 3, "k": 1}),
    ("winnow2", "monotone-disjunctions", {"n": 4, "k": 2}),
    ("perceptron", "monotone-disjunctions", {"n": 2, "k": 1}),
]
FULL = QUICK + [
    ("halving", "monotone-disjunctions", {"n": 4, "k": 2}),
    ("winnow1", "monotone-disjunctions", {"n": 5, "k": 2}),
    ("winnow-r", "monotone-disjunctions", {"n": 4, "k": 2}),
    ("winnow-k-of-r", "k-of-r", {"n": 4, "r": 2, "k": 1}),
    ("balanced-winnow", "monotone-disjunctions", {"n": 3, "k": 1}),
    TARGET,
    ("winnow2", "monotone-disjunctions", {"n": 5, "k": 1}),
    ("winnow1", "monotone-disjunctions", {"n": 6, "k": 2}),
    ("winnow2", "monotone-disjunctions", {"n": 6, "k": 2}),
    ("winnow2", "monotone-disjunctions", {"n": 7, "k": 2}),
    ("winnow1", "monotone-disjunctions", {"n": 8, "k": 2}),
    ("winnow2", "monotone-disjunctions", {"n": 8, "k": 1}),
    ("winnow2", "monotone-disjunctions", {"n": 8, "k": 2}),
    ("winnow1", "monotone-disjunctions", {"n": 10, "k": 2}),
]


def _num(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return "inf" if math.isinf(v) else (str(int(v)) if v.is_integer() else f"{v:.2f}")
    return str(v)


def baseline_seconds(learner: str, params: dict, C, limit: float) -> "float | None":
    """Seconds of the version-space search on the same case (inf when it hits ``limit``), or None
    when that is the search the exact strategy uses anyway."""
    import time

    from adversary.strategies.base import Problem
    from adversary.strategies.exact import ExactStrategy
    from solvers.learners import make_learner

    L = make_learner(learner, dict(params), C)
    problem = Problem(learner, L.get_params(), C, {})
    if ExactStrategy().mode_for(problem) == "version-space":
        return None
    t = time.perf_counter()
    found = ExactStrategy(mode="version-space").run(problem, deadline=time.monotonic() + limit)
    return time.perf_counter() - t if found.exact else math.inf


def run_case(learner: str, family: str, params: dict, time_limit: float, baseline_limit: float = 0) -> dict:
    C = make(family, **params)
    r = attack(learner, C, strategy="exact", time_limit=time_limit)
    assert verify_witness(r.witness).ok
    run = r.stats["runs"][0] if r.stats["runs"] else {"seconds": math.nan, "stats": {}}
    s = run.get("stats", {})
    return {
        "learner": learner, "class": f"{family} " + " ".join(f"{k}={v}" for k, v in params.items()),
        "concepts": C.n_concepts, "points": C.n_points,
        "worst": ("inf (cycle)" if r.verdict == "unbounded" else str(r.mistakes)) + ("" if r.exact else " (not exact)"),
        "bound": _num(r.bound.value), "opt": _num(r.opt), "verdict": r.verdict,
        "seconds": run.get("seconds", math.nan), "positions": s.get("nodes"), "states": s.get("learner_states"),
        "exact": r.exact, "target": (learner, family, params) == TARGET,
        "baseline": (baseline_seconds(learner, r.witness["learner"]["params"], C, baseline_limit)
                     if baseline_limit > 0 else None),
    }


def _ratio(row: dict, limit: float) -> str:
    b, s = row["baseline"], row["seconds"]
    if b is None:
        return "- (same search)"
    if b < 0.01 and s < 0.01:
        return "- (both under 10 ms)"
    if math.isinf(b):
        return f"> {limit / max(s, 1e-4):,.0f} (baseline > {limit:g} s)"
    return f"{b / max(s, 1e-4):,.0f} ({b:.2f} s)"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the small cases only")
    ap.add_argument("--only", metavar="SUBSTRING", help="cases whose learner or class contains SUBSTRING")
    ap.add_argument("--time-limit", type=float, default=120.0, metavar="S", help="seconds per case (default 120)")
    ap.add_argument("--csv", metavar="FILE", help="also write the rows to FILE")
    ap.add_argument("--baseline-limit", type=float, default=60.0, metavar="S",
                    help="seconds the version-space baseline gets per case (default 60; 0 skips it)")
    args = ap.parse_args(argv)
    cases = QUICK if args.quick else FULL
    if args.only:
        cases = [c for c in cases if args.only in c[0] or args.only in c[1]]
    print(f"# exact adversary benchmark ({platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()})\n")
    header = ["learner", "class", "|C|", "|X|", "worst case", "bound", "Opt", "verdict", "seconds", "positions", "states",
              "speed-up vs version-space search"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    rows, status = [], 0
    for learner, family, params in cases:
        row = run_case(learner, family, params, args.time_limit, args.baseline_limit)
        rows.append(row)
        mark = ""
        if row["target"]:
            ok = row["exact"] and row["seconds"] < TARGET_SECONDS
            mark = f" TARGET < {TARGET_SECONDS:g} s: {'met' if ok else 'MISSED'}"
            status = status or (0 if ok else 1)
        print(f"| {row['learner']} | {row['class']} | {row['concepts']} | {row['points']} | {row['worst']} | "
              f"{row['bound']} | {row['opt']} | {row['verdict']} | {row['seconds']:.3f}{mark} | "
              f"{row['positions'] if row['positions'] is not None else '-'} | {row['states'] if row['states'] is not None else '-'} | "
              f"{_ratio(row, args.baseline_limit)} |",
              flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["learner"])
            w.writeheader()
            w.writerows(rows)
    return status


if __name__ == "__main__":
    sys.exit(main())
