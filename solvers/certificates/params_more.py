"""Checkers of the witnesses of the parameters of :mod:`solvers.params` past its first nine, written from the
definitions without the searches (:func:`check_more` returns ``(ok, message, lower, upper)``: the bounds the witness
proves by itself, None on a side it does not).

* ``threshold_chain``, ``path``, ``eluder``, ``covc``: the structure given is replayed on the matrix (the lower
  side); the upper side is the bound of every class counted again, else the search's (said, not replayed).
* ``min_star``: the labelling g given has a star of the value's size around it and none of value + 1 points, every
  set of that size tried (the upper side, where at most :data:`EXHAUSTIVE` sets); a shattered set of the value's
  size proves the lower side.
* ``min_td``: the concept's teaching set (upper); no set of one point fewer teaches any concept (lower, every set
  tried where few enough).
* ``xtd``: no set of value - 1 points specifies the labelling given (lower, every set tried); where 2^n labellings
  times the sets of value points are few enough, every labelling is specified by one of them (upper).
* ``nctd``: the sets are non-clashing and at most the value large (upper); the count of labelled samples (lower,
  counted here) or CP-SAT's optimality (said).
* ``self_directed``, ``mq``, ``peq``, ``mpeq``, ``meq``: the learner's strategy table is played against every
  target and every answer (upper); mq's ceil(log2 |C|), or a plain minimax written here over every move the
  definition allows on classes of at most :data:`GAME_CONCEPTS` concepts, proves the lower side.
* ``partial_eq``: likewise, its queries labels on some points ("-" elsewhere); the plain minimax on at most 6
  distinct splits, and past that a minimax with one query per threshold (:func:`_partial_by_threshold`, on at
  most :data:`PARTIAL_CONCEPTS` concepts and :data:`EXHAUSTIVE` version spaces), which rests on the value being
  monotone.
* ``rtd_p``: the peeling of C restricted to the points given is checked as ``rtd`` is (lower); the upper side is
  the search's.
* ``prefix_2``, ``prefix_3``, ``block_2``: the tree is walked: complete to the value's depth, every path realised
  by the concept at its leaf, the prefix's levels (the blocks' second levels) asking one point (lower); a plain
  recursion written here over every version space, on at most :data:`GAME_CONCEPTS` concepts, proves the upper
  side.
* ``majority``: the run of counterexamples is replayed against the Halving learner's votes (lower); every run is
  played where the version spaces reached are few enough (both sides).
* ``req``, ``rpeq``: the learner's tree is played against every target, each counterexample taken in turn and
  weighted as mu (uniform on the points) gives it, in exact fractions: its worst expected cost is the upper side.
  On at most :data:`RANDOM_CONCEPTS` concepts and points, every cost vector of every deterministic learner is
  enumerated here (their Pareto frontier, version space by version space), which proves both sides.
* ``dual_opt``: the mistake tree and the upper-bound certificate, checked on the dual class by
  :func:`solvers.certificates.verify_tree` and :func:`solvers.certificates.verify_upper`.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

__all__ = ["check_more", "KEYS", "EXHAUSTIVE", "GAME_CONCEPTS", "RANDOM_CONCEPTS"]


class _Bad(ValueError):
    """A witness that does not say what it must (its message says what)."""

#: The keys checked here.
KEYS = ("dual_opt", "threshold_chain", "path", "eluder", "covc", "min_star", "min_td", "xtd", "nctd", "rtd_p",
        "self_directed", "mq", "peq", "mpeq", "meq", "partial_eq", "majority", "prefix_2", "prefix_3", "block_2",
        "req", "rpeq")
#: The most sets of points (times labellings, for xtd) an exhaustive check tries.
EXHAUSTIVE = 200_000
#: The most concepts on which the games' lower side is recomputed here by plain minimax.
GAME_CONCEPTS = 14
#: The most concepts on which partial_eq's lower side is recomputed here with one query per threshold (halfspaces
#: n = 3, 104 concepts, takes 0.02 s; all functions on 12 points, 4,096, passed the 200,000 version spaces in 9 s).
PARTIAL_CONCEPTS = 128
#: The most concepts (and points) on which every learner's costs for random equivalence queries are enumerated here.
RANDOM_CONCEPTS = 5


def _split_points(M) -> int:
    return int((M.min(axis=0) != M.max(axis=0)).sum()) if M.shape[0] else 0


def _upper_text(key, M, w, p, claim, text, bound) -> tuple:
    value = p.get("value", p.get("upper"))
    up = (w.get("upper") or {}) if isinstance(w.get("upper"), dict) else {}
    if value is None:
        return True, text, claim, None
    if up.get("by") == "bound":
        if bound == value:
            return True, f"{text}; <= {value}: {up.get('text', 'the bound of every class')} (counted)", claim, value
        return True, f"{text}; upper {value} not proven by the bound of every class ({bound})", claim, None
    return True, f"{text}; <= {value}: the search went through (not replayed here)", claim, None


def _ints(xs, bound: int, what: str = "point") -> list:
    """The ints of ``xs``, each in range(bound) (a point index below n, a concept index below m, a label below 2);
    anything else (a bool, a float, a negative index numpy would read from the end) is refused."""
    out = []
    for x in xs:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 0 <= int(x) < bound:
            raise _Bad(f"{x!r} is not a {what} (an int from 0 to {bound - 1})")
        out.append(int(x))
    return out


def _distinct(xs: list, what: str = "points") -> list:
    if len(set(xs)) != len(xs):
        raise _Bad(f"the {what} given repeat")
    return xs


def check_more(C, key: str, p: dict, *, rtd=None) -> tuple:
    """``(ok, message, lower, upper)`` of the JSON ``p`` of parameter ``key`` of ``C``; ``rtd(C, "rtd", p)``: the
    checker of RTD's peeling (:func:`solvers.certificates.params.check_bounds`), for rtd_p."""
    M = np.asarray(C.matrix, dtype=np.int64)
    m, n = M.shape
    w = p.get("witness") or {}
    claim = p.get("value", p.get("lower"))
    chain_cap = min(max(m - 1, 0), _split_points(M))
    if key in ("threshold_chain", "path"):  # c_k = c_0 flipped at x_1..x_k on the points; a chain's c_0 is 0 there
        xs, cs = _ints(w.get("points") or [], n), _ints(w.get("concepts") or [], m, "concept")
        d = len(xs)
        if claim != d or (d and len(cs) != d + 1) or len(set(xs)) != d:
            return False, f"{key}: give d points and d + 1 concepts, d the value", None, None
        base = [0] * d if key == "threshold_chain" or not d else [int(M[cs[0], x]) for x in xs]
        for k, c in enumerate(cs):
            for j, x in enumerate(xs, start=1):
                want = base[j - 1] ^ int(j <= k)
                if M[c, x] != want:
                    return False, f"{key}: concept {c} at point {x} is {M[c, x]}, not {want}", None, None
        what = f"the {d + 1} nested traces check" if key == "threshold_chain" else f"the path of {d + 1} traces checks"
        return _upper_text(key, M, w, p, d, f"{key} >= {d}: {what}", chain_cap)
    if key == "eluder":
        xs, hs = _ints(w.get("points") or [], n), _ints(w.get("concepts") or [], m, "concept")
        d = len(xs)
        if claim != d or len(hs) != d or len(set(xs)) != d:
            return False, "eluder: give the base, and as many points as concepts as the value", None, None
        if d:
            b, = _ints([w["base"]], m, "concept")
            for i, (x, h) in enumerate(zip(xs, hs)):
                if M[h, x] == M[b, x] or any(M[h, y] != M[b, y] for y in xs[:i]):
                    return False, f"eluder: concept {h} does not differ from the base at point {x} alone so far", \
                        None, None
        return _upper_text(key, M, w, p, d, f"eluder >= {d}: the sequence checks", chain_cap)
    if key == "covc":
        S, T = _ints(w.get("points") or [], n), _ints(w.get("labels") or [], 2, "label")
        hs = _ints(w.get("neighbours") or [], m, "concept")
        d = len(S)
        if claim != d or len(T) != d or len(hs) != d or len(set(S)) != d:
            return False, "covc: give d points, the labels there and d neighbours, d the value", None, None
        if d and (M[:, S] == T).all(axis=1).any():
            return False, "covc: a concept gives the labels, so they are no hole", None, None
        for j, h in enumerate(hs):
            want = list(T)
            want[j] ^= 1
            if list(M[h, S]) != want:
                return False, f"covc: concept {h} is not the labels flipped at point {S[j]}", None, None
        return _upper_text(key, M, w, p, d, f"covc >= {d}: the hollow star checks", min(m, n))
    if key == "min_star":
        return _check_min_star(M, w, p, claim)
    if key == "min_td":
        return _check_min_td(M, w, p, claim)
    if key == "xtd":
        return _check_xtd(M, w, p, claim)
    if key == "nctd":
        return _check_nctd(M, w, p, claim)
    if key in ("self_directed", "mq", "peq", "mpeq", "meq", "partial_eq", "majority"):
        return _check_game(M, key, w, p, claim)
    if key == "rtd_p":
        return _check_rtd_p(C, M, w, p, claim, rtd)
    if key in ("prefix_2", "prefix_3", "block_2"):
        return _check_tree(M, key, w, p, claim)
    if key == "dual_opt":
        return _check_dual_opt(C, w, p, claim)
    if key in ("req", "rpeq"):
        return _check_random(M, key, w, p)
    return False, f"unknown parameter {key!r}", None, None


