"""Benchmark the exact adversary (``adversary.attack(..., strategy="exact")``) on a fixed list of cases.

Each case is a learner on a finite class; the script runs the exact search (the true worst case, or a
cycle), checks that the witness verifies (``attack`` always re-verifies it), and prints one Markdown
row per case: the worst case found, the learner's proven bound for the class, Opt(C), the verdict,
the seconds of the search alone (Opt excluded), the positions searched and the learner states met.

The headline target of issue 4: Winnow2 (seed 002) on monotone-disjunctions n=5 k=2 in under 10 s;
its row is marked ``TARGET`` and the exit status is 1 if it takes longer (or does not finish).

Timing: ``time.perf_counter`` around the search (``stats["runs"][0]["seconds"]``), one run per case,
in this process.

Usage::

    python scripts/bench_attack.py [--quick] [--only SUBSTRING] [--time-limit S] [--csv FILE]
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
from adversary.game import verify_witness  # noqa: E402
from solvers.families import make  # noqa: E402

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
]


def _num(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return "inf" if math.isinf(v) else (str(int(v)) if v.is_integer() else f"{v:.2f}")
    return str(v)


def run_case(learner: str, family: str, params: dict, time_limit: float) -> dict:
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
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the small cases only")
    ap.add_argument("--only", metavar="SUBSTRING", help="cases whose learner or class contains SUBSTRING")
    ap.add_argument("--time-limit", type=float, default=120.0, metavar="S", help="seconds per case (default 120)")
    ap.add_argument("--csv", metavar="FILE", help="also write the rows to FILE")
    args = ap.parse_args(argv)
    cases = QUICK if args.quick else FULL
    if args.only:
        cases = [c for c in cases if args.only in c[0] or args.only in c[1]]
    print(f"# exact adversary benchmark ({platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()})\n")
    header = ["learner", "class", "|C|", "|X|", "worst case", "bound", "Opt", "verdict", "seconds", "positions", "states"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    rows, status = [], 0
    for learner, family, params in cases:
        row = run_case(learner, family, params, args.time_limit)
        rows.append(row)
        mark = ""
        if row["target"]:
            ok = row["exact"] and row["seconds"] < TARGET_SECONDS
            mark = f" TARGET < {TARGET_SECONDS:g} s: {'met' if ok else 'MISSED'}"
            status = status or (0 if ok else 1)
        print(f"| {row['learner']} | {row['class']} | {row['concepts']} | {row['points']} | {row['worst']} | "
              f"{row['bound']} | {row['opt']} | {row['verdict']} | {row['seconds']:.3f}{mark} | "
              f"{row['positions'] if row['positions'] is not None else '-'} | {row['states'] if row['states'] is not None else '-'} |",
              flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["learner"])
            w.writeheader()
            w.writerows(rows)
    return status


if __name__ == "__main__":
    sys.exit(main())
