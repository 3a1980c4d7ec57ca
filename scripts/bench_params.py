"""Time the parameters beside Opt (:mod:`solvers.params`) on a fixed set of classes, and the two searches of issue 22
part 1 against their naive baselines in the same run:

* ``proper``: the one-pass recurrence of :mod:`solvers.params.proper` against the same memoised recurrence taking,
  for every hypothesis h, the max over the replies that catch it (what it replaced);
* ``best_order`` / ``worst_order``: the search over orders of :mod:`solvers.params.orders` against playing every
  order of the distinct splits (only where there are at most 8 of them).

Usage::

    python scripts/bench_params.py                # the default classes, a Markdown table
    python scripts/bench_params.py --quick        # the small ones only (a smoke run)
    python scripts/bench_params.py --targets [--baseline REV] [--time-limit S] [--seeds 1,2,3] [--sat] [--quick]

Each row: the class, |C|, |X|, then per key the value and seconds; the last columns are the baselines' seconds and
the ratios baseline / search (both measured here, one after the other, on an otherwise idle machine).

``--targets`` times issue 37's targets for the parameters as constraint problems, each exact in under 10 s: the star
number of ``blockwise-addressing d=4`` and of ``qr-tournament p=31``, ``littlestone params monotone-disjunctions
n=12 k=5 --only vc`` (the whole command), and vc, dual_vc, threshold, star, td, rtd on random classes of 200 concepts
on 24 points (``numpy.random.default_rng(seed).integers(0, 2, (200, 24))``, seeds ``--seeds``); the QR class again as
a bare matrix (no declared symmetry: one centre per concept). Today's code knows neither catalogue family: it gets
their matrices (saved with ``numpy.save``). Each cell is one
whole call in a fresh Python process, its wall-clock time (imports and the class's making included): "today" runs
the code of revision ``--baseline`` (default: the last before the encodings; ``git archive`` of its ``solvers`` and
``adversary`` into a temporary folder, first on PYTHONPATH), "now" this tree's ``solvers.params.compute`` (its
``method="auto"``), and, with ``--sat``, the constraint route alone (``method="sat"``). Each call gets
``--time-limit`` seconds (60 by default); a stopped one shows its proven bounds, lo..hi. ``--quick`` swaps in small
classes (a smoke run).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from solvers.classes import ConceptClass  # noqa: E402
from solvers.classes.families import make  # noqa: E402
from solvers.params import compute  # noqa: E402
from solvers.params.orders import _splits, order_value  # noqa: E402

KEYS = ("threshold", "star", "td", "rtd", "best_order", "worst_order", "proper")


def classes(quick: bool) -> list:
    rng = np.random.default_rng(22)
    if quick:  # 7 points: the naive baseline plays 5,040 orders, not 40,320
        return [("thresholds N=15", make("thresholds", N=15)), ("intervals N=7", make("intervals", N=7)),
                ("random 30x7", ConceptClass.from_matrix(rng.integers(0, 2, (30, 7)).astype(bool)))]
    out = [("thresholds N=15", make("thresholds", N=15)), ("intervals N=8", make("intervals", N=8)),
           ("random 30x8", ConceptClass.from_matrix(rng.integers(0, 2, (30, 8)).astype(bool)))]
    if not quick:
        out += [("intervals N=14", make("intervals", N=14)),
                ("random 60x12", ConceptClass.from_matrix(rng.integers(0, 2, (60, 12)).astype(bool))),
                ("random 100x16", ConceptClass.from_matrix(rng.integers(0, 2, (100, 16)).astype(bool)))]
    return out


def naive_proper(C) -> int:
    """Proper(C) by the recurrence as written: min over h in S of the max over the replies catching h."""
    M = C.matrix
    m, n = M.shape
    ones = [sum(1 << c for c in range(m) if M[c, j]) for j in range(n)]
    memo: dict = {}
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * m + 1000))

    def value(S: int) -> int:
        if S & (S - 1) == 0:
            return 0
        if S not in memo:
            replies = [(S & ones[j], S & ~ones[j]) for j in range(n) if S & ones[j] and S & ~ones[j]]
            best = None
            for h in (c for c in range(m) if S >> c & 1):
                worst = max(1 + value(T) for pair in replies for T in pair if not T >> h & 1)
                best = worst if best is None else min(best, worst)
            memo[S] = best
        return memo[S]

    return value((1 << m) - 1)


def naive_orders(C):
    """(best, worst) over every order of the distinct splits, or None past 8 of them."""
    kept, _ = _splits(C.matrix)
    if len(kept) > 8:
        return None
    values = [order_value(C.matrix, perm) for perm in itertools.permutations(kept)]
    return min(values), max(values)


#: The revision before the parameters as constraint problems (issue 37 part 2): "today's searches".
BASELINE = "e3c5d4f"

#: One call in a fresh process: argv[1] a JSON job, prints a JSON result (lower, upper).
DRIVER = """
import json, sys
job = json.loads(sys.argv[1])
if job.get("cli"):
    from adversary.cli import main
    import contextlib, io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(job["cli"])
    line = next(l for l in out.getvalue().splitlines() if l.strip().startswith(job["key"] + " "))
    value = line.split()[1]
    lo, _, hi = value.partition("..")
    print(json.dumps({"lower": int(lo), "upper": int(hi or lo), "code": code}))
    sys.exit(0)