def _shattered(M, S) -> bool:
    return len({tuple(r) for r in M[:, list(S)].tolist()}) == 2 ** len(S)


def _check_min_star(M, w, p, claim) -> tuple:
    m, n = M.shape
    low = w.get("lower") or {}
    lo = None
    if low.get("by") == "vc":
        S = _ints(low.get("points") or [], n)
        if not _shattered(M, S) or len(set(S)) != len(S):
            return False, "min_star: the points given as shattered are not", None, None
        lo = len(S) if len(S) == claim else None
    if "value" not in p:
        return True, f"min_star >= {lo}: a shattered set" if lo is not None else "min_star: bounds only", lo, None
    g = w.get("labelling")
    k = claim
    if g is None or len(g) != n:
        return False, "min_star: give the labelling of every point", None, None
    g = np.asarray(_ints(g, 2, "label"), dtype=np.int64)
    S, hs = _ints(w.get("points") or [], n), _ints(w.get("neighbours") or [], m, "concept")
    h0 = None if w.get("centre") is None else _ints([w["centre"]], m, "concept")[0]
    if len(S) != k or len(set(S)) != k or len(hs) != k or (k and h0 is None):
        return False, f"min_star: give a star of {k} points around the labelling", None, None
    if k and (M[int(h0), S] != g[S]).any() or any((M[h, S] != g[S]).tolist() != [j == i for j in range(k)]
                                                 for i, h in enumerate(hs)):
        return False, "min_star: the star given is not one around the labelling", None, None
    if comb(n, k + 1) > EXHAUSTIVE:
        return True, f"min_star: the upper side not rechecked ({comb(n, k + 1)} sets)", lo, None
    for S in itertools.combinations(range(n), k + 1):
        S = list(S)
        agree = M[:, S] == g[S]
        if agree.all(axis=1).any() and all((agree.sum(axis=1) == k + 1 - 1)[~agree[:, j]].any()
                                           for j in range(k + 1)):
            return False, f"min_star: points {S} are a star of {k + 1} around the labelling given", None, None
    text = f"min_star <= {k}: no star of {k + 1} points around the labelling given ({comb(n, k + 1)} sets tried)"
    return True, text + (f"; >= {k}: a shattered set of {k} point{'s' if k != 1 else ''}" if lo is not None else
                         "; the lower side is the search's (not replayed here)"), lo, k


