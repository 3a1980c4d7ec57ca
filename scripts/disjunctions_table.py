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
    python scripts/disjunctions_table.py --n 1..32 --store results.db   # every cell stored with its certificates

With ``--store PATH`` each cell is looked up in the results store first (served when its certificates, re-checked,
prove the value: a rerun resumes where a stopped one ended) and written there with both certificates after it is
solved; ``scripts/results.py`` writes the README's tables from that store.

Prints the grid of values (rows k, columns n), then the time each cell took (solve, write and check
its certificates), and the total; each cell's line goes to stderr as it is proven. Stopped by Ctrl-C or SIGTERM,
it prints the grid of the cells proven so far, the cell under way as the bounds its search had proven
(``lo..hi``, not stored: a rerun with ``--store`` starts that cell again), and exits 130 (143 after SIGTERM). ``--cells FILE`` also writes one Markdown row per cell: |C|,
floor(log2 |C|), Opt, the search nodes, the certificate's entries and the seconds.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adversary.store import class_key  # noqa: E402
from solvers.certificates import verify_tree, verify_upper  # noqa: E402
from solvers.classes.spec import load_class  # noqa: E402
from solvers import interrupts  # noqa: E402
from solvers.opt import opt  # noqa: E402

FAMILY = "monotone-disjunctions"


def cell(n: int, k: int, store=None) -> dict:
    """One cell, solved and its two certificates checked (or served from ``store`` with them re-checked): a dict
    of its numbers."""
    t0 = time.monotonic()
    C = load_class({"family": FAMILY, "params": {"n": n, "k": k}})  # implicit past 2^12 points
    if store is not None:
        from adversary.store import opt_task, verified_bounds

        row = store.get("opt", class_key(C), opt_task())
        if row is not None and row.solved and row.lower_cert is not None and row.upper_cert is not None:
            lower, upper = verified_bounds(row, C)  # raises when a certificate does not check
            if lower == upper is not None:
                return {"n": n, "k": k, "concepts": C.n_concepts, "log2": C.log2_size(), "opt": lower,
                        "nodes": None, "entries": len(row.upper_cert.get("entries", [])), "solve": row.seconds,
                        "seconds": time.monotonic() - t0, "stored": True}
    r = opt(C)
    solved = time.monotonic()
    if r.stats.get("stopped") == "interrupted" and (r.value is None or r.tree is None):
        return {"n": n, "k": k, "bounds": (r.lower, r.upper)}
    if r.value is None:
        raise SystemExit(f"n={n} k={k}: not solved ({r.lower}..{r.upper})")
    tree, proof = r.tree.to_json(), r.upper_certificate(limit=10**7)
    lower, upper = verify_tree(tree, C), verify_upper(proof, C)
    if not lower == upper == r.value:
        raise SystemExit(f"n={n} k={k}: the certificates prove {lower} <= Opt <= {upper}, not Opt = {r.value}")
    if store is not None:
        from adversary.store import record_of_opt

        store.put(record_of_opt(C, r, family=FAMILY, params={"n": n, "k": k}, written=True, upper_cert=proof))
        store.flush()
    return {"n": n, "k": k, "concepts": C.n_concepts, "log2": C.log2_size(), "opt": r.value,
            "nodes": r.stats["nodes"], "entries": len(proof.get("entries", [])),
            "solve": solved - t0, "seconds": time.monotonic() - t0}


def _value(c: dict) -> str:
    return str(c["opt"])


def _seconds(c: dict) -> str:
    return f"{c['seconds']:.2f}"


def _range(text: str) -> list[int]:
    a, _, b = text.partition("..")
    return list(range(int(a), int(b or a) + 1))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", default="1..20", help="range of n, a..b (default 1..20)")
    p.add_argument("--k", default="1..5", help="range of k, a..b (default 1..5)")
    p.add_argument("--cells", metavar="FILE", help="also write one Markdown row per cell to FILE")
    p.add_argument("--store", metavar="PATH", help="the results store: cells proven there are served, new ones written")
    args = p.parse_args(argv)
    store = None
    if args.store:
        from adversary.store import Store

        store = Store(args.store)
    ns, ks = _range(args.n), _range(args.k)
    t0 = time.monotonic()
    done: dict[tuple[int, int], dict] = {}
    stopped = None  # (n, k, what the grid shows) of the cell under way when the run was stopped
    code = 0
    try:
        with interrupts.catching():
            for k in ks:
                for n in ns:
                    if k <= n:
                        try:
                            c = cell(n, k, store)
                        except KeyboardInterrupt:
                            stopped = (n, k, "stopped")
                            raise
                        if "bounds" in c:  # the search stopped by the signal, with the bounds it had proven
                            stopped = (n, k, "{}..{}".format(*c["bounds"]))
                            raise interrupts.Terminated() if signal.SIGTERM in interrupts.received \
                                else KeyboardInterrupt()
                        done[n, k] = c
                        print(f"n={n} k={k}: Opt = {c['opt']} (floor(log2 |C|) = {c['log2']}), {c['seconds']:.2f} s",
                              file=sys.stderr, flush=True)
    except KeyboardInterrupt as e:
        code = 143 if isinstance(e, interrupts.Terminated) else 130
        how = "SIGTERM" if code == 143 else "Ctrl-C"
        print(f"interrupted by {how}: {len(done)} cells proven" + (f", n={stopped[0]} k={stopped[1]} stopped"
                                                                    if stopped else ""), file=sys.stderr, flush=True)
    total = time.monotonic() - t0
    head = "| k \\ n | " + " | ".join(str(n) for n in ns) + " |"
    rule = "|---:|" + "---:|" * len(ns)

    def shown(n, k, what):
        if (n, k) in done:
            return what(done[n, k])
        if k > n:
            return f"={n}" if what is _value else ""
        return stopped[2] if stopped is not None and stopped[:2] == (n, k) and what is _value else ""

    print("Opt(monotone-disjunctions n k), every cell proven (tree and upper-bound certificate verified)\n")
    print(head + "\n" + rule)
    for k in ks:
        print(f"| {k} | " + " | ".join(shown(n, k, _value) for n in ns) + " |")
    print("\nseconds per cell (solve, certificates written and checked)\n")
    print(head + "\n" + rule)
    for k in ks:
        print(f"| {k} | " + " | ".join(shown(n, k, _seconds) for n in ns) + " |")
    served = sum(1 for c in done.values() if c.get("stored"))
    print(f"\n{len(done)} cells in {total:.1f} s; a cell k > n (=n) is the class of k = n"
          + (f"; n={stopped[0]} k={stopped[1]} was stopped ({stopped[2]}: the bounds its search had proven)"
             if stopped is not None else "")
          + (f"; {served} served from {args.store} (certificates re-checked)" if store is not None else ""))
    if store is not None:
        store.close()
    if args.cells:
        rows = ["| n | k | |C| | floor(log2 |C|) | Opt | nodes | certificate entries | solve s | total s |",
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        rows += [f"| {c['n']} | {c['k']} | {c['concepts']} | {c['log2']} | {c['opt']} | {c['nodes'] or 'stored'} | "
                 f"{c['entries']} | {c['solve']:.2f} | {c['seconds']:.2f} |" for c in done.values()]
        Path(args.cells).write_text("\n".join(rows).replace("|C|", "\\|C\\|", 2) + "\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
