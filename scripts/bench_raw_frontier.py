"""The raw-matrix frontier of issue 19: classes given as plain 0/1 matrix files (no family, no declared
group), each solved by ``littlestone opt --matrix FILE`` with both certificates written (``--tree``,
``--proof``) and then checked by ``littlestone verify``, as a user would run them.

For each instance the table gives |C| x |X|, Opt (or the bounds when the time limit stopped it), the
command's wall time (start-up, reading the file, symmetry detection, the search and writing both
certificates: everything but the checks), the symmetry the search used, and whether each certificate
checks. The target: each exact with both certificates within 60 s on this 2-core machine.

Usage::

    python scripts/bench_raw_frontier.py [--time-limit S] [--only NAME] [--keep DIR]

``--only`` keeps the instances whose label contains NAME; ``--keep`` writes the matrices and certificates
to DIR instead of a temporary directory. The store is not used (``--no-store``), so every run computes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solvers.classes.families import make  # noqa: E402

#: The instances the issue names, as (family, parameters).
INSTANCES = [
    ("halfspaces", {"n": 5}),
    ("decision-lists", {"n": 5}),
    ("monotone-disjunctions", {"n": 12, "k": 4}),
    ("rectangles", {"N": 20}),
]


def label(family: str, params: dict) -> str:
    return " ".join([family] + [f"{k}={v}" for k, v in params.items()])


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "adversary", *args]


def run_one(family: str, params: dict, directory: Path, time_limit: float) -> dict:
    C = make(family, **params)
    stem = directory / label(family, params).replace(" ", "_").replace("=", "")
    matrix = stem.with_suffix(".npy")
    np.save(matrix, np.asarray(C.matrix, dtype=np.uint8))
    tree, proof = Path(f"{stem}.tree.json"), Path(f"{stem}.proof.json")
    t0 = time.perf_counter()
    done = subprocess.run(cli("opt", "--matrix", str(matrix), "--json", "--no-store", "--time-limit",
                              f"{time_limit:g}", "--tree", str(tree), "--proof", str(proof)),
                          capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t0
    row = {"instance": label(family, params), "concepts": C.n_concepts, "points": C.n_points,
           "seconds": seconds, "code": done.returncode}
    try:
        out = json.loads(done.stdout)
    except json.JSONDecodeError:
        row["error"] = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return row
    row.update(opt=out.get("opt"), lower=out.get("lower"), upper=out.get("upper"),
               symmetry=out.get("symmetry_order"), source=out.get("symmetry_source"))
    for kind, path in (("tree", tree), ("proof", proof)):
        if not path.exists():
            row[kind] = "none"
            continue
        check = subprocess.run(cli("verify", str(path), "--matrix", str(matrix)), capture_output=True, text=True,
                               cwd=ROOT)
        row[kind] = "OK" if check.returncode == 0 else f"FAILED ({check.stdout.strip()[:60]})"
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description="The raw-matrix frontier: opt --matrix with both certificates.")
    ap.add_argument("--time-limit", type=float, default=60.0, help="opt's time limit per instance (default 60)")
    ap.add_argument("--only", default=None, help="keep the instances whose label contains this text")
    ap.add_argument("--keep", default=None, help="write the matrices and certificates here (default: a temp dir)")
    args = ap.parse_args()
    chosen = [(f, p) for f, p in INSTANCES if args.only is None or args.only in label(f, p)]
    if not chosen:
        print(f"no instance matches {args.only!r}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(args.keep) if args.keep else Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        print(f"{'instance':<34} {'|C| x |X|':>14} {'Opt':>9} {'seconds':>8} {'group':>8}  tree  proof")
        ok = True
        for family, params in chosen:
            r = run_one(family, params, directory, args.time_limit)
            if "error" in r:
                print(f"{r['instance']:<34} error: {r['error']}")
                ok = False
                continue
            value = str(r["opt"]) if r["opt"] is not None else f"{r['lower']}..{r['upper']}"
            size = f"{r['concepts']:,} x {r['points']}"
            print(f"{r['instance']:<34} {size:>14} {value:>9} {r['seconds']:>8.1f} {str(r['symmetry'] or '-'):>8}"
                  f"  {r['tree']:<5} {r['proof']}", flush=True)
            ok &= r["opt"] is not None and r["seconds"] <= args.time_limit and r["tree"] == r["proof"] == "OK"
    print("target (each exact, both certificates checked, within the limit):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