def _teachers(M, alive, S) -> int:
    """How many rows of ``alive`` are alone in their pattern on the points ``S``."""
    pats = [tuple(r) for r in M[np.ix_(alive, list(S))].tolist()] if S else [()] * len(alive)
    counts = {}
    for q in pats:
        counts[q] = counts.get(q, 0) + 1
    return sum(1 for q in pats if counts[q] == 1)


def _check_min_td(M, w, p, claim) -> tuple:
    m, n = M.shape
    if "value" not in p:
        return True, "min_td: bounds only (no witness)", None, None
    c, = _ints([w["concept"]], m, "concept")
    S = _distinct(_ints(w["teaching_set"], n))
    if len(S) != claim or any(h != c and (M[h, S] == M[c, S]).all() for h in range(m)):
        return False, f"min_td: the set given does not teach concept {c}, or is not {claim} points", None, None
    if claim == 0:
        return (True, "min_td = 0: the class has one concept", 0, 0) if m <= 1 else \
            (False, "min_td: two concepts need a point", None, None)
    if comb(n, claim - 1) > EXHAUSTIVE:
        return True, f"min_td <= {claim}: concept {c}'s set teaches it (the lower side not rechecked)", None, claim
    alive = list(range(m))
    for T in itertools.combinations(range(n), claim - 1):
        if _teachers(M, alive, T):
            return False, f"min_td: the {claim - 1} points {list(T)} teach a concept", None, None
    return True, f"min_td = {claim}: concept {c}'s set teaches it, and no {claim - 1} points teach any concept", \
        claim, claim


def _specified(M, f, S) -> bool:
    return int((M[:, list(S)] == f[list(S)]).all(axis=1).sum()) <= 1


