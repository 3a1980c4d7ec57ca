"""The star number: the largest s with a concept c of C and points x_1..x_s such that for each i some concept of
C agrees with c on every x_j (j != i) and differs at x_i: c is the centre of a star of s neighbours on those
points (Hanneke and Yang's star number, "Minimax analysis of active learning", 2015, which governs active
learning).

Two routes (``method``): the search below, and CP-SAT with its refutation checked by a second solver
(:func:`solvers.params.sat.star`); ``"auto"`` chooses as :func:`search` says.

**The search.** For a centre c, let d(h) be the points where h differs from c and a(h) those where it agrees.
A star is a set S of points, each x of S with a neighbour h_x: x in d(h_x) and S - {x} inside a(h_x). The search
chooses points with their neighbours and keeps

* E: the concepts that agree with c on the points chosen (a later point's neighbour is one of them);
* open: the points not yet decided that every neighbour chosen agrees at (a later point must be one of them).

To beat the best star found it needs ``need`` more points of ``open``; each of them, u, has a neighbour in E that
differs at u and agrees at the other need - 1. So a concept of E agreeing at fewer than need - 1 open points is no
neighbour, a point no remaining neighbour differs at is dropped from ``open``, and so on until nothing drops; a node
is pruned when fewer than ``need`` points are left. It then branches on the open point with the fewest neighbours
(fail first): in the star with each of its neighbours (one per distinct set of points it leaves open), then out of
it. Centres are taken one per orbit of the class's
declared symmetry group (:mod:`.orbits`: a symmetry maps stars to stars).

The star number is at most |C| - 1 (a centre and s neighbours are s + 1 distinct concepts) and at most the number
of points where two concepts differ: a stopped search reports the smaller.

Examples
--------
>>> from solvers.classes.families import make
>>> search(make("singletons", N=5)).value   # the empty concept (the class has it) and its 5 neighbours
5
>>> search(make("thresholds", N=5)).value
2
>>> search(make("thresholds", N=5), method="sat").witness["upper"]["by"]
'cp-sat'
"""

from __future__ import annotations

import time
from typing import Optional

import numpy as np

from .. import interrupts

__all__ = ["search", "is_star", "star_bound", "METHODS"]

#: The routes :func:`search` takes.
METHODS = ("auto", "search", "sat")


class _Stop(Exception):
    pass


def is_star(C, centre: int, points) -> list:
    """For each point of ``points``, a concept of C that agrees with ``centre`` on the others and differs there
    (a list of concept indices), or [] when ``points`` is not a star around ``centre``."""
    M = C.matrix
    points = [int(x) for x in points]
    out = []
    for x in points:  # (numpy over the concepts: a class of millions of them takes a fraction of a second)
        others = [y for y in points if y != x]
        ok = M[:, x] != M[centre, x]
        if others:
            ok &= (M[:, others] == M[centre, others]).all(axis=1)
        if not ok.any():
            return []
        out.append(int(np.argmax(ok)))
    return out


def star_bound(C) -> tuple:
    """(bound, why): min(|C| - 1, the points where two concepts differ), the star number's bound for every class."""
    M = np.asarray(C.matrix, dtype=bool)
    m = M.shape[0]
    split = int((M.min(axis=0) != M.max(axis=0)).sum()) if m else 0
    return min(max(m - 1, 0), split), "|C| - 1 and the points where two concepts differ"


def search(C, *, time_limit: Optional[float] = None, method: str = "auto"):
    """The star number of ``C`` as a :class:`~solvers.params.ParamResult`; witness ``{"centre": c, "points": [...],
    "neighbours": [h_1, ...], "upper": {"by": ...}}``.

    ``method``: ``"search"`` (above), ``"sat"`` (:func:`solvers.params.sat.star`: CP-SAT, its refutation checked by
    a CNF on :data:`solvers.params.sat.CHECKER`), or ``"auto"``: the search for up to :data:`SEARCH_SHARE` of the
    time limit, then, if it has not settled and the CP-SAT model is small enough
    (:data:`solvers.params.sat.MODEL_MAX_TERMS`), CP-SAT from the search's star for the time left, else the search
    again from that star;
    without a time limit, the search alone. ``upper["by"]`` says what proves the upper bound: ``"search"`` (the
    search finished), ``"cp-sat"`` (with ``"checked_by"`` or ``"unchecked"``) or ``"bound"``."""
    from . import ParamResult, sat

    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from: {', '.join(METHODS)}")
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    cap, why = star_bound(C)
    if method == "sat":
        best, lower, upper, proof = _by_sat(C, deadline, None, cap, why)
    else:
        fallback = method == "auto" and time_limit is not None and \
            sat.star_size(C.n_concepts, C.n_points) <= sat.MODEL_MAX_TERMS
        best, finished = _search(C, start + SEARCH_SHARE * time_limit if fallback else deadline, None)
        lower = len(best["points"])
        if finished:
            upper, proof = lower, {"by": "search"} if lower < cap else {"by": "bound", "text": why}
        elif fallback:
            best, lower, upper, proof = _by_sat(C, deadline, best, cap, why)
        else:
            upper, proof = max(cap, lower), {"by": "bound", "text": why}
    neighbours = is_star(C, best["centre"], best["points"]) if best["points"] else []
    witness = {"centre": int(best["centre"]), "points": [int(x) for x in best["points"]], "neighbours": neighbours,
               "upper": proof}
    return ParamResult("star", lower, upper, witness)


