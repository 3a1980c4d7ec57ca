"""The price of bandit feedback on small multiclass classes: Opt under full information and under bandit
feedback, exact (:mod:`solvers.multiclass`), their ratio, and |Y| ln |Y| (k ln k here).

opt_bandit <= (1 + o(1)) |Y| ln |Y| opt_full, and Long ("New bounds on the price of bandit feedback for
mistake-bounded online multiclass learning", ALT 2017 / TCS 2020) shows this is best possible up to the
leading constant. The o(1) is as |Y| grows, so on these small classes a row may lie above k ln k * opt_full without
contradicting it: such rows are flagged ``above``, not treated as errors. Every value's mistake tree is
replayed by :mod:`solvers.certificates.multiclass`; a row whose tree is rejected makes the script exit 1.

Usage::

    python scripts/multiclass_table.py [--format md|csv] [--time-limit S] [--seed S]

Classes: multiclass singletons N = 1..4, k = 2..5; k-label thresholds N = 1..6, k = 2..4 (and N <= 4 for
k = 5); eight random classes of 8 to 14 concepts drawn with the given seed (default 2024). A game that does
not finish within the time limit (default 10 s per game) shows its proven bounds ``lo..hi``.
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

from solvers.certificates.multiclass import check_tree  # noqa: E402
from solvers.multiclass import MulticlassSolver, make  # noqa: E402

HEAD = ["class", "k", "concepts", "opt_full", "opt_bandit", "ratio", "k ln k", "ratio / (k ln k)",
        "opt_bandit <= k ln k opt_full", "trees"]


def classes(seed: int = 2024) -> list:
    """(family, params) of every row, in order."""
    out = [("multiclass-singletons", {"N": N, "k": k}) for N in range(1, 5) for k in range(2, 6)]
    out += [("k-label-thresholds", {"N": N, "k": k}) for k in range(2, 5) for N in range(1, 7)]
    out += [("k-label-thresholds", {"N": N, "k": 5}) for N in range(1, 5)]
    shapes = [(8, 3, 3), (8, 4, 4), (10, 4, 3), (10, 3, 5), (12, 5, 4), (12, 4, 5), (14, 5, 3), (14, 4, 4)]
    out += [("random-multiclass", {"m": m, "N": N, "k": k, "seed": seed + i}) for i, (m, N, k) in enumerate(shapes)]
    return out


def _value(r) -> str:
    return str(r.value) if r.value is not None else f"{r.lower}..{r.upper}"


def row(family: str, params: dict, time_limit: float) -> dict:
    C = make(family, **params)
    S = MulticlassSolver(C)
    full, bandit = S.solve("full", time_limit=time_limit), S.solve("bandit", time_limit=time_limit)
    ok = check_tree(C, full.tree, full.lower)[0] and check_tree(C, bandit.tree, bandit.lower)[0]
    k_ln_k = C.k * math.log(C.k)
    out = {"class": f"{family} " + " ".join(f"{k}={v}" for k, v in params.items()), "k": str(C.k),
           "concepts": str(C.n_concepts), "opt_full": _value(full), "opt_bandit": _value(bandit),
           "k ln k": f"{k_ln_k:.3f}", "trees": "OK" if ok else "REJECTED"}
    if full.value is None or bandit.value is None:
        out.update({"ratio": "?", "ratio / (k ln k)": "?", "opt_bandit <= k ln k opt_full": "not known (stopped)"})
    elif full.value == 0:
        out.update({"ratio": "-", "ratio / (k ln k)": "-", "opt_bandit <= k ln k opt_full": "yes (both 0)"})
    else:
        ratio = bandit.value / full.value
        out.update({"ratio": f"{ratio:.3f}", "ratio / (k ln k)": f"{ratio / k_ln_k:.3f}",
                    "opt_bandit <= k ln k opt_full": "yes" if bandit.value <= k_ln_k * full.value else "above"})
    return out


def rows(time_limit: float = 10.0, seed: int = 2024, only=None) -> list:
    return [row(f, p, time_limit) for f, p in (only if only is not None else classes(seed))]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--format", choices=("md", "csv"), default="md")
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds per game (default 10)")
    p.add_argument("--seed", type=int, default=2024, help="seed of the first random class (default 2024)")
    args = p.parse_args(argv)
    table = rows(args.time_limit, args.seed)
    if args.format == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, HEAD, lineterminator="\n")
        w.writeheader()
        w.writerows(table)
        sys.stdout.write(buf.getvalue())
    else:
        print("| " + " | ".join(HEAD) + " |")
        print("| --- | " + " | ".join("---:" for _ in HEAD[1:-2]) + " | --- | --- |")
        for r in table:
            print("| " + " | ".join(r[h] for h in HEAD) + " |")
        above = [r["class"] for r in table if r["opt_bandit <= k ln k opt_full"] == "above"]
        print()
        print(f"{len(table)} classes; above k ln k * opt_full (allowed: Long's bound is (1 + o(1)) k ln k, "
              f"asymptotic in k): {', '.join(above) if above else 'none'}")
    return 1 if any(r["trees"] != "OK" for r in table) else 0


if __name__ == "__main__":
    sys.exit(main())