def _check_xtd(M, w, p, claim) -> tuple:
    m, n = M.shape
    if "value" not in p and w.get("labelling") is None:
        return True, "xtd: bounds only (no labelling found before the search stopped)", None, None
    if claim == 0:
        ok = m <= 1
        return ok, "xtd = 0: at most one concept" if ok else "xtd: two concepts need a point", (0 if ok else None), \
            (0 if ok else None)
    f = w.get("labelling")
    if f is None or len(f) != n:
        return True, "xtd: no labelling given (bounds only)", None, None
    if claim > n:
        return False, f"xtd: {claim} is more than the {n} points", None, None
    f = np.asarray(_ints(f, 2, "label"), dtype=np.int64)
    if comb(n, claim - 1) > EXHAUSTIVE:
        return True, "xtd: the lower side not rechecked (too many sets)", None, None
    for S in itertools.combinations(range(n), claim - 1):
        if _specified(M, f, S):
            return False, f"xtd: the points {list(S)} specify the labelling given", None, None
    text = f"xtd >= {claim}: no {claim - 1} points specify the labelling given"
    if "value" not in p:
        return True, text, claim, None
    if (2 ** n) * comb(n, claim) > EXHAUSTIVE:
        return True, text + "; <= the search's (not replayed here: too many labellings)", claim, None
    sets = list(itertools.combinations(range(n), claim))
    for bits in itertools.product((0, 1), repeat=n):
        g = np.asarray(bits, dtype=np.int64)
        if not any(_specified(M, g, S) for S in sets):
            return False, f"xtd: the labelling {list(bits)} needs more than {claim} points", None, None
    return True, text + f"; <= {claim}: every labelling checked", claim, claim


def _check_nctd(M, w, p, claim) -> tuple:
    m, n = M.shape
    sets = w.get("sets")
    lo = None
    total, k = 1, 0
    while total < m and k < n:  # the labelled samples of at most k points
        k += 1
        total += comb(n, k) * 2 ** k
    if (w.get("lower") or {}).get("by") == "bound":
        if k != claim:
            return False, f"nctd: the count of labelled samples gives {k}, not {claim}", None, None
        lo = k
    if sets is None:
        return True, "nctd: no sets given (bounds only)", lo, None
    A = {int(c): _distinct(_ints(s, n)) for c, s in sets.items()}
    if sorted(A) != list(range(m)):
        return False, "nctd: give a set for every concept", None, None
    top = max((len(s) for s in A.values()), default=0)
    for c in range(m):
        for h in range(c + 1, m):
            U = sorted(set(A[c]) | set(A[h]))
            if not (M[c, U] != M[h, U]).any():
                return False, f"nctd: concepts {c} and {h} clash", None, None
    value = p.get("value", p.get("upper"))
    if top != value:
        return False, f"nctd: the largest set has {top} points, not {value}", None, None
    why = (f"; >= {lo}: {m} concepts need distinct labelled samples (counted)" if lo is not None else
           "; the lower side is CP-SAT's (its optimality, not replayed here)")
    return True, f"nctd <= {top}: the sets are non-clashing" + why, lo, top


def _bits(M) -> tuple:
    m, n = M.shape
    return [sum(1 << c for c in range(m) if M[c, x]) for x in range(n)], (1 << m) - 1


def _eq_replies(V: int, cols: list, full: int, labels, accept: bool) -> list:
    """The answers to the equivalence query proposing ``labels`` (one per point) on V: for each point, the
    concepts of V that differ there; ``accept``: {the concept proposed} too. An answer leaving V whole is refused."""
    out = []
    for col, y in zip(cols, labels):
        r = V & (full & ~col if int(y) else col)
        if r == V:
            raise _Bad("a query whose answer could leave the version space as it was")
        if r:
            out.append(r)
    return out


def _partial_replies(V: int, cols: list, full: int, labels: str) -> list:
    """The answers to the partial equivalence query ``labels`` ("0", "1", or "-" where undefined, one per point) on
    V: "yes" (the concepts agreeing wherever it is defined) and a counterexample at each point where it is. An
    answer leaving V whole is refused."""
    yes, out = V, []
    for col, y in zip(cols, labels):
        if y != "-":
            yes &= col if y == "1" else full & ~col
            out.append(V & (full & ~col if y == "1" else col))
    out.append(yes)
    if not any(y != "-" for y in labels) or V in out:
        raise _Bad("a query whose answer could leave the version space as it was")
    return [r for r in out if r]


#: The moves each game allows.
_ALLOWED = {"self_directed": ("sd",), "mq": ("mq",), "peq": ("peq",), "mpeq": ("mq", "peq"), "meq": ("mq", "eq"),
            "partial_eq": ("pq",)}


def _labels(text, n: int, alphabet: str) -> str:
    """A labelling of the n points as a string over ``alphabet``, refused otherwise."""
    if not isinstance(text, str) or len(text) != n or set(text) - set(alphabet):
        raise _Bad(f"a query must label each of the {n} points with one of {alphabet!r}")
    return text


