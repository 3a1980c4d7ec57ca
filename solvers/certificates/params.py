"""Checkers of the witnesses of :mod:`solvers.params`, written without the searches: each replays what the
witness claims on the class's matrix.

* ``vc``: the points are shattered (every labelling realised); ``dual_vc``: the concepts are, by the points.
* ``threshold``: the concepts c_1..c_t and points x_1..x_t have c_i(x_j) = 1 iff i <= j.
* ``star``: each neighbour agrees with the centre on the other points and differs at its own.
* For these four, the witness's ``upper`` says what proves the upper bound: a bound that holds for every class
  (counted again here, so it proves it), or the search, CP-SAT's refutation (and the second solver that checked
  it: :mod:`solvers.params.sat`), Opt(C): said in the text, not replayed.
* ``td``: every concept's set is a teaching set (so TD <= the largest), and, where the class is small enough,
  no set of one point fewer teaches the hardest concept (so TD >= it).
* ``rtd``: each step's sets teach their concepts among those left; where small enough, each step's size is the
  smallest teaching set there.
* ``best_order``, ``worst_order``: the order lists every point once, and the offline game played along it (the
  learner knowing the order, the adversary labelling consistently) has the claimed value; the game tree, when
  given, is that game's; where few enough points split C distinctly, every other order is played too (so no
  order does better, or worse).
* the parameters past these: :mod:`solvers.certificates.params_more`.
* ``proper``: the mistake tree catches every hypothesis of each version space with a reply that is a mistake and
  leaves a version space worth one less (so every proper learner errs that often); the learner, when given, picks
  a concept of each version space it reaches and errs no more than claimed whatever the adversary does.

:func:`check` returns ``(ok, message)``, the message one line; :func:`check_bounds` also the bounds the witness
proves by itself (what the results store serves).
"""

from __future__ import annotations

import itertools
import math
import sys
from math import comb

__all__ = ["check", "check_bounds", "every_class_bound", "EXHAUSTIVE", "ORDERS"]

#: The most sets of points the lower-bound checks of td and rtd try.
EXHAUSTIVE = 200_000
#: The most orders times concepts the checks of best_order and worst_order play (7! orders of 7 distinct splits on
#: 50 concepts: about 2 s).
ORDERS = 250_000


def _teaches(M, alive, c, points) -> bool:
    return all(any(M[h, x] != M[c, x] for x in points) for h in alive if h != c)


def _none_smaller(M, alive, concepts, k) -> bool | None:
    """True when no set of k - 1 points teaches any of ``concepts`` among ``alive`` (None: too many sets to try):
    every set of k - 1 points at once by numpy, in blocks, each concept's labels on a set read as a number, a
    concept taught where its number is alone in the set's column."""
    import numpy as np

    alive, n = list(alive), M.shape[1]
    if k == 0:
        return True
    k = min(k, n + 1)  # a set of more points than there are is no set: try the largest there is, all of them
    if comb(n, k - 1) * len(alive) > EXHAUSTIVE * 150:
        return None
    if k == 1:  # the empty set teaches a concept alone in the class
        return len(alive) > 1
    rows = [alive.index(c) for c in concepts]
    A = np.asarray(M, dtype=np.int64)[alive]
    sets = itertools.combinations(range(n), k - 1)
    while True:
        block = np.array(list(itertools.islice(sets, 4096)), dtype=np.intp).reshape(-1, k - 1)
        if not len(block):
            return True
        P = np.zeros((len(alive), len(block)), dtype=np.int64)
        for j in range(k - 1):
            P |= A[:, block[:, j]] << j
        order = np.argsort(P, axis=0, kind="stable")
        S = np.take_along_axis(P, order, axis=0)
        alone = np.ones(S.shape, dtype=bool)
        alone[1:] &= S[1:] != S[:-1]
        alone[:-1] &= S[:-1] != S[1:]
        taught = np.zeros(S.shape, dtype=bool)
        np.put_along_axis(taught, order, alone, axis=0)
        if taught[rows].any():
            return False


def _point_set(S, n: int) -> list:
    """The points of a teaching set: distinct ints below n (a repeated or out-of-range point is refused)."""
    S = list(S)
    if any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < n for x in S) or len(set(S)) != len(S):
        raise ValueError(f"a teaching set must be distinct points from 0 to {n - 1}, got {S}")
    return S


def check(C, key: str, p: dict) -> tuple:
    """Check the JSON of a parameter (``{"value" or "lower"/"upper", "witness"}``) of ``C``: ``(ok, message)``."""
    return check_bounds(C, key, p)[:2]


