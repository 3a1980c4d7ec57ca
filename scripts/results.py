"""Write the tables of docs/results.md from a results store, so that they can be regenerated and compared.

The store is filled by the commands that compute them, each writing its rows with their certificates:

    python scripts/disjunctions_table.py --n 1..32 --store results.db        # the disjunctions grid
    littlestone opt decision-lists n=6 --time-limit 3600 --store results.db # a frontier instance (bounds if stopped)

Usage::

    python scripts/results.py --store results.db            # the tables, each number as the store holds it
    python scripts/results.py --store results.db --check    # and every row's certificates re-checked first

Two tables: Opt of ``monotone-disjunctions n k`` (rows k, columns n, each cell the stored value, or its proven
bounds ``lo..hi``), and the frontier instances (each stored Opt row of another family: its bounds, the seconds of
the run that proved them, and which certificates it keeps). With ``--check`` a row whose certificates do not
prove its numbers stops the script with an error; a row whose check would take longer than ``--budget`` seconds
is marked "not re-checked".
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adversary.store import CHECK_BUDGET, Store, opt_task, verified_bounds  # noqa: E402

DISJUNCTIONS = "monotone-disjunctions"


def _text(lo, hi) -> str:
    return str(lo) if lo == hi else f"{lo}..{hi}"


def _checked(rec, budget: float) -> str:
    """'checked', 'not re-checked' (too long, or a class too large to load here) or an error."""
    from solvers.classes.evaluated import EvaluatedClass, beyond_matrix
    from solvers.classes.spec import load_class

    try:  # (past a matrix: rectangles N=64, halfspaces n=6 hold their concepts' parameters or truth tables)
        C = (EvaluatedClass(rec.family, rec.params) if beyond_matrix(rec.family, rec.params)
             else load_class({"family": rec.family, "params": rec.params}))
    except (ValueError, MemoryError) as e:
        return f"not re-checked (the class does not load here: {e})"
    notes: list = []
    lo, hi = verified_bounds(rec, C, upper_budget=budget, notes=notes, recompute=True)
    if lo is None or hi is None:
        return "not re-checked (" + "; ".join(notes or ["a side without certificate"]) + ")"
    if (str(lo), str(hi)) != (rec.lower, rec.upper):
        raise SystemExit(f"{rec.family} {rec.params}: the certificates prove {lo}..{hi}, the row says "
                         f"{rec.lower}..{rec.upper}")
    return "checked"


def tables(store: Store, *, check: bool = False, budget: float = CHECK_BUDGET) -> str:
    """The two tables, as Markdown text."""
    rows = [r for r in store.rows(kind="opt") if r.task == opt_task()]
    out = []
    grid = {(r.params.get("n"), r.params.get("k")): r for r in rows if r.family == DISJUNCTIONS}
    if grid:
        ns = sorted({n for n, _ in grid})
        ks = sorted({k for _, k in grid})
        out.append(f"Opt(monotone-disjunctions n k), {len(grid)} cells from the store\n")
        out.append("| k \\ n | " + " | ".join(str(n) for n in ns) + " |")
        out.append("|---:|" + "---:|" * len(ns))
        for k in ks:
            cells = []
            for n in ns:
                r = grid.get((n, k))
                if r is not None and check:
                    _checked(r, budget)
                cells.append("" if r is None else _text(r.lower, r.upper))
            out.append(f"| {k} | " + " | ".join(cells) + " |")
        out.append("")
    frontier = [r for r in rows if r.family != DISJUNCTIONS]
    if frontier:
        out.append("| instance | Opt | seconds | certificates | check |")
        out.append("|---|---|---:|---|---|")
        for r in sorted(frontier, key=lambda r: (r.family or "", sorted(r.params.items()))):
            params = " ".join(f"{k}={v}" for k, v in r.params.items())
            certs = ", ".join(w for w, c in (("tree", r.lower_cert), ("upper", r.upper_cert)) if c is not None) or "none"
            seconds = "" if r.seconds is None else f"{r.seconds:.0f}"
            out.append(f"| {r.family} {params} | {_text(r.lower, r.upper)} | {seconds} | {certs} | "
                       f"{_checked(r, budget) if check else ''} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--store", required=True, metavar="PATH", help="the results store to read")
    p.add_argument("--check", action="store_true", help="re-check every row's certificates first")
    p.add_argument("--budget", type=float, default=CHECK_BUDGET, help="seconds a row's check may take")
    args = p.parse_args(argv)
    if not Path(args.store).exists():
        print(f"results.py: error: no store at {args.store}; fill it first (see --help)", file=sys.stderr)
        return 2
    with Store(args.store, readonly=True) as store:
        print(tables(store, check=args.check, budget=args.budget), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