def _replay(M, key: str, strategy: dict) -> int:
    """The worst case of the strategy table over every target and every answer."""
    m, n = M.shape
    cols, full = _bits(M)
    memo: dict = {}

    def cost(V: int) -> int:
        if V.bit_count() <= 1:
            return 0
        if V in memo:
            return memo[V]
        move = strategy.get(format(V, "x"))
        if not isinstance(move, list) or not move:
            raise _Bad(f"the strategy has no move for the version space {format(V, 'x')}")
        kind = move[0]
        if kind == "eq":
            kind = "peq" if isinstance(move[1], int) and not isinstance(move[1], bool) else "eq"
        if kind not in _ALLOWED[key]:
            raise _Bad(f"{key} does not allow the move {move[:2]!r}")
        if kind in ("mq", "sd"):
            x, = _ints([move[1]], n)
            V1, V0 = V & cols[x], V & ~cols[x]
            if not V1 or not V0:
                raise _Bad(f"point {x} does not split the version space")
            if kind == "sd":
                p, = _ints([move[2]], 2, "prediction")
                got = max(cost((V0, V1)[p]), 1 + cost((V1, V0)[p]))
            else:
                got = 1 + max(cost(V0), cost(V1))
        elif kind == "pq":
            got = 1 + max(cost(r) for r in _partial_replies(V, cols, full, _labels(move[1], n, "-01")))
        elif kind == "peq":
            g, = _ints([move[1]], m, "concept")
            got = 1 + max(cost(r) for r in _eq_replies(V, cols, full, M[g], False))
        else:
            got = 1 + max(cost(r) for r in _eq_replies(V, cols, full, _labels(move[1], n, "01"), False))
        memo[V] = got
        return got

    return cost(full)


def distinct_splits(M) -> list:
    """The first point of each split of the concepts of the 0/1 matrix M (a column equal or complementary to an
    earlier one, or constant, is left out)."""
    out, seen = [], set()
    for x in range(M.shape[1]):
        col = tuple(int(v) for v in M[:, x])
        key = min(col, tuple(1 - v for v in col))
        if len(set(col)) == 2 and key not in seen:
            seen.add(key)
            out.append(x)
    return out


def _splits_only(M):
    """M with one column per split (:func:`distinct_splits`): a column left out asks nothing another does not (a
    query or a tree node on it has a twin on the one kept)."""
    return M[:, distinct_splits(M)]


def _minimax(M, key: str) -> int:
    """The game's value by plain minimax over every version space and every move the definition allows (every
    labelling of the points for meq's equivalence queries), on one point per split (:func:`_splits_only`)."""
    M = _splits_only(M)
    m, n = M.shape
    cols, full = _bits(M)
    proposals = []
    if key in ("peq", "mpeq"):
        proposals = [M[g] for g in range(m)]
    if key == "meq":
        proposals = [np.array(bits) for bits in itertools.product((0, 1), repeat=n)]
    partials = ["".join(q) for q in itertools.product("-01", repeat=n)] if key == "partial_eq" else []

    @lru_cache(maxsize=None)
    def value(V: int) -> int:
        if V.bit_count() <= 1:
            return 0
        out = []
        for q in partials:
            try:
                out.append(1 + max(value(r) for r in _partial_replies(V, cols, full, q)))
            except _Bad:
                pass
        if key not in ("peq", "partial_eq"):
            for col in cols:
                a, b = V & ~col, V & col
                if a and b:
                    va, vb = value(a), value(b)
                    out.append((va + 1 if va == vb else max(va, vb)) if key == "self_directed" else 1 + max(va, vb))
        for g in proposals:
            try:
                out.append(1 + max(value(r) for r in _eq_replies(V, cols, full, g, False)))
            except _Bad:
                pass
        return min(out)

    return value(full)


def _partial_by_threshold(M, budget: int) -> "int | None":
    """partial_eq by minimax over the version spaces reached, with one query per threshold; None past ``budget``
    version spaces. It rests on one lemma: the value is monotone (V' within V is worth at most V: by induction on
    |V|, V's best query either stays legal on V', each answer within V's, or has an answer holding all of V', a
    proper subset of V). So a value <= d needs no other query than this one, for t = d - 1: at each split the
    label whose counterexamples (the concepts with the other label) are worth <= t, if any; a point where both
    labels qualify is a membership query worth <= d by itself; and the query is worth <= d when the concepts that
    agree with all its labels are worth <= t (no other allowed query leaves fewer)."""
    cols, full = _bits(_splits_only(M))
    memo: dict = {}

    def value(V: int) -> int:
        if V.bit_count() <= 1:
            return 0
        got = memo.get(V)
        if got is not None:
            return got
        if len(memo) > budget:
            raise _Bad("budget")
        sides = [(V & ~col, V & col) for col in cols if V & col and V & ~col]
        d = 1
        while True:
            t, yes, used = d - 1, V, False
            for zero, one in sides:
                if value(zero) <= t and value(one) <= t:
                    break
                if value(zero) <= t:  # label 1 here: a counterexample leaves the zeros
                    yes, used = yes & one, True
                elif value(one) <= t:
                    yes, used = yes & zero, True
            else:
                if not (used and value(yes) <= t):
                    d += 1
                    continue
            memo[V] = d
            return d

    try:
        return value(full)
    except _Bad:
        return None