def check_bounds(C, key: str, p: dict) -> tuple:
    """``(ok, message, lower, upper)``: :func:`check`, and the bounds the witness proves on its own (None on a
    side it does not prove: a shattered set proves no upper bound; a search not replayed proves nothing)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * C.n_concepts + 1000))  # the games' recursions: one level per split
    try:
        return _check_bounds(C, key, p)
    finally:
        sys.setrecursionlimit(limit)


def _patterns(D, idx) -> int:
    """The number of distinct patterns the rows of the 0/1 matrix ``D`` make on its columns ``idx`` (by numpy: a
    class of millions of concepts is checked in a second)."""
    import numpy as np

    from ..classes.finite import row_keys  # (the keys by which a class merges its duplicate rows)

    sub = np.asarray(D[:, list(idx)], dtype=bool)
    if sub.shape[1] == 0:
        return 1 if sub.shape[0] else 0
    return len(np.unique(row_keys(sub), return_counts=True)[0])  # (counts: see certificates.opt)


def _check_bounds(C, key: str, p: dict) -> tuple:
    M = C.matrix
    w = p.get("witness") or {}
    claim = p.get("value", p.get("lower"))
    try:
        if key in ("vc", "dual_vc"):
            idx = w["points"] if key == "vc" else w["concepts"]
            D = M if key == "vc" else M.T
            if len(idx) != claim or len(set(map(int, idx))) != len(idx):
                return False, f"{key}: the {len(idx)} given are not shattered, or not {claim} of them", None, None
            if _patterns(D, idx) != 2 ** len(idx) and not (key == "dual_vc" and D.shape[0] == 0 and not idx):
                return False, f"{key}: the {len(idx)} given are not shattered, or not {claim} of them", None, None
            return _with_upper(C, key, p, f"{key} >= {claim}: {len(idx)} shattered", claim)
        if key == "threshold":
            xs, cs = w["points"], w["concepts"]
            if len(xs) != len(cs) or len(xs) != claim:
                return False, "threshold: the points and concepts must be two lists of the claimed length", None, None
            for i, c in enumerate(cs):
                for j, x in enumerate(xs):
                    if int(M[c, x]) != int(i <= j):
                        return False, (f"threshold: concept {c} at point {x} is {int(M[c, x])}, the pattern needs "
                                       f"{int(i <= j)}"), None, None
            return _with_upper(C, key, p, f"threshold >= {claim}: the half graph checks", claim)
        if key == "star":
            c, xs, hs = w["centre"], w["points"], w["neighbours"]
            if len(xs) != claim or len(hs) != len(xs):
                return False, "star: give one neighbour per point", None, None
            for x, h in zip(xs, hs):
                if M[h, x] == M[c, x] or any(M[h, y] != M[c, y] for y in xs if y != x):
                    return False, f"star: concept {h} is not the neighbour of {c} at point {x}", None, None
            return _with_upper(C, key, p, f"star >= {claim}: centre {c} and its {len(xs)} neighbours check", claim)
        if key == "td":
            sets = {int(k): _point_set(v, M.shape[1]) for k, v in w["sets"].items()}
            _point_set(w["teaching_set"], M.shape[1])
            alive = range(C.n_concepts)
            bad = [c for c, S in sets.items() if not _teaches(M, alive, c, S)]
            if bad or set(sets) != set(alive):
                return False, f"td: concept {bad[0] if bad else '?'} has no valid teaching set in the witness", \
                    None, None
            top = max(len(S) for S in sets.values())
            low = _none_smaller(M, list(alive), [w["concept"]], len(w["teaching_set"]))
            if low is False or len(w["teaching_set"]) != top or top != claim:
                return False, "td: a smaller teaching set exists for the hardest concept", None, None
            return True, f"td <= {top} (every teaching set checks)" + (
                f" and >= {top} (no {top - 1} points teach concept {w['concept']})" if low else " (lower bound not "
                "rechecked: too many sets)"), (top if low else None), top
        if key == "rtd":
            alive = list(range(C.n_concepts))
            value, exhaustive = 0, True
            for step in w["steps"]:
                for c, S in zip(step["concepts"], step["sets"]):
                    S = _point_set(S, M.shape[1])
                    if c not in alive or not _teaches(M, alive, c, S) or len(S) != step["size"]:
                        return False, f"rtd: concept {c}'s set does not teach it among those left", None, None
                low = _none_smaller(M, alive, alive, step["size"])  # no concept left has a smaller set
                if low is False:
                    return False, f"rtd: a step of size {step['size']} has a smaller teaching set", None, None
                exhaustive = exhaustive and low is not None
                value = max(value, step["size"])
                alive = [c for c in alive if c not in step["concepts"]]
            if alive or value != claim:
                return False, "rtd: the peeling must remove every concept and its largest step be the value", None, None
            return True, f"rtd = {value}: the peeling checks" + ("" if exhaustive else " (minimality not rechecked)"), (
                value if exhaustive else None), value
        if key in ("best_order", "worst_order"):
            return _check_order(M, key, w, p)
        if key == "proper":
            return _check_proper(M, w, p)
        from . import params_more

        if key in params_more.KEYS:
            return params_more.check_more(C, key, p, rtd=_check_bounds)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as e:
        return False, f"{key}: malformed witness ({e})", None, None
    return False, f"unknown parameter {key!r}", None, None


def every_class_bound(C, key: str) -> int:
    """The bound of vc, dual_vc, threshold or star that holds for every class, counted here: floor(log2) of the
    concepts (of the points, for dual_vc: 2^d patterns need 2^d distinct rows) and the points where concepts differ
    (the concepts where points differ); |C| and the distinct points some concept labels 1 (threshold: t distinct
    concepts, and t distinct columns, x_j being 1 under c_j); |C| - 1 and the points where concepts differ (star:
    a centre and s neighbours, each flipping its own point)."""
    import numpy as np

    M = np.asarray(C.matrix, dtype=bool)
    m = M.shape[0]
    if key == "dual_vc":  # the dual's concepts are the distinct points; its points split where a concept is not constant
        if M.shape[1] == 0:  # no points: the dual has no concept
            return 0
        return min(max(_distinct_columns(M).bit_length() - 1, 0), int((M.min(axis=1) != M.max(axis=1)).sum()))
    split = int((M.min(axis=0) != M.max(axis=0)).sum()) if m else 0
    if key == "vc":
        return min(max(m.bit_length() - 1, 0), split)
    if key == "threshold":
        return min(m, _distinct_columns(M[:, M.any(axis=0)]))
    return min(max(m - 1, 0), split)


def _distinct_columns(M) -> int:
    """How many distinct columns the 0/1 matrix ``M`` has (by numpy: a million columns in a fraction of a second)."""
    import numpy as np

    if M.shape[1] == 0:
        return 0
    packed = np.ascontiguousarray(np.packbits(M, axis=0).T)
    return len(np.unique(packed.view(np.dtype((np.void, packed.shape[1]))).ravel(), return_counts=True)[0])


def _with_upper(C, key: str, p: dict, text: str, claim: int) -> tuple:
    """(ok, text, lower, upper) of a witness whose lower bound ``claim`` checked: the text says what the witness's
    ``upper`` says proves the upper bound; a bound that holds for every class (``"by": "bound"``) is counted again
    here and proves it, the others (a search that went through, CP-SAT's refutation and the second solver that
    checked it, Opt) are reported, not replayed."""
    up = (p.get("witness") or {}).get("upper")
    value = p.get("value", p.get("upper"))
    if not isinstance(up, dict) or value is None:
        return True, text, claim, None
    by = up.get("by")
    if by == "bound":
        bound = every_class_bound(C, key)
        if bound == value:
            return True, f"{text}; <= {value}: {up.get('text') or 'the bound of every class'} (counted)", claim, value
        return True, f"{text}; upper {value} not proven by the bound of every class ({bound})", claim, None
    if by == "cp-sat":
        checked = (f"checked by {up['checked_by']} on a CNF written apart" if up.get("checked_by")
                   else f"not checked by a second solver: {up.get('unchecked', 'no reason given')}")
        return True, f"{text}; <= {value}: CP-SAT refuted {up.get('refuted')} ({checked}; not replayed here)", \
            claim, None
    if by == "opt":
        return True, f"{text}; <= {value}: Opt(C)'s upper bound ({up.get('text', '')}; not replayed here)", claim, None
    if by == "search":
        return True, f"{text}; <= {value}: the search went through (not replayed here)", claim, None
    return True, text, claim, None


def _offline(M, S: tuple, order: tuple, i: int, memo: dict) -> int:
    """The offline game along ``order`` from position i with the concepts S left: the learner predicts each point's
    label, the adversary picks one some concept of S gives; the most mistakes the adversary forces. A point that
    does not split S is a round with no mistake (the learner predicts the label all of S gives). ``memo`` is
    keyed by S and the points still to come, so orders that share a suffix share it."""
    while i < len(order) and len({int(M[c, order[i]]) for c in S}) == 1:
        i += 1
    if i == len(order):
        return 0
    key = (S, order[i:])
    got = memo.get(key)
    if got is None:
        x = order[i]
        later = [_offline(M, tuple(c for c in S if M[c, x] == y), order, i + 1, memo) for y in (0, 1)]
        # the learner guesses 0 or 1; the adversary answers the other when that costs the learner more
        got = memo[key] = min(max(later[guess], 1 + later[1 - guess]) for guess in (0, 1))
    return got


def _tree_ok(M, S: tuple, order: tuple, node, i: int = 0) -> bool:
    """The game tree given is the one the order gives from position i: each node the first point from i on that
    splits S, its two halves below it, its value from theirs."""
    if isinstance(node, int):
        return S == (node,)
    x = node["point"]
    pos = order.index(x)
    if pos < i or any(len({int(M[c, z]) for c in S}) > 1 for z in order[i:pos]):
        return False
    S0 = tuple(c for c in S if M[c, x] == 0)
    S1 = tuple(c for c in S if M[c, x] == 1)
    if not S0 or not S1:
        return False
    v0 = node["0"]["value"] if isinstance(node["0"], dict) else 0
    v1 = node["1"]["value"] if isinstance(node["1"], dict) else 0
    if node["value"] != (v0 + 1 if v0 == v1 else max(v0, v1)):
        return False
    return _tree_ok(M, S0, order, node["0"], pos + 1) and _tree_ok(M, S1, order, node["1"], pos + 1)


def _check_order(M, key: str, w: dict, p: dict) -> tuple:
    order = tuple(int(x) for x in w["order"])
    if sorted(order) != list(range(M.shape[1])):
        return False, f"{key}: the order must list every point once", None, None
    everyone = tuple(range(M.shape[0]))
    v = _offline(M, everyone, order, 0, {})
    claim = p["value"] if "value" in p else (p["lower"] if key == "worst_order" else p["upper"])
    if v != claim:
        return False, f"{key}: the order given forces {v} mistakes, not {claim}", None, None
    if w.get("tree") is not None and not _tree_ok(M, everyone, order, w["tree"]):
        return False, f"{key}: the game tree given is not the order's", None, None
    bound = f"{key} {'<=' if key == 'best_order' else '>='} {v}: the order replays"
    one_side = (None, v) if key == "best_order" else (v, None)
    from .params_more import distinct_splits

    splits = distinct_splits(M)
    if "value" not in p:
        return True, bound, *one_side
    m = M.shape[0]
    if key == "best_order" and v <= 1 and m >= 2 or key == "worst_order" and v == m.bit_length() - 1:
        return True, f"{key} = {v}: the order replays, and no order can do " + (
            "better (two concepts force a mistake)" if key == "best_order" else f"worse (log2 of {m} concepts)"), v, v
    if math.factorial(len(splits)) * m > ORDERS:
        return True, bound + f" (no other order rechecked: {len(splits)} distinct splits)", *one_side
    memo: dict = {}
    for perm in itertools.permutations(splits):
        u = _offline(M, everyone, perm, 0, memo)
        if (u < v) if key == "best_order" else (u > v):
            worse = "fewer" if u < v else "more"
            return False, f"{key}: the order {list(perm)} forces {u} mistakes, {worse} than {v}", None, None
    return True, f"{key} = {v}: the order replays and every order of the {len(splits)} distinct splits was played", v, v


def _check_proper(M, w: dict, p: dict) -> tuple:
    import numpy as np

    m, n = M.shape
    claim = p.get("value", p.get("lower"))
    everyone = frozenset(range(m))

    def half(S, x, y):
        return frozenset(c for c in S if M[c, x] == y)

    def lower_ok(S, node, d) -> bool:
        """Every hypothesis of S (a mask over the concepts: a class may have millions) is caught by a reply
        whose half is nonempty and worth d - 1 below it."""
        if d == 0:
            return True
        caught = np.zeros(m, dtype=bool)
        for x, y, child in node["replies"]:
            T = S & (M[:, x] == y)
            if T.any() and lower_ok(T, child, d - 1):
                caught |= M[:, x] != y
        return not (S & ~caught).any()

    tree = w.get("tree")
    lo = None
    if tree is None:
        text = f"proper >= {claim}: not rechecked (the mistake tree was too large to list)"
    elif not lower_ok(np.ones(m, dtype=bool), tree, claim):
        return False, f"proper: the mistake tree does not catch every hypothesis {claim} times", None, None
    else:
        text, lo = f"proper >= {claim}: the mistake tree catches every proper learner {claim} times", claim
    learner = w.get("learner")
    if learner is None or "value" not in p:
        why = "" if "value" not in p else " (upper bound not rechecked: the learner was too large to list)"
        return True, text + why, lo, None
    memo: dict = {}

    def most(S) -> int:
        if len(S) == 1:
            return 0
        if S not in memo:
            h = learner[format(sum(1 << c for c in S), "x")]
            if h not in S:
                raise ValueError(f"the learner predicts with concept {h}, outside its version space")
            memo[S] = max((1 + most(half(S, x, 1 - M[h, x])) for x in range(n) if half(S, x, 1 - M[h, x])),
                          default=0)
        return memo[S]

    u = most(everyone)
    if u > claim:
        return False, f"proper: the learner given errs {u} times, more than {claim}", None, None
    return True, text + f"; <= {claim}: the learner given errs at most {u} times", lo, u