import numpy as np
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.params import compute
if job["class"][0] == "random":
    _, m, n, seed = job["class"]
    C = ConceptClass.from_matrix(np.random.default_rng(seed).integers(0, 2, (m, n)).astype(bool))
elif job["class"][0] == "file":
    C = ConceptClass.from_matrix(np.load(job["class"][1]))
else:
    C = make(job["class"][0], **job["class"][1])
extra = {"method": job["method"]} if job.get("method") else {}
p = compute(C, [job["key"]], time_limit=job["time_limit"], **extra)[job["key"]]
print(json.dumps({"lower": p.lower, "upper": p.upper}))
"""


def target_jobs(quick: bool, seeds: list) -> list:
    """(label, job) pairs: the targets of issue 37 (small stand-ins with ``quick``)."""
    bw, qr = ({"d": 2}, {"p": 7}) if quick else ({"d": 4}, {"p": 31})
    md = ["monotone-disjunctions", "n=6", "k=3"] if quick else ["monotone-disjunctions", "n=12", "k=5"]
    rm, rn = (30, 8) if quick else (200, 24)
    out = [(f"blockwise-addressing d={bw['d']}", {"class": ["blockwise-addressing", bw], "key": "star"}),
           (f"qr-tournament p={qr['p']}", {"class": ["qr-tournament", qr], "key": "star"}),
           (f"qr-tournament p={qr['p']} as a matrix (no symmetry)", {"class": ["qr-tournament", qr], "key": "star",
                                                                      "matrix": True}),
           (" ".join(md) + " (littlestone params --only vc)", {"cli": ["params", *md, "--only", "vc", "--no-store",
                                                                         "--quiet"], "key": "vc"})]
    for seed in seeds:
        for key in ("vc", "dual_vc", "threshold", "star", "td", "rtd"):
            out.append((f"random {rm}x{rn} seed={seed}", {"class": ["random", rm, rn, seed], "key": key}))
    return out


def as_matrix(job: dict, folder: str) -> dict:
    """The job with its family class saved as a ``.npy`` matrix in ``folder`` (for the baseline, which does not know
    the families added since, and for the rows that time a class given as a matrix)."""
    import numpy as np

    if job.get("cli") or job["class"][0] in ("random", "file"):
        return job
    name, params = job["class"]
    path = str(Path(folder) / (name + "_" + "_".join(f"{k}{v}" for k, v in params.items()) + ".npy"))
    np.save(path, make(name, **params).matrix)
    return dict(job, **{"class": ["file", path]})


def run_job(job: dict, path: str, time_limit: float, method=None) -> tuple:
    """(text, seconds, exact): one call in a fresh process with ``path`` first on PYTHONPATH."""
    import json
    import os
    import subprocess

    job = dict(job, time_limit=time_limit, **({"method": method} if method else {}))
    if job.get("cli"):
        job["cli"] = [*job["cli"], "--time-limit", str(time_limit)]
    env = dict(os.environ, PYTHONPATH=path)
    t = time.monotonic()
    try:
        p = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(job)], capture_output=True, text=True, env=env,
                           timeout=time_limit + 120, cwd=path)
    except subprocess.TimeoutExpired:
        return f"killed after {time_limit + 120:g} s", time.monotonic() - t, False
    seconds = time.monotonic() - t
    if p.returncode != 0:
        return f"error: {(p.stderr.strip().splitlines() or ['?'])[-1][:80]}", seconds, False
    got = json.loads(p.stdout.strip().splitlines()[-1])
    if got["lower"] == got["upper"]:
        return f"{got['lower']}", seconds, True
    return f"{got['lower']}..{got['upper']} (stopped)", seconds, False


def targets(args) -> int:
    import shutil
    import subprocess
    import tempfile

    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    folder = tempfile.mkdtemp(prefix="bench_params_baseline_")
    try:
        archive = subprocess.run(["git", "archive", args.baseline, "solvers", "adversary"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        head = ["target", "key", f"today ({args.baseline})", "s", "now (auto)", "s", *(["sat", "s"] if args.sat else []),
                "now exact < 10 s"]
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        values = {}
        for name, job in target_jobs(args.quick, seeds):
            plain = as_matrix(job, folder)
            now = plain if job.get("matrix") else job
            old, old_s, _ = run_job(plain, folder, args.time_limit)
            new, new_s, exact = run_job(now, str(ROOT), args.time_limit)
            cells = [name, job["key"], old, f"{old_s:.2f}", new, f"{new_s:.2f}"]
            if args.sat:
                if job.get("cli"):
                    cells += ["-", "-"]
                else:
                    by_sat, sat_s, _ = run_job(now, str(ROOT), args.time_limit, method="sat")
                    cells += [by_sat, f"{sat_s:.2f}"]
            cells.append("yes" if exact and new_s < 10 else "NO")
            print("| " + " | ".join(cells) + " |", flush=True)
            values[(name, job["key"])] = (old, new)
        # where both are exact they must agree
        bad = [k for k, (a, b) in values.items() if a.isdigit() and b.isdigit() and a != b]
        for k in bad:
            print(f"MISMATCH {k}: today {values[k][0]}, now {values[k][1]}")
        return 1 if bad else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="the small classes only")
    p.add_argument("--targets", action="store_true", help="issue 37's targets, today's code against this tree's")
    p.add_argument("--baseline", default=BASELINE, help="the revision whose code is 'today' (default %(default)s)")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per call with --targets (default 60)")
    p.add_argument("--seeds", default="1,2,3", help="the random 200x24 classes' seeds with --targets")
    p.add_argument("--sat", action="store_true", help="with --targets, also the constraint route alone")
    args = p.parse_args(argv)
    if args.targets:
        return targets(args)
    head = ["class", "|C|", "|X|", *KEYS, "proper naive s", "x", "orders naive s", "x"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for name, C in classes(args.quick):
        r = compute(C, KEYS)
        cells = [f"{r[k].value} ({r[k].seconds:.2f} s)" for k in KEYS]
        t = time.monotonic()
        assert naive_proper(C) == r["proper"].value
        proper_s = time.monotonic() - t
        t = time.monotonic()
        got = naive_orders(C)
        orders_s = time.monotonic() - t
        if got is not None:
            assert got == (r["best_order"].value, r["worst_order"].value)
        search_s = r["best_order"].seconds + r["worst_order"].seconds
        print(f"| {name} | {C.n_concepts} | {C.n_points} | " + " | ".join(cells) +
              f" | {proper_s:.2f} | {proper_s / max(r['proper'].seconds, 1e-6):.1f} | "
              + (f"{orders_s:.2f} | {orders_s / max(search_s, 1e-6):.1f} |" if got is not None else "- | - |"),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