def _majority_run(M, run) -> int:
    """Replays the counterexamples of a run of the Halving learner (ties vote 0); the number of queries."""
    cols, full = _bits(M)
    V = full
    for i, x in enumerate(run):
        if V.bit_count() <= 1:
            raise _Bad(f"the run goes on after the target is known (step {i + 1})")
        one = 2 * (V & cols[x]).bit_count() > V.bit_count()
        r = V & (full & ~cols[x] if one else cols[x])
        if not r:
            raise _Bad(f"point {x} is no counterexample to the majority vote at step {i + 1}")
        V = r
    return len(run)


def _majority_value(M, budget: int) -> "int | None":
    cols, full = _bits(M)
    memo: dict = {}

    def cost(V: int) -> int:
        if V.bit_count() <= 1:
            return 0
        if V not in memo:
            if len(memo) > budget:
                raise _Bad("budget")
            best = 0
            for col in cols:
                one = 2 * (V & col).bit_count() > V.bit_count()
                r = V & (full & ~col if one else col)
                if r:
                    best = max(best, 1 + cost(r))
            memo[V] = best
        return memo[V]

    try:
        return cost(full)
    except _Bad:
        return None


def _check_game(M, key, w, p, claim) -> tuple:
    m, n = M.shape
    lo = hi = None
    texts = []
    try:
        if key == "majority":
            run = w.get("run")
            if run is not None:
                lo = _majority_run(M, _ints(run, n))
                texts.append(f"majority >= {lo}: the run of counterexamples replays")
            v = _majority_value(M, EXHAUSTIVE)
            if v is not None:
                lo = hi = v
                texts.append(f"= {v}: every run played")
        else:
            strategy = w.get("strategy")
            if strategy is not None and "value" in p:
                hi = _replay(M, key, strategy)
                texts.append(f"{key} <= {hi}: the strategy plays against every target and answer")
            if key == "mq" and m > 1 and (m - 1).bit_length() == claim:
                lo = claim
                texts.append(f">= {claim}: ceil(log2 of {m} concepts)")
            elif m <= GAME_CONCEPTS and (key not in ("meq", "partial_eq") or
                                         _splits_only(M).shape[1] <= (10 if key == "meq" else 6)):
                lo = hi = _minimax(M, key)
                texts.append(f"= {lo}: plain minimax over every version space and move")
            elif key == "partial_eq" and m <= PARTIAL_CONCEPTS and (v := _partial_by_threshold(M, EXHAUSTIVE)) is not None:
                lo = hi = v
                texts.append(f"= {v}: minimax over every version space reached, one query per threshold (the value "
                             "is monotone)")
    except _Bad as e:
        return False, f"{key}: {e}", None, None
    value = p.get("value")
    if value is not None and ((lo is not None and lo != value) or (hi is not None and hi != value)):
        return False, f"{key}: the check gives {lo}..{hi}, not {value}", None, None
    if value is None and ((lo is not None and lo > p.get("upper", lo)) or (hi is not None and hi < p.get("lower", hi))):
        return False, f"{key}: the check gives {lo}..{hi}, outside the bounds stated", None, None
    return True, "; ".join(texts) or f"{key}: nothing to replay", lo, hi


def _check_dual_opt(C, w, p, claim) -> tuple:
    from ..classes.finite import ConceptClass
    from . import TreeError, verify_tree, verify_upper

    if C.n_points == 0:
        ok = p.get("value", p.get("upper")) == 0
        return ok, "dual_opt = 0: no points, so the dual class has no concept" if ok else \
            "dual_opt: a class with no points has dual Opt 0", (0 if ok else None), (0 if ok else None)
    D = ConceptClass.from_matrix(np.asarray(C.matrix).T)
    lo = hi = None
    texts = []
    try:
        if w.get("tree") is not None:
            lo = int(verify_tree(w["tree"], D))
            texts.append(f"dual_opt >= {lo}: the dual's mistake tree checks")
        if w.get("upper_certificate") is not None:
            hi = int(verify_upper(w["upper_certificate"], D))
            texts.append(f"<= {hi}: the dual's upper-bound certificate checks")
    except TreeError as e:
        return False, f"dual_opt: {e}", None, None
    value = p.get("value")
    if value is not None and ((lo is not None and lo != value) or (hi is not None and hi != value)):
        return False, f"dual_opt: the certificates prove {lo}..{hi}, not {value}", None, None
    return True, "; ".join(texts) or "dual_opt: no certificate given", lo, hi


