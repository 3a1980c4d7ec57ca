"""Opt on raw classes against the careful pure-Python search: the measurement of issue 37 ("Past the compiled
limit", section 1), taken in one run.

What it measures. Twelve classes (monotone disjunctions n=12 k=2, n=10 k=3, n=12 k=4; intervals N=160;
conjunctions n=9; halfspaces n=4; rectangles N=16; parities n=12; monotone conjunctions n=12; a random
16,384 x 16 class; all functions n=14; thresholds N=4000), each built by ``solvers.classes.families.make``, then
given as a user brings a class: its rows and its columns shuffled and about half its columns complemented
(seeded by ``--seed`` and the class's name, so ``--only`` makes the same matrix as the whole run), saved with
``numpy.save`` and read back, so that no family, no declared symmetry and no compact form is recognised.

How. For each class, in a fresh Python process each time (nothing warm: the class's cached bitsets, the
compiled kernel's load and every other fixed cost fall in the call, as in a user's first call):

- ``opt s``: one whole ``solvers.opt.opt(C)`` call (default options; the process stopped after ``--time-limit``
  seconds) on a class object just read from the ``.npy`` file by ``ConceptClass.from_file`` (what ``littlestone opt --matrix``
  reads it with); the file's read and the imports are not timed. The median of ``--repeats`` processes.
- ``careful s``: ``careful_opt(matrix)`` of ``scripts/careful_opt.py`` (bitsets as Python ints, iterative
  deepening, cardinality pruning, splits deduplicated per version space and passed down, the most balanced
  split first, a memo of [lo, hi] per version space) on the matrix read from the same file, timed inside its
  process around the call, under ``--time-limit`` seconds (``>600`` when it runs out) and an address-space cap
  of ``--memory-gb``; the median of ``--repeats`` processes when its first run took under a minute, else the
  one run.

Both must agree on Opt wherever both finish; a disagreement prints MISMATCH and the exit status is 1.

Why. The issue asks for ``opt``'s speed on classes users bring, measured against this search in the same run
(not against an earlier revision of the project): its goal is a geometric mean of the ratio careful/opt of at
least 15x, no class under 5x, all exact. The table ends with the geometric mean against that goal.

Usage::

    python scripts/bench_raw.py [--only NAME ...] [--params k=v ...] [--repeats N] [--time-limit S]
                                [--memory-gb G] [--csv FILE] [--seed N] [--keep DIR]

``--only NAME`` keeps the classes whose label is NAME or starts with it (``--only thresholds``,
``--only "monotone-disjunctions n=12 k=2"``; repeatable); ``--params k=v ...`` overrides parameters of every kept
class (``--only thresholds --params N=200``: a quick run); ``--keep DIR`` keeps the ``.npy`` matrices in DIR.
Run it on an otherwise idle machine: every time is wall-clock time.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"

#: The twelve raw classes of issue 37, in its order.
CLASSES = [
    ("monotone-disjunctions", {"n": 12, "k": 2}),
    ("monotone-disjunctions", {"n": 10, "k": 3}),
    ("monotone-disjunctions", {"n": 12, "k": 4}),
    ("intervals", {"N": 160}),
    ("conjunctions", {"n": 9}),
    ("halfspaces", {"n": 4}),
    ("rectangles", {"N": 16}),
    ("parities", {"n": 12}),
    ("monotone-conjunctions", {"n": 12}),
    ("random", {"m": 16384, "N": 16, "seed": 0}),
    ("all-functions", {"n": 14}),
    ("thresholds", {"N": 4000}),
]
GOAL_MEAN = 15.0  # issue 37: a geometric mean of careful/opt of at least 15x ...
GOAL_MIN = 5.0  # ... and no class under 5x
REPEAT_CAREFUL_UNDER = 60.0  # a careful run under this many seconds is repeated like opt's


def label(family: str, params: dict) -> str:
    return " ".join([family] + [f"{k}={v}" for k, v in params.items()])


def raw_matrix(family: str, params: dict, seed: int):
    """The class's matrix as a user might bring it: rows and columns shuffled, each column complemented with
    probability 1/2 (at least one), by a generator seeded with ``seed`` and the class's label."""
    import numpy as np

    from solvers.classes.families import make

    M = np.asarray(make(family, **params).matrix, dtype=bool)
    rng = np.random.default_rng([seed, zlib.crc32(label(family, params).encode())])
    M = M[rng.permutation(M.shape[0])][:, rng.permutation(M.shape[1])]
    flip = rng.random(M.shape[1]) < 0.5
    if M.shape[1] and not flip.any():
        flip[rng.integers(M.shape[1])] = True
    return np.ascontiguousarray(M ^ flip)


