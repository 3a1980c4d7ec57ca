"""Benchmark the games beyond Opt (``opt(C, game=..., errors=..., horizon=...)``) against the naive
baseline, and find their frontier.

Part 1 (the suite): fixed instances of the randomized optimum RL, k label errors (D_k, R_k) and a horizon.
Each runs the naive memoised recursion of ``scripts/baseline_variants.py`` in its own subprocess (time
limit per instance, default 60 s, and a cap on the total) and ``solvers.opt.opt`` in this process; both
must agree exactly whenever both finish (else ``MISMATCH`` and exit status 1). The table gives |C|, |X|,
the value, both times and their ratio; then the geometric mean of the ratio over the instances whose
baseline time is within 0.1-60 s, against the target (>= 100x).

Part 2 (the frontier): for each family and game, the sizes are tried in increasing order with
``opt(C, time_limit=60)`` until one is not solved in time; the largest solved is reported with its time.
The experts game (n experts, the best with k mistakes) is measured by ``solvers.opt.experts`` when present.

Timing as in ``scripts/bench_opt.py``: ``time.perf_counter``, opt on a fresh copy of the class (no cached
column bitsets), repeated and the median kept when a run is under 0.1 s; the baseline's time is measured
inside its subprocess.

Usage::

    python scripts/bench_variants.py [--quick] [--skip-baseline] [--skip-frontier] [--only TEXT]
                                     [--time-limit S] [--total-limit S]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, Path(__file__).resolve().parent):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import bench_opt  # noqa: E402
from bench_opt import fmt_ratio, fmt_s, machine_info, markdown_table, timed_opt  # noqa: E402
from solvers.classes.families import make  # noqa: E402
from solvers.opt import opt  # noqa: E402

BASELINE = Path(__file__).resolve().parent / "baseline_variants.py"
TARGET = 100.0

R = {"game": "randomized"}
# (family, params, game options). The comments give the baseline's time on this 2-core machine.
SUITE: list[tuple[str, dict, dict]] = [
    ("thresholds", {"N": 40}, R),                                   # ~0.7 s
    ("thresholds", {"N": 100}, R),                                  # ~25 s
    ("intervals", {"N": 10}, R),                                    # ~0.5 s
    ("intervals", {"N": 12}, R),                                    # ~2 s
    ("all-functions", {"n": 7}, R),                                 # ~0.7 s
    ("all-functions", {"n": 8}, R),                                 # ~5 s
    ("singletons", {"N": 12}, R),                                   # ~0.7 s (2^N version spaces)
    ("monotone-disjunctions", {"n": 5, "k": 2}, R),                 # ~1 s
    ("monotone-disjunctions", {"n": 6, "k": 2}, R),                 # ~50 s
    ("rectangles", {"N": 3}, R),                                    # ~0.2 s
    ("random", {"m": 60, "N": 8, "seed": 0}, R),                    # ~0.35 s
    ("thresholds", {"N": 60}, {**R, "horizon": 4}),                 # ~6 s
    ("thresholds", {"N": 16}, {"errors": 1}),                       # ~2 s
    ("thresholds", {"N": 12}, {"errors": 2}),                       # ~8 s
    ("intervals", {"N": 8}, {"errors": 1}),                         # ~3 s
    ("monotone-disjunctions", {"n": 4, "k": 2}, {"errors": 1}),     # ~1.5 s
    ("thresholds", {"N": 20}, {**R, "errors": 1}),                  # ~6 s
    ("thresholds", {"N": 8}, {**R, "errors": 2}),                   # ~0.8 s
    ("intervals", {"N": 7}, {**R, "errors": 1}),                    # ~1.2 s
    ("monotone-disjunctions", {"n": 6, "k": 1}, {**R, "errors": 1}),  # ~2 s
    ("singletons", {"N": 10}, {**R, "errors": 1}),                  # ~10 s
]

QUICK_SUITE = [
    ("thresholds", {"N": 20}, R),
    ("intervals", {"N": 6}, R),
    ("thresholds", {"N": 6}, {"errors": 1}),
    ("thresholds", {"N": 6}, {**R, "errors": 1}),
    ("thresholds", {"N": 20}, {**R, "horizon": 3}),
]

# (family, size parameter, the sizes to try in order, fixed parameters, game options)
FRONTIER = [
    ("thresholds", "N", [1000, 5000, 10_000, 20_000, 50_000, 100_000], {}, R),
    ("intervals", "N", [12, 16, 20, 24, 28, 32, 40, 48, 64], {}, R),
    ("monotone-disjunctions", "n", [6, 8, 10, 12, 14, 16], {"k": 2}, R),
    ("monotone-disjunctions", "n", [4, 6, 8, 10, 12], {"k": 1}, {**R, "errors": 1}),
    ("thresholds", "N", [10, 20, 50, 100, 200, 500], {}, {**R, "errors": 1}),
    ("thresholds", "N", [10, 20, 50, 100, 200, 500, 1000], {}, {"errors": 1}),
]
QUICK_FRONTIER = [
    ("thresholds", "N", [100, 1000], {}, R),
    ("intervals", "N", [8, 12], {}, R),
]


def game_text(g: dict) -> str:
    parts = []
    if g.get("game") == "randomized":
        parts.append("randomized")
    if g.get("errors"):
        parts.append(f"errors={g['errors']}")
    if g.get("horizon") is not None:
        parts.append(f"T={g['horizon']}")
    return " ".join(parts) or "deterministic"


def label(family: str, params: dict, g: dict) -> str:
    return " ".join([family] + [f"{k}={v}" for k, v in params.items()]) + f" [{game_text(g)}]"


def value_text(v) -> str:
    if v is None:
        return "?"
    v = Fraction(v)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def time_game(C, g: dict, time_limit):
    return timed_opt(C.family, C.params, time_limit=time_limit, **g)


def run_baseline(family: str, params: dict, g: dict, time_limit: float) -> dict:
    """``scripts/baseline_variants.py`` on the instance, in a subprocess (as bench_opt runs its baseline)."""
    flags = []
    if g.get("game") == "randomized":
        flags.append("--randomized")
    if g.get("errors"):
        flags += ["--errors", str(g["errors"])]
    if g.get("horizon") is not None:
        flags += ["--horizon", str(g["horizon"])]
    return bench_opt.run_baseline(family, params, time_limit, script=BASELINE, flags=flags)


def bench_suite(instances, args) -> bool:
    ok = True
    rows, ratios = [], []
    budget = args.total_limit
    print(f"## Suite: opt(C, game=...) vs the naive baseline (baseline limit {args.time_limit:g} s per instance, "
          f"{args.total_limit:g} s in all)\n", flush=True)
    for family, params, g in instances:
        name = label(family, params, g)
        C = make(family, **params)
        base = {"status": "skipped", "value": None, "seconds": None}
        if not args.skip_baseline:
            if budget > 0:
                lim = min(args.time_limit, budget)
                base = run_baseline(family, params, g, lim)
                budget -= base["seconds"] if base["seconds"] is not None else lim
            else:
                base = {"status": "budget", "value": None, "seconds": None}
        res, osec = time_game(C, g, args.time_limit)
        value = value_text(res.value) if res.value is not None else f"{value_text(res.lower)}..{value_text(res.upper)}"
        bsec = base["seconds"]
        if base["status"] == "ok" and res.value is not None and Fraction(base["value"]) != res.value:
            print(f"MISMATCH {name}: baseline {base['value']}, opt {value}", flush=True)
            ok = False
        if base["status"] == "ok":
            bcell, ratio = fmt_s(bsec), bsec / osec if osec > 0 else math.inf
            rcell = fmt_ratio(ratio)
            if 0.1 <= bsec <= 60 and res.value is not None:
                ratios.append(ratio)
        elif base["status"] in ("timeout", "memory"):
            bcell = f">{args.time_limit:g}" if base["status"] == "timeout" else "out of memory"
            rcell = f">{fmt_ratio(args.time_limit / osec)}" if base["status"] == "timeout" else "-"
        else:
            bcell, rcell = (base["status"] if base["status"] in ("skipped", "budget") else "error"), "-"
            if base["status"].startswith("error"):
                print(f"baseline error on {name}: {base['status']}", flush=True)
        rows.append([name, str(C.n_concepts), str(C.n_points), value, bcell, fmt_s(osec), rcell])
        print(f"  done {name}: baseline {bcell} s, opt {fmt_s(osec)} s", file=sys.stderr, flush=True)
    print(markdown_table(["instance", r"\|C\|", r"\|X\|", "value", "baseline s", "opt s", "ratio"], rows))
    print()
    if ratios:
        gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        verdict = "MEETS" if gm >= TARGET else "does NOT meet"
        print(f"geometric mean ratio over the {len(ratios)} instances with baseline 0.1-60 s: "
              f"{fmt_ratio(gm)}x ({verdict} the target of >= {TARGET:,.0f}x); lowest {fmt_ratio(min(ratios))}x")
    print(flush=True)
    return ok


def bench_frontier(items, args) -> None:
    print(f"## Frontier: the largest size solved by opt(C, game=..., time_limit={args.time_limit:g})\n", flush=True)
    rows = []
    for family, key, sizes, fixed, g in items:
        best = None
        failed = None
        for n in sizes:
            params = {**fixed, key: n}
            try:
                C = make(family, **params)
            except (ValueError, MemoryError) as e:
                failed = f"{key}={n}: {e}"
                break
            t0 = time.perf_counter()
            res = opt(C, time_limit=args.time_limit, **g)
            dt = time.perf_counter() - t0
            print(f"  {label(family, params, g)}: {value_text(res.value) if res.value is not None else 'not solved'} "
                  f"in {fmt_s(dt)} s", file=sys.stderr, flush=True)
            if res.value is None:
                failed = f"{key}={n}: {value_text(res.lower)}..{value_text(res.upper)} after {fmt_s(dt)} s"
                break
            best = (n, res.value, dt, C.n_concepts, C.n_points)
            del C, res
        name = f"{family} {' '.join(f'{k}={v}' for k, v in fixed.items())} [{game_text(g)}]".replace("  ", " ")
        if best is None:
            rows.append([name, "-", "-", "-", "-", failed or "-"])
        else:
            n, v, dt, nc, npts = best
            rows.append([name, f"{key}={n}", f"{nc} x {npts}", f"{value_text(v)} ({float(v):.4f})", fmt_s(dt),
                         failed or "(largest size tried)"])
    for k in (1, 2):
        rows += experts_frontier(k, args.time_limit)
    print(markdown_table(["family [game]", "largest solved", r"\|C\| x \|X\|", "value", "seconds", "next size"], rows))
    print(flush=True)


def experts_frontier(k: int, limit: float) -> list:
    """The largest n of the experts game (the best of n experts with k mistakes) solved within the limit,
    deterministic and randomized, when solvers.opt.experts is present."""
    try:
        from solvers.opt import experts as module
    except ImportError:
        return []
    out = []
    for randomized in (False, True):
        best, failed, n = None, None, 1
        while n <= 4096:
            t0 = time.perf_counter()
            r = module.experts(n, k, randomized=randomized, time_limit=limit)
            dt = time.perf_counter() - t0
            if r.value is None:
                failed = f"n={n}: not solved in {fmt_s(dt)} s"
                break
            best = (n, r.value, dt)
            n = n + 1 if n < 16 else int(n * 1.25)
        name = f"experts k={k} [{'randomized' if randomized else 'deterministic'}]"
        if best is None:
            out.append([name, "-", "-", "-", "-", failed or "-"])
        else:
            out.append([name, f"n={best[0]}", "-", value_text(best[1]), fmt_s(best[2]), failed or "(largest tried)"])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Benchmark the games beyond Opt against the naive baseline, and their frontier.")
    ap.add_argument("--quick", action="store_true", help="a small subset (smoke test)")
    ap.add_argument("--skip-baseline", action="store_true")
    ap.add_argument("--skip-frontier", action="store_true")
    ap.add_argument("--only", metavar="TEXT", help="only the instances whose label contains TEXT")
    ap.add_argument("--time-limit", type=float, default=60.0, metavar="S")
    ap.add_argument("--total-limit", type=float, default=900.0, metavar="S")
    args = ap.parse_args(argv)
    suite = QUICK_SUITE if args.quick else SUITE
    frontier = QUICK_FRONTIER if args.quick else FRONTIER
    if args.only:
        suite = [s for s in suite if args.only in label(*s)]
        frontier = [f for f in frontier if args.only in f"{f[0]} [{game_text(f[4])}]"]
    for line in machine_info():
        print(line)
    print(f"started {time.strftime('%Y-%m-%d %H:%M:%S')}\n", flush=True)
    t0 = time.perf_counter()
    ok = bench_suite(suite, args) if suite else True
    if not args.skip_frontier and frontier:
        bench_frontier(frontier, args)
    print(f"total {time.perf_counter() - t0:.1f} s")
    if not ok:
        print("MISMATCH found: opt and the baseline disagree (see above)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