def _check_rtd_p(C, M, w, p, claim, check_bounds) -> tuple:
    from ..classes.finite import ConceptClass

    m, n = M.shape
    S = _distinct(_ints(w.get("points") or [], n))
    steps = w.get("steps")
    if steps is None:
        return True, "rtd_p: bounds only (no projection given)", None, None
    if not S:
        ok = claim == 0
        return ok, "rtd_p = 0: no projection splits the class" if ok else "rtd_p: no projection given", \
            (0 if ok else None), None
    D = ConceptClass.from_matrix(M[:, S])
    index = {tuple(r): i for i, r in enumerate(np.asarray(D.matrix, dtype=np.int64).tolist())}
    mapped = [{**st, "concepts": [index[tuple(M[c, S].tolist())] for c in _ints(st["concepts"], m, "concept")],
               "sets": [_distinct(_ints(T, len(S))) for T in st["sets"]]} for st in steps]
    if any(len(set(st["concepts"])) != len(st["concepts"]) for st in mapped):
        return False, "rtd_p: two concepts of a step have one trace on the points given", None, None
    ok, why, lo, _ = check_bounds(D, "rtd", {"value": claim, "witness": {"steps": mapped}})
    if not ok:
        return False, f"rtd_p: on the points {S}: {why}", None, None
    return True, f"rtd_p >= {claim}: on the points {S}, {why}; the upper side is the search's (not replayed here)", \
        lo, None


def _tree_value(M, key: str) -> int:
    """prefix_k or block_2 by a plain recursion over version spaces (sets of concepts), on one point per split
    (:func:`_splits_only`)."""
    M = _splits_only(M)
    m, n = M.shape
    k = int(key.split("_")[1])

    @lru_cache(maxsize=None)
    def L(V: frozenset) -> int:
        return max([1 + min(L(a), L(V - a)) for x in points_of(V) for a in [split(V, x)[0]]], default=0)

    def split(V, x):
        return frozenset(h for h in V if M[h, x] == 0), frozenset(h for h in V if M[h, x] == 1)

    def points_of(V: frozenset) -> list:
        """One point per distinct split of V (a point splitting V as another does gives the same subtrees)."""
        out, seen = [], set()
        for x in range(n):
            a, b = split(V, x)
            if a and b and min(a, b, key=sorted) not in seen:
                seen.add(min(a, b, key=sorted))
                out.append(x)
        return out

    if key == "block_2":
        @lru_cache(maxsize=None)
        def B(V: frozenset) -> int:
            xs = points_of(V)
            best = 1 if xs else 0
            for x in xs:
                for y in xs:  # y splits both halves, so V, and alike points alike
                    four = [half for side in split(V, x) for half in split(side, y)]
                    if all(four) and 2 + min(B(W) for W in four) > best:
                        best = 2 + min(B(W) for W in four)
            return best

        return B(frozenset(range(m)))
    best = 0
    everyone = frozenset(range(m))
    for d in range(1, k + 1):
        for S in itertools.combinations(range(n), d):
            parts = [everyone]
            for x in S:
                parts = [half for W in parts for half in split(W, x)]
            if all(parts):
                best = max(best, d + (min(L(W) for W in parts) if d == k else 0))
    return best


def _check_tree(M, key, w, p, claim) -> tuple:
    m, n = M.shape
    tree = w.get("tree")
    lo = hi = None
    texts = []
    if tree is not None:
        k = int(key.split("_")[1])
        levels: dict = {}

        def walk(node, depth: int, path: list) -> bool:
            if depth == claim:
                return isinstance(node, int) and 0 <= node < m and all(M[node, x] == y for x, y in path)
            if not isinstance(node, dict):
                return False
            x = int(node["point"])
            if key.startswith("prefix") and depth < k and levels.setdefault(depth, x) != x:
                return False
            if key == "block_2" and depth % 2 == 1:
                parent_point = path[-1][0]
                if levels.setdefault((tuple(path[:-1]), parent_point), x) != x:
                    return False
            return all(walk(node[str(y)], depth + 1, path + [(x, y)]) for y in (0, 1))

        if not walk(tree, 0, []):
            return False, f"{key}: the tree is not a shattered {key} tree of depth {claim}", None, None
        lo = claim
        texts.append(f"{key} >= {claim}: the tree is shattered, its levels as the definition says")
    if m <= GAME_CONCEPTS:
        v = _tree_value(M, key)
        if v != p.get("value", v) or (lo is not None and v < lo):
            return False, f"{key}: a plain recursion gives {v}, not {p.get('value')}", None, None
        lo = hi = v
        texts.append(f"= {v}: a plain recursion over every version space")
    return True, "; ".join(texts) or f"{key}: nothing to replay", lo, hi


# ------------------------------------------------------------------------------------ random equivalence queries
def _fraction(v):
    """A value of the JSON (an int, or exact text "a/b") as a Fraction, refused otherwise."""
    if isinstance(v, Fraction):
        return v
    if not isinstance(v, bool) and isinstance(v, (int, str)):
        try:
            return Fraction(v)
        except (ValueError, ZeroDivisionError):
            pass
    raise _Bad(f"{v!r} is not an exact value (an int or a fraction as text, such as \"7/4\")")