def _time_opt_child(path: str) -> None:
    """(In a fresh process.) One ``opt`` call, default options, on the class read from ``path``; a JSON line on
    stdout."""
    import solvers
    from solvers.classes import ConceptClass
    from solvers.opt import opt

    C = ConceptClass.from_file(path)
    t0 = time.perf_counter()
    r = opt(C)
    seconds = time.perf_counter() - t0
    print(json.dumps({"value": r.value, "lower": r.lower, "upper": r.upper, "seconds": seconds,
                      "engine": r.stats.get("engine"), "concepts": C.n_concepts, "points": C.n_points,
                      "solvers": solvers.__file__}), flush=True)


def _run_json(cmd: list[str], timeout: float, preexec=None) -> dict:
    """The last JSON line a child prints, or ``{"status": ..., "error": ...}`` when it fails."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(ROOT),
                            preexec_fn=preexec, start_new_session=True)  # (its own group: its children end with it)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"status": "hang", "error": f"no answer within {timeout:g} s"}
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (err.strip().splitlines() or ["(no output)"])[-1]
        return {"status": "error", "error": f"exit {proc.returncode}: {tail}"}
    return json.loads(lines[-1])


def time_opt(path: Path, time_limit: float) -> dict:
    """One ``opt`` call in a fresh process: ``{"value", "lower", "upper", "seconds", ...}`` (``status``: ok,
    timeout when the process is still running ``time_limit`` seconds after it started, else error). The call
    is the default one (no ``time_limit`` given to ``opt``, as ``littlestone opt --matrix FILE`` makes it)."""
    got = _run_json([sys.executable, str(Path(__file__).resolve()), "--_time-opt", str(path)], timeout=time_limit)
    if got.get("status") == "hang":
        got["status"] = "timeout"
    elif "seconds" in got:
        got["status"] = "ok"
        if got["lower"] != got["upper"]:
            got.update(status="error", error=f"opt left {got['lower']}..{got['upper']}")
    return got


def time_careful(path: Path, time_limit: float, memory_gb: float) -> dict:
    """One ``careful_opt`` run in a fresh process, its address space capped at ``memory_gb``:
    ``{"value", "status" (ok, timeout, memory, hang, error), "seconds", ...}``."""
    def cap():
        import resource

        limit = int(memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return _run_json([sys.executable, str(SCRIPTS / "careful_opt.py"), "--matrix", str(path), "--time-limit",
                      repr(time_limit), "--json"], timeout=time_limit + 300, preexec=cap if memory_gb > 0 else None)


def _fmt_s(s: float) -> str:
    return f"{s:.3f}" if s < 10 else f"{s:.1f}"


def _fmt_ratio(r: float) -> str:
    return f"{r:.2f}" if r < 10 else f"{r:.1f}"


def _select(only: list[str] | None, overrides: dict) -> list[tuple[str, dict]]:
    chosen = []
    for family, params in CLASSES:
        name = label(family, params)
        if only and not any(name == o or name.startswith(o + " ") for o in only):
            continue
        if overrides:
            unknown = set(overrides) - set(params)
            if unknown:
                raise SystemExit(f"--params: {name} has no parameter {', '.join(sorted(unknown))} "
                                 f"(its parameters: {', '.join(params)})")
            params = {**params, **overrides}
        chosen.append((family, params))
    if not chosen:
        raise SystemExit(f"--only {' '.join(only or [])}: no class of the benchmark is named so; the classes: "
                         + "; ".join(label(f, p) for f, p in CLASSES))
    return chosen


def bench(classes, args, folder: Path) -> int:
    import numpy as np

    from solvers.opt import kernel

    st = kernel.status()
    load = os.getloadavg()
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=str(ROOT))
    print(f"# Opt on raw classes: opt against the careful pure-Python search (issue 37)\n\n"
          f"revision {rev.stdout.strip() or '?'}, {os.cpu_count()} cores, load average {load[0]:.2f}; compiled kernel "
          f"{st['mode']}, {'current' if st.get('current') else 'NOT current: ' + str(st.get('why'))}; seed "
          f"{args.seed}; opt: median of {args.repeats} fresh processes; careful: median of {args.repeats} "
          f"(one run when the first takes >= {REPEAT_CAREFUL_UNDER:g} s), limit {args.time_limit:g} s and "
          f"{args.memory_gb:g} GB each\n", flush=True)
    rows, ratios, bounds, mismatches, failures = [], [], [], [], []
    print("| class | \\|C\\| | \\|X\\| | Opt | careful s | opt s | careful/opt |")
    print("|---|---:|---:|---:|---:|---:|---:|", flush=True)
    for family, params in classes:
        name = label(family, params)
        M = raw_matrix(family, params, args.seed)
        path = folder / (name.replace(" ", "_").replace("=", "") + ".npy")
        np.save(path, M)
        opts = [time_opt(path, args.time_limit) for _ in range(args.repeats)]
        cares = [time_careful(path, args.time_limit, args.memory_gb)]
        if cares[0].get("status") == "ok" and cares[0]["seconds"] < REPEAT_CAREFUL_UNDER:
            cares += [time_careful(path, args.time_limit, args.memory_gb) for _ in range(args.repeats - 1)]
        bad = [r for r in opts + cares if r.get("status") in ("hang", "error")]
        if bad:
            failures.append(f"{name}: {bad[0]['error']}")
        opt_ok = [r for r in opts if r.get("status") == "ok"]
        care_ok = [r for r in cares if r.get("status") == "ok"]
        opt_s = statistics.median(r["seconds"] for r in opt_ok) if len(opt_ok) == len(opts) else None
        care_s = statistics.median(r["seconds"] for r in care_ok) if len(care_ok) == len(cares) else None
        values = {r["value"] for r in opt_ok} | {r["value"] for r in care_ok}
        if len(values) > 1:
            mismatches.append(f"MISMATCH {name}: opt says {sorted({r['value'] for r in opt_ok})}, careful "
                              f"says {sorted({r['value'] for r in care_ok})}")
        value = next(iter(values)) if len(values) == 1 else None
        if value is None and opts and "lower" in opts[0]:
            value_s = f"{opts[0]['lower']}..{opts[0]['upper']}"
        else:
            value_s = "?" if value is None else str(value)
        concepts = opt_ok[0]["concepts"] if opt_ok else int(M.shape[0])
        why = {"timeout": f">{args.time_limit:g}", "memory": f">{args.memory_gb:g} GB"}
        care_txt = _fmt_s(care_s) if care_s is not None else why.get(cares[0].get("status"), cares[0].get("status"))
        opt_txt = _fmt_s(opt_s) if opt_s is not None else (
            f">{args.time_limit:g}" if any(r.get("status") == "timeout" for r in opts) else "failed")
        ratio = None
        if opt_s is not None and care_s is not None:
            ratio = care_s / opt_s
            ratios.append((name, ratio))
            ratio_txt = _fmt_ratio(ratio)
        elif opt_s is not None and cares[0].get("status") == "timeout":
            bounds.append((name, args.time_limit / opt_s))
            ratio_txt = f">{_fmt_ratio(args.time_limit / opt_s)}"
        else:
            ratio_txt = "-"
        print(f"| {name} | {concepts:,} | {M.shape[1]:,} | {value_s} | {care_txt} | {opt_txt} | {ratio_txt} |",
              flush=True)
        rows.append({"class": name, "concepts": concepts, "points": int(M.shape[1]), "opt": value,
                     "careful_s": care_s, "careful_status": cares[0].get("status"), "opt_s": opt_s,
                     "opt_runs": ";".join(f"{r['seconds']:.4f}" for r in opt_ok),
                     "careful_runs": ";".join(f"{r['seconds']:.4f}" for r in care_ok),
                     "ratio": ratio, "engine": opt_ok[0].get("engine") if opt_ok else None})
    print()
    both = ratios + bounds
    if ratios:
        gm = math.exp(sum(math.log(r) for _, r in ratios) / len(ratios))
        under = [f"{n} ({_fmt_ratio(r)}x)" for n, r in both if r < GOAL_MIN]
        met = gm >= GOAL_MEAN and not under and len(both) == len(classes) and not mismatches
        print(f"geometric mean of careful/opt over the {len(ratios)} classes both solved: {_fmt_ratio(gm)}x "
              f"(goal of issue 37: >= {GOAL_MEAN:g}x with no class under {GOAL_MIN:g}x: "
              f"{'MET' if met else 'not met'})")
        if bounds:
            gm_all = math.exp(sum(math.log(r) for _, r in both) / len(both))
            print(f"with the {len(bounds)} classes the careful search did not finish counted at its time limit: "
                  f"at least {_fmt_ratio(gm_all)}x")
        print(f"under {GOAL_MIN:g}x: {'; '.join(under) if under else 'none'}")
        print(f"min {_fmt_ratio(min(r for _, r in ratios))}x, max {_fmt_ratio(max(r for _, r in ratios))}x; "
              f"careful faster than opt on: {', '.join(n for n, r in ratios if r < 1) or 'none'}")
    for line in failures:
        print(f"FAILED {line}")
    for line in mismatches:
        print(line)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return 1 if mismatches or failures else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Opt on raw classes against the careful pure-Python search (issue 37).")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="the classes whose label is NAME or starts with it (repeatable)")
    ap.add_argument("--params", nargs="+", metavar="K=V", default=[],
                    help="override these parameters of every class kept (e.g. --only thresholds --params N=200)")
    ap.add_argument("--repeats", type=int, default=3, help="fresh processes per timing; the median is kept")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds for each run (default 600)")
    ap.add_argument("--memory-gb", type=float, default=8.0,
                    help="address-space cap of each careful run in GB (0: none; default 8, the issue's bound)")
    ap.add_argument("--csv", metavar="FILE", help="also write the rows to FILE")
    ap.add_argument("--seed", type=int, default=0, help="the shuffles' and complements' seed")
    ap.add_argument("--keep", metavar="DIR", help="keep the .npy matrices in DIR")
    ap.add_argument("--_time-opt", dest="time_opt", metavar="FILE", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    if args.time_opt:
        _time_opt_child(args.time_opt)
        return 0
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    sys.path.insert(0, str(SCRIPTS))
    from baseline_opt import parse_params

    classes = _select(args.only, parse_params(args.params))
    t0 = time.perf_counter()
    if args.keep:
        folder = Path(args.keep)
        folder.mkdir(parents=True, exist_ok=True)
        rc = bench(classes, args, folder)
    else:
        with tempfile.TemporaryDirectory(prefix="bench_raw_") as tmp:
            rc = bench(classes, args, Path(tmp))
    print(f"total {time.perf_counter() - t0:.1f} s")
    return rc


if __name__ == "__main__":
    sys.exit(main())
