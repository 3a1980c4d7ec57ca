"""Classes given as bare matrix files (no family, no declared group): ``opt --matrix`` with the symmetry
group found by graph automorphism and with ``--no-symmetry``; and the cost of detection alone.

Each class is written by ``make(...)`` to a JSON matrix file in a temporary directory and read back with
``--matrix``, so the search knows nothing of its family. Prints one row per instance: Opt (or the bounds),
the seconds with and without detection, the group's order and source, the seconds detection took.

    python scripts/bench_symmetry.py [--time-limit S] [--only NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.classes.families import make  # noqa: E402

INSTANCES = [("halfspaces", {"n": 4}), ("decision-lists", {"n": 4}), ("decision-lists", {"n": 5}),
             ("halfspaces", {"n": 5}), ("rectangles", {"N": 8}), ("intervals", {"N": 100}),
             ("random", {"m": 10000, "N": 16}), ("random", {"m": 40000, "N": 24}), ("random", {"m": 100000, "N": 28}),
             ("monotone-disjunctions", {"n": 6, "k": 3})]


def run_opt(path: Path, limit: float, *flags: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "adversary", "opt", "--matrix", str(path), "--json", "--no-store",
                          "--quiet", "--time-limit", str(limit), *flags], capture_output=True, text=True, env=env)
    r = json.loads(out.stdout)
    r["wall"] = time.monotonic() - t
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=120, help="seconds per opt run (default 120)")
    ap.add_argument("--only", help="only instances whose label contains this")
    args = ap.parse_args()
    print("| class | size | Opt | with (s) | without (s) | speed-up | group | source | detection (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for fam, params in INSTANCES:
            label = f"{fam} " + " ".join(f"{k}={v}" for k, v in params.items())
            if args.only and args.only not in label:
                continue
            M = np.asarray(make(fam, **params).matrix, dtype=int)
            path = Path(tmp) / "class.json"
            path.write_text(json.dumps({"matrix": M.tolist()}))
            on = run_opt(path, args.time_limit)
            off = run_opt(path, args.time_limit, "--no-symmetry")

            def value(r):
                return str(r["opt"]) if r["opt"] is not None else f"{r['lower']}..{r['upper']}"

            speed = off["seconds"] / on["seconds"] if on["seconds"] else float("nan")
            print(f"| {label} | {M.shape[0]} x {M.shape[1]} | {value(on)} (off: {value(off)}) | {on['seconds']:.2f} | "
                  f"{off['seconds']:.2f} | {speed:.2f}x | {on['symmetry_order']} | {on['symmetry_source']} | "
                  f"{on['symmetry_seconds']} |", flush=True)


if __name__ == "__main__":
    main()