def _random_hypothesis(M, key: str, query) -> list:
    m, n = M.shape
    if key == "rpeq":
        g, = _ints([query], m, "concept")
        return [int(v) for v in M[g]]
    return [int(c) for c in _labels(query, n, "01")]


def _random_cost(M, key: str, V: list, node, t: int) -> Fraction:
    """Target t's expected number of queries when the learner's tree ``node`` plays on the concepts V (a list)."""
    if len(V) <= 1:
        return Fraction(0)
    if not isinstance(node, dict) or set(node) != {"query", "after"} or not isinstance(node["after"], dict):
        raise _Bad('a node of the learner is {"query": h, "after": {point: node}} wherever two concepts are left')
    h = _random_hypothesis(M, key, node["query"])
    n = M.shape[1]
    for x in range(n):
        if all(M[c, x] != h[x] for c in V):
            raise _Bad(f"the hypothesis {node['query']!r} differs from every concept left at point {x}: a "
                       "counterexample there would leave them all")
    differ = [x for x in range(n) if M[t, x] != h[x]]
    if not differ:
        return Fraction(1)  # the hypothesis is the target: accepted
    total = Fraction(0)
    for x in differ:
        Vx = [c for c in V if M[c, x] != h[x]]
        total += _random_cost(M, key, Vx, node["after"].get(str(x)), t) if len(Vx) > 1 else 0
    return 1 + total / len(differ)


def _random_frontier(M, key: str, V: tuple, memo: dict) -> list:
    """Every cost vector (over V) some deterministic learner achieves from V, but those another is at most
    everywhere: the frontier, from every hypothesis and every choice of a vector after each counterexample."""
    if V in memo:
        return memo[V]
    if len(V) <= 1:
        return [(Fraction(0),) * len(V)]
    m, n = M.shape
    split = [x for x in range(n) if len({int(M[c, x]) for c in V}) == 2]
    if key == "rpeq":
        hyps = [[int(v) for v in M[g]] for g in range(m)]
    else:
        hyps = []
        for bits in itertools.product((0, 1), repeat=len(split)):
            h = [int(v) for v in M[V[0]]]
            for x, b in zip(split, bits):
                h[x] = b
            hyps.append(h)
    vectors = set()
    for h in hyps:
        if any(all(M[c, x] != h[x] for c in V) for x in range(n)):
            continue
        sides = [(x, tuple(c for c in V if M[c, x] != h[x])) for x in split]
        choices = [_random_frontier(M, key, Vx, memo) for _, Vx in sides]
        for pick in itertools.product(*choices):
            vec = []
            for t in V:
                differ = [x for x in range(n) if M[t, x] != h[x]]
                if not differ:
                    vec.append(Fraction(1))
                    continue
                got = Fraction(0)
                for (x, Vx), sv in zip(sides, pick):
                    if t in Vx:
                        got += sv[Vx.index(t)]
                vec.append(1 + got / len(differ))
            vectors.add(tuple(vec))
    out = [v for v in vectors if not any(u != v and all(a <= b for a, b in zip(u, v)) for u in vectors)]
    memo[V] = out
    return out


def _check_random(M, key: str, w, p) -> tuple:
    m, n = M.shape
    lo = hi = strategy = None
    texts = []
    try:
        value = None if p.get("value") is None else _fraction(p["value"])
        stated = (value, value) if value is not None else (_fraction(p.get("lower")), _fraction(p.get("upper")))
        if w.get("mu", "uniform") != "uniform":
            raise _Bad(f"the counterexamples' distribution {w.get('mu')!r} is not the uniform one over the points")
        strategy = w.get("strategy")
        if strategy is not None:
            V = list(range(m))
            hi = max((_random_cost(M, key, V, strategy, t) for t in V), default=Fraction(0))
            texts.append(f"{key} <= {hi}: the learner plays against every target and counterexample")
        if m <= RANDOM_CONCEPTS and n <= RANDOM_CONCEPTS:
            F = _random_frontier(M, key, tuple(range(m)), {})
            best = min(max(v, default=Fraction(0)) for v in F)
            lo = best
            hi = best if hi is None else hi
            texts.append(f">= {best}: every learner's costs enumerated")
    except _Bad as e:
        return False, f"{key}: {e}", None, None
    low, high = stated
    if value is not None:
        wrong = (lo is not None and lo != value) or (hi is not None and hi != value)
    else:  # a stopped search's bounds: its learner costs at most the upper one; the value, where enumerated, lies
        # within them
        wrong = (strategy is not None and hi > high) or (lo is not None and not low <= lo <= high)
    if wrong:
        return False, f"{key}: the check gives {lo}..{hi}, not {p.get('value', f'{low}..{high}')}", None, None
    return True, "; ".join(texts) or f"{key}: nothing to replay", lo, hi
