"""Print Opt of ``monotone-disjunctions n k`` for k = 1..5, n = 1..20 (or the ranges given), every cell
proven: the value from :func:`solvers.opt.opt` (its symmetric search, :mod:`solvers.opt.disjunctions`),
then the mistake tree and the upper-bound certificate re-checked by the checkers ``littlestone verify``
uses (:func:`solvers.certificates.verify_tree`, :func:`solvers.certificates.verify_upper`). A cell whose
certificates do not both verify stops the script with an error.

The family's k is at most n; a cell with k > n shows n, the value of the same class (every OR of at
most n of n variables), marked ``=``, and is not computed again.

Usage::

    python scripts/disjunctions_table.py                 # n = 1..20, k = 1..5
    python scripts/disjunctions_table.py --n 1..12 --k 2..3 --cells cells.md

Prints the grid of values (rows k, columns n), then the time each cell took (solve, write and check
its certificates), and the total. ``--cells FILE`` also writes one Markdown row per cell: |C|,
floor(log2 |C|), Opt, the search nodes, the certificate's entries and the seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solvers.certificates import verify_tree, verify_upper  # noqa: E402
from solvers.classes.spec import load_class  # noqa: E402
from solvers.opt import opt  # noqa: E402

FAMILY = "monotone-disjunctions"


def cell(n: int, k: int) -> dict:
    """One cell, solved and its two certificates checked: a dict of its numbers."""
    t0 = time.monotonic()
    C = load_class({"family": FAMILY, "params": {"n": n, "k": k}})  # implicit past 2^12 points
    r = opt(C)
    solved = time.monotonic()
    if r.value is None:
        raise SystemExit(f"n={n} k={k}: not solved ({r.lower}..{r.upper})")
    tree, proof = r.tree.to_json(), r.upper_certificate(limit=10**7)
    lower, upper = verify_tree(tree, C), verify_upper(proof, C)
    if not lower == upper == r.value:
        raise SystemExit(f"n={n} k={k}: the certificates prove {lower} <= Opt <= {upper}, not Opt = {r.value}")
    return {"n": n, "k": k, "concepts": C.n_concepts, "log2": C.log2_size(), "opt": r.value,
            "nodes": r.stats["nodes"], "entries": len(proof.get("entries", [])),
            "solve": solved - t0, "seconds": time.monotonic() - t0}


def _range(text: str) -> list[int]:
    a, _, b = text.partition("..")
    return list(range(int(a), int(b or a) + 1))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", default="1..20", help="range of n, a..b (default 1..20)")
    p.add_argument("--k", default="1..5", help="range of k, a..b (default 1..5)")
    p.add_argument("--cells", metavar="FILE", help="also write one Markdown row per cell to FILE")
    args = p.parse_args(argv)
    ns, ks = _range(args.n), _range(args.k)
    t0 = time.monotonic()
    done: dict[tuple[int, int], dict] = {}
    for k in ks:
        for n in ns:
            if k <= n:
                done[n, k] = c = cell(n, k)
                print(f"n={n} k={k}: Opt = {c['opt']} (floor(log2 |C|) = {c['log2']}), {c['seconds']:.2f} s",
                      file=sys.stderr, flush=True)
    total = time.monotonic() - t0
    head = "| k \\ n | " + " | ".join(str(n) for n in ns) + " |"
    rule = "|---:|" + "---:|" * len(ns)
    print("Opt(monotone-disjunctions n k), every cell proven (tree and upper-bound certificate verified)\n")
    print(head + "\n" + rule)
    for k in ks:
        print(f"| {k} | " + " | ".join(str(done[n, k]["opt"]) if (n, k) in done else f"={n}" for n in ns) + " |")
    print("\nseconds per cell (solve, certificates written and checked)\n")
    print(head + "\n" + rule)
    for k in ks:
        print(f"| {k} | " + " | ".join(f"{done[n, k]['seconds']:.2f}" if (n, k) in done else "" for n in ns) + " |")
    print(f"\n{len(done)} cells in {total:.1f} s; a cell k > n (=n) is the class of k = n")
    if args.cells:
        rows = ["| n | k | |C| | floor(log2 |C|) | Opt | nodes | certificate entries | solve s | total s |",
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        rows += [f"| {c['n']} | {c['k']} | {c['concepts']} | {c['log2']} | {c['opt']} | {c['nodes']} | "
                 f"{c['entries']} | {c['solve']:.2f} | {c['seconds']:.2f} |" for c in done.values()]
        Path(args.cells).write_text("\n".join(rows).replace("|C|", "\\|C\\|", 2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
