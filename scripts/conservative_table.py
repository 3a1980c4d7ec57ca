"""The exact worst cases of the seed learners A and of their conservative versions A' (the notes'
"Conservative Mistake Bound Algorithm", ``solvers.learners.conservative``) on small classes, beside A's proven
bound: the notes claim A' has A's mistake bound, not A's worst case, and the rows marked ``differs`` show where
the worst cases part.

Usage::

    python scripts/conservative_table.py [--format md|csv] [--time-limit S]

Each cell is ``littlestone attack A --class ... --strategy exact`` and ``littlestone attack conservative
learner=A --class ... --strategy exact``; a search that does not finish within the time limit shows ``>=m``.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adversary.attack import attack  # noqa: E402
from solvers.classes.families import make  # noqa: E402

CLASSES = [("thresholds", {"N": 7}), ("intervals", {"N": 5}), ("monotone-disjunctions", {"n": 3, "k": 2}),
           ("monotone-disjunctions", {"n": 4, "k": 2}), ("monotone-conjunctions", {"n": 3}),
           ("random", {"m": 8, "N": 5, "seed": 1})]
LEARNERS = ["halving", "con", "soa", "winnow1", "winnow2", "elim", "conjunction-elimination", "weighted-majority"]


def _count(r) -> str:
    if r.verdict == "unbounded":
        return "unbounded (a cycle)"
    return str(r.mistakes) if r.exact or r.verdict in ("tight", "violates") else f">={r.mistakes}"


def rows(time_limit: float) -> list:
    out = []
    for family, params in CLASSES:
        C = make(family, **params)
        for name in LEARNERS:
            try:
                a = attack(name, C, strategy="exact", time_limit=time_limit)
                b = attack("conservative", C, learner_params={"learner": name}, strategy="exact", time_limit=time_limit)
            except ValueError:
                continue  # a learner that does not read the class's points (Winnow on intervals)
            bound = a.bound.value
            exact = a.exact and b.exact and "unbounded" not in (a.verdict, b.verdict)
            out.append({"class": f"{family} " + " ".join(f"{k}={v}" for k, v in params.items()), "learner": name,
                        "A": _count(a), "A'": _count(b),
                        "bound": "none" if math.isinf(bound) else (str(int(bound)) if float(bound).is_integer()
                                                                  else f"{bound:.3g}"),
                        "differs": "differs" if exact and a.mistakes != b.mistakes else "",
                        "within": "yes" if math.isinf(bound) or (b.exact and b.verdict != "unbounded"
                                                                  and b.mistakes <= bound)
                        else "NO" if b.mistakes > bound else "not proven (a lower bound)"})
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--format", choices=("md", "csv"), default="md")
    p.add_argument("--time-limit", type=float, default=30.0, help="seconds per attack (default 30)")
    args = p.parse_args(argv)
    table = rows(args.time_limit)
    head = ["class", "learner", "A", "A'", "bound", "differs", "within"]
    if args.format == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, head, lineterminator="\n")
        w.writeheader()
        w.writerows(table)
        sys.stdout.write(buf.getvalue())
    else:
        print("| class | learner | A (worst case) | A' (worst case) | A's bound | A and A' | A' within the bound |")
        print("| --- | --- | ---: | ---: | ---: | --- | --- |")
        for r in table:
            cells = [r[k] for k in head]
            print("| " + " | ".join(cells) + " |")
    return 1 if any(r["within"] == "NO" for r in table) else 0


if __name__ == "__main__":
    sys.exit(main())
