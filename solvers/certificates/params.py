"""Checkers of the witnesses of :mod:`solvers.params`, written without the searches: each replays what the
witness claims on the class's matrix.

* ``vc``: the points are shattered (every labelling realised); ``dual_vc``: the concepts are, by the points.
* ``threshold``: the concepts c_1..c_t and points x_1..x_t have c_i(x_j) = 1 iff i <= j.
* ``star``: each neighbour agrees with the centre on the other points and differs at its own.
* ``td``: every concept's set is a teaching set (so TD <= the largest), and, where the class is small enough,
  no set of one point fewer teaches the hardest concept (so TD >= it).
* ``rtd``: each step's sets teach their concepts among those left; where small enough, each step's size is the
  smallest teaching set there.

:func:`check` returns ``(ok, message)``, the message one line.
"""

from __future__ import annotations

import itertools
from math import comb

__all__ = ["check", "EXHAUSTIVE"]

#: The most sets of points the lower-bound checks of td and rtd try.
EXHAUSTIVE = 200_000


def _teaches(M, alive, c, points) -> bool:
    return all(any(M[h, x] != M[c, x] for x in points) for h in alive if h != c)


def _none_smaller(M, alive, c, k) -> bool | None:
    """True when no set of k - 1 points teaches c among ``alive`` (None: too many sets to try)."""
    n = M.shape[1]
    if k == 0:
        return True
    if comb(n, k - 1) > EXHAUSTIVE:
        return None
    return not any(_teaches(M, alive, c, S) for S in itertools.combinations(range(n), k - 1))


def check(C, key: str, p: dict) -> tuple:
    """Check the JSON of a parameter (``{"value" or "lower"/"upper", "witness"}``) of ``C``."""
    M = C.matrix
    w = p.get("witness") or {}
    claim = p.get("value", p.get("lower"))
    try:
        if key in ("vc", "dual_vc"):
            idx = w["points"] if key == "vc" else w["concepts"]
            D = M if key == "vc" else M.T
            seen = {tuple(int(D[r, j]) for j in idx) for r in range(D.shape[0])}
            if len(seen) != 2 ** len(idx) or len(idx) != claim:
                return False, f"{key}: the {len(idx)} given are not shattered, or not {claim} of them"
            return True, f"{key} >= {claim}: {len(idx)} shattered"
        if key == "threshold":
            xs, cs = w["points"], w["concepts"]
            if len(xs) != len(cs) or len(xs) != claim:
                return False, "threshold: the points and concepts must be two lists of the claimed length"
            for i, c in enumerate(cs):
                for j, x in enumerate(xs):
                    if int(M[c, x]) != int(i <= j):
                        return False, f"threshold: concept {c} at point {x} is {int(M[c, x])}, the pattern needs {int(i <= j)}"
            return True, f"threshold >= {claim}: the half graph checks"
        if key == "star":
            c, xs, hs = w["centre"], w["points"], w["neighbours"]
            if len(xs) != claim or len(hs) != len(xs):
                return False, "star: give one neighbour per point"
            for x, h in zip(xs, hs):
                if M[h, x] == M[c, x] or any(M[h, y] != M[c, y] for y in xs if y != x):
                    return False, f"star: concept {h} is not the neighbour of {c} at point {x}"
            return True, f"star >= {claim}: centre {c} and its {len(xs)} neighbours check"
        if key == "td":
            sets = {int(k): v for k, v in w["sets"].items()}
            alive = range(C.n_concepts)
            bad = [c for c, S in sets.items() if not _teaches(M, alive, c, S)]
            if bad or set(sets) != set(alive):
                return False, f"td: concept {bad[0] if bad else '?'} has no valid teaching set in the witness"
            top = max(len(S) for S in sets.values())
            low = _none_smaller(M, alive, w["concept"], len(w["teaching_set"]))
            if low is False or len(w["teaching_set"]) != top or top != claim:
                return False, "td: a smaller teaching set exists for the hardest concept"
            return True, f"td <= {top} (every teaching set checks)" + (
                f" and >= {top} (no {top - 1} points teach concept {w['concept']})" if low else " (lower bound not "
                "rechecked: too many sets)")
        if key == "rtd":
            alive = list(range(C.n_concepts))
            value, exhaustive = 0, True
            for step in w["steps"]:
                for c, S in zip(step["concepts"], step["sets"]):
                    if c not in alive or not _teaches(M, alive, c, S) or len(S) != step["size"]:
                        return False, f"rtd: concept {c}'s set does not teach it among those left"
                lows = [_none_smaller(M, alive, c, step["size"]) for c in alive]  # no concept left has a smaller set
                low = False if False in lows else None if None in lows else True
                if low is False:
                    return False, f"rtd: a step of size {step['size']} has a smaller teaching set"
                exhaustive = exhaustive and low is not None
                value = max(value, step["size"])
                alive = [c for c in alive if c not in step["concepts"]]
            if alive or value != claim:
                return False, "rtd: the peeling must remove every concept and its largest step be the value"
            return True, f"rtd = {value}: the peeling checks" + ("" if exhaustive else " (minimality not rechecked)")
    except (KeyError, TypeError, IndexError) as e:
        return False, f"{key}: malformed witness ({e})"
    return False, f"unknown parameter {key!r}"