#: The share of the time limit ``method="auto"`` gives the search before CP-SAT takes over.
SEARCH_SHARE = 0.75
#: The points the first centre's greedy star goes through before the search (its size is a first lower bound).
GREEDY = 4096


def _by_sat(C, deadline, best, cap, why) -> tuple:
    from . import sat
    from .orbits import concept_representatives

    r = sat.star(C.matrix, witness=best, upper=cap, upper_by={"by": "bound", "text": why}, deadline=deadline,
                 centres=concept_representatives(C))
    return {"centre": r.witness["centre"], "points": r.witness["points"]}, r.lower, r.upper, r.witness["upper"]


def _search(C, deadline: Optional[float], best: Optional[dict]) -> tuple:
    """(best, finished): the largest star found (``{"centre", "points"}``, at least ``best``), and whether every
    centre was searched through (so nothing larger exists)."""
    from . import Stopped, bits_of, column_bits, members, row_bits
    from .orbits import concept_representatives

    M = np.asarray(C.matrix, dtype=bool)
    m, n = M.shape
    best = dict(best or {"centre": 0, "points": []})
    cap, _ = star_bound(C)
    nodes, work = [0], [0]

    def look() -> None:
        interrupts.check()
        if deadline is not None and time.monotonic() > deadline:
            raise _Stop

    try:
        rows = row_bits(M, deadline)     # rows[h]: the points where h is 1
        cols = column_bits(M, deadline)  # cols[x]: the concepts that are 1 at x
        everyone, everywhere = (1 << m) - 1, (1 << n) - 1
        split = bits_of(M.min(axis=0) != M.max(axis=0))  # the points where some concept differs from any centre
        for c in concept_representatives(C):
            if len(best["points"]) >= cap:
                break
            look()
            me = 1 << c
            differ = [(cols[x] ^ (everyone if M[c, x] else 0)) & ~me for x in range(n)]  # concepts differing at x
            agree_at = [everyone & ~me & ~d for d in differ]                             # concepts agreeing at x
            mine = rows[c]
            agree = [everywhere & ~(r ^ mine) for r in rows]                             # points where h agrees
            if not best["points"]:  # a first star at once, greedily over the first points (a lower bound to prune by)
                E, live, greedy = everyone & ~me, [], []
                for x in members(split)[:GREEDY]:
                    if E & differ[x] and all(v & agree_at[x] for v in live):
                        live = [v & agree_at[x] for v in live] + [E & differ[x]]
                        E &= agree_at[x]
                        greedy.append(x)
                best.update(centre=c, points=greedy)

            def go(chosen: list, E: int, open_: int) -> None:
                # Hot loop: written for speed. chosen: (point, neighbour) pairs; E: the concepts that agree with c
                # on the chosen points; open_: the points every chosen neighbour agrees at.
                nodes[0] += 1
                if nodes[0] & 255 == 0:
                    look()
                size = len(chosen)
                if size > len(best["points"]):
                    best.update(centre=c, points=sorted(x for x, _ in chosen))
                while True:
                    need = len(best["points"]) + 1 - size
                    if open_.bit_count() < need:
                        return
                    # the neighbours that agree at need - 1 open points; a point none of them differs at is dropped
                    work[0] += E.bit_count() + open_.bit_count()
                    if work[0] > 65536:  # (many concepts or points: a look at the clock per 65536 of them gone through)
                        work[0] = 0
                        look()
                    good = 0
                    for i, h in enumerate(members(E)):
                        if i & 65535 == 65535:
                            look()
                        if (agree[h] & open_).bit_count() >= need - 1:
                            good |= 1 << h
                    kept, fewest, u = 0, m + 1, -1
                    for i, y in enumerate(members(open_)):
                        if i & 65535 == 65535:  # (a million points: a look at the clock per 65536)
                            look()
                        k = (good & differ[y]).bit_count()
                        if k:
                            kept |= 1 << y
                            if k < fewest:
                                fewest, u = k, y
                    if kept != open_:
                        open_ = kept
                        continue
                    # the point with the fewest neighbours: in the star (with each neighbour), then out of it
                    open_ &= ~(1 << u)
                    later = E & agree_at[u]
                    tried = set()
                    for h in members(good & differ[u]):
                        rest = open_ & agree[h]
                        if rest in tried or size + 1 + rest.bit_count() <= len(best["points"]):
                            continue
                        tried.add(rest)
                        chosen.append((u, h))
                        go(chosen, later, rest)
                        chosen.pop()

            go([], everyone & ~me, split)
        return best, True
    except (_Stop, Stopped, KeyboardInterrupt):
        return best, len(best["points"]) >= cap
