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

``--winnow-table`` prints instead the exact worst case of Winnow1 ([Rivest94]) and Winnow2 ([15-859B])
on monotone disjunctions of at most k of n variables, k = 1, 2 and n = 2..12 by default, from the count
search of ``adversary/strategies/_counts.py`` (``littlestone attack winnow2 --class monotone-disjunctions
n=12 k=2 --strategy exact``; n >= 13 goes to the implicit class): per row the worst case, the learner's
proven bound as ``attack`` states it, their gap, the worst case of each target (an OR of k, k - 1, ..., 0
variables), the seconds of the search and its positions and moves; up to ``--check-up-to`` (default 8)
the point-by-point search (``ExactStrategy(mode="targets")``, capped at ``--baseline-limit`` s) is run
too and must give the same value (exit status 1 if not). After each (learner, k) a line says where the
worst case grew with n and what the bound did meanwhile.

Usage::

    python scripts/bench_attack.py [--quick] [--only SUBSTRING] [--time-limit S] [--csv FILE]
    python scripts/bench_attack.py --winnow-table [--learners winnow1,winnow2] [--k 1,2] [--n 2..12]
                                   [--check-up-to N] [--time-limit S] [--csv FILE]

References
----------
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
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


def write_csv(path: str, rows: list) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["learner"])
        w.writeheader()
        w.writerows(rows)


# ---------------------------------------------------------------------------------------- --winnow-table
def _int_list(text: str) -> list:
    """``"2..12"`` or ``"1,2"`` (or a mix, ``"2..4,8"``) as a list of ints."""
    out = []
    for part in text.split(","):
        lo, dots, hi = part.partition("..")
        out.extend(range(int(lo), int(hi) + 1) if dots else [int(lo)])
    return out


def winnow_row(learner: str, k: int, n: int, time_limit: float, check: bool, baseline_limit: float) -> dict:
    """One row of the Winnow table: the count search through ``attack`` (its witness verified), and the
    point-by-point search when ``check``."""
    import time

    from adversary.referee import witness_class
    from adversary.strategies.base import Problem
    from adversary.strategies.exact import ExactStrategy

    spec = {"family": "monotone-disjunctions", "params": {"n": n, "k": k}}
    r = attack(learner, spec, strategy="exact", time_limit=time_limit)
    assert verify_witness(r.witness).ok
    run = r.stats["runs"][0]
    s = run.get("stats", {})
    row = {"learner": learner, "k": k, "n": n, "worst": r.mistakes, "exact": r.exact, "bound": float(r.bound.value),
           "targets": [v["worst"] for v in s.get("target_values", [])], "seconds": run["seconds"],
           "positions": s.get("nodes"), "moves": s.get("moves"), "mode": s.get("mode"), "check": None,
           "check_seconds": None}
    if check:
        C = witness_class(spec)
        problem = Problem(learner, r.witness["learner"]["params"], C, spec)
        t = time.perf_counter()
        found = ExactStrategy(mode="targets").run(problem, deadline=time.monotonic() + baseline_limit)
        row["check_seconds"] = time.perf_counter() - t
        row["check"] = found.mistakes if found.exact else None
    return row


def _growth(rows: list) -> str:
    """Where the worst case grew along n, against the bound."""
    rows = [r for r in rows if r["exact"]]
    if len(rows) < 2:
        return "too few exact rows"
    steps = [f"{a['n']}->{b['n']}" for a, b in zip(rows, rows[1:]) if b["worst"] > a["worst"]]
    last = rows[-1]
    since = next(r for r in rows if r["worst"] == last["worst"])
    if since is last:
        flat = f"still growing at n = {last['n']}"
    else:
        flat = (f"flat at {last['worst']} from n = {since['n']} to {last['n']} while the bound rose by "
                f"{last['bound'] - since['bound']:.2f}")
    gaps = [r["bound"] - r["worst"] for r in rows]
    grows = f"grows at n = {', '.join(steps)}" if steps else "does not grow"
    return (f"{grows}; {flat}; bound - worst between {min(gaps):.2f} and "
            f"{max(gaps):.2f}; at n = {last['n']} the worst case is {last['worst'] / last['bound']:.0%} of the bound")


def winnow_table(args) -> int:
    learners = [x.strip() for x in args.learners.split(",") if x.strip()]
    ks, ns = _int_list(args.k), _int_list(args.n)
    print(f"# Winnow's exact worst case on monotone-disjunctions by the count search "
          f"({platform.python_implementation()} {platform.python_version()}, {platform.machine()})\n")
    header = ["learner", "k", "n", "worst case", "bound", "bound - worst", "per target (r = k..0)", "seconds",
              "positions", "moves", f"point search (n <= {args.check_up_to})"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    rows, status, series = [], 0, []
    for learner in learners:
        for k in ks:
            series.append((learner, k, []))
            for n in ns:
                if k > n:
                    continue
                row = winnow_row(learner, k, n, args.time_limit, n <= args.check_up_to, args.baseline_limit)
                rows.append(row)
                series[-1][2].append(row)
                if row["check"] is None:
                    check = "-" if row["check_seconds"] is None else f"> {args.baseline_limit:g} s"
                else:
                    same = row["check"] == row["worst"]
                    check = f"{row['check']} {'same' if same else 'DIFFERENT'} ({row['check_seconds']:.2f} s)"
                    status = status or (0 if same else 1)
                worst = f"{row['worst']}" + ("" if row["exact"] else " (lower bound: not exact)")
                print(f"| {learner} | {k} | {n} | {worst} | {row['bound']:.2f} | {row['bound'] - row['worst']:.2f} | "
                      f"{' / '.join(map(str, row['targets'])) or '-'} | {row['seconds']:.2f} | {row['positions']:,} | "
                      f"{row['moves']:,} | {check} |", flush=True)
    print()
    for learner, k, rs in series:
        print(f"- {learner}, k = {k}: {_growth(rs)}")
    if args.csv:
        write_csv(args.csv, rows)
    return status


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the small cases only")
    ap.add_argument("--only", metavar="SUBSTRING", help="cases whose learner or class contains SUBSTRING")
    ap.add_argument("--time-limit", type=float, default=120.0, metavar="S", help="seconds per case (default 120)")
    ap.add_argument("--csv", metavar="FILE", help="also write the rows to FILE")
    ap.add_argument("--baseline-limit", type=float, default=60.0, metavar="S",
                    help="seconds the version-space baseline gets per case (default 60; 0 skips it)")
    ap.add_argument("--winnow-table", action="store_true",
                    help="Winnow1/Winnow2 on monotone disjunctions by the count search, k x n (see the docstring)")
    ap.add_argument("--learners", default="winnow1,winnow2", help="--winnow-table: learners (default winnow1,winnow2)")
    ap.add_argument("--k", default="1,2", help="--winnow-table: the values of k (default 1,2)")
    ap.add_argument("--n", default="2..12", help="--winnow-table: the values of n (default 2..12)")
    ap.add_argument("--check-up-to", type=int, default=8, metavar="N",
                    help="--winnow-table: also run the point-by-point search up to this n (default 8)")
    args = ap.parse_args(argv)
    if args.winnow_table:
        if "--time-limit" not in (argv if argv is not None else sys.argv):
            args.time_limit = 600.0
        return winnow_table(args)
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
        write_csv(args.csv, rows)
    return status


if __name__ == "__main__":
    sys.exit(main())
