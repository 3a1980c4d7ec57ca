"""Upper-bound certificates of rectangles on the N x N grid over the search's own states, and their checker.

The path form of :func:`solvers.certificates.verify_upper` names every version space by its labelled points and
counts it over all (N (N + 1) / 2)^2 + 1 rectangles: at N = 64 (4.3 million rectangles) the refutation of Opt >= 21
needs more than 100,000 such entries. This form, which
:meth:`solvers.opt.rectangles.RectangleSolver.upper_proof` writes when the path form would be too long, names the
two kinds of states of that search instead, each up to the 8 symmetries of the square::

    {"kind": "upper-bound-states", "family": "rectangles", "params": {"N": N}, "bound": u, "entries": [
        {"negatives": [[i, j], ...], "bound": h},           # an A-state
        {"extensions": [[eL, eR, eD, eU], ...], "bound": h}, # a B-state
    ...]}

* An **A-state** claims Opt <= h for the version space left when the grid points ``negatives`` were labelled 0 and
  no point 1: the empty rectangle and every rectangle avoiding them.
* A **B-state** claims Opt <= h for a version space left after a positive example: the positives span a box, and
  a consistent rectangle is the box extended by eL columns to the left, eR to the right, eD rows down and eU up.
  The consistent extensions form a down-set (a smaller rectangle around the box avoids every negative a larger
  one avoids, and stays on the grid), given by its maximal elements ``extensions``. A point beyond the box by the
  vector v (at most one of its L, R parts and one of its D, U parts non-zero) is labelled 1 by exactly the
  extensions e >= v: its 1-side is the down-set from v on (the box grown to hold the point), its 0-side the
  down-set without the extensions >= v; a point inside the box, or beyond the down-set's extent, splits nothing.
  So the version space's Opt is that of the down-set with these splits, wherever the box lies.

:func:`check_rectangles` recomputes every state from the definition of the class, never from the solver. For an
A-state it builds the rectangles avoiding the negatives and counts, for every grid point, the ones holding it (by
prefix sums over the rectangles' ends); for a B-state it counts every vector's 1-side by suffix sums over the
down-set. An entry is valid when its state has fewer than 2^(h+1) concepts (the Halving bound, [OnlineAlgs]) or,
for every point, one side has fewer than 2^h concepts or is a state that an entry claims at most h - 1 for. A
point's 0-side of an A-state is the A-state with the point added; its 1-side is the B-state around the box of that
one point, whose extensions the checker builds from the negatives. States are matched up to the square's
symmetries, which carry rectangles onto rectangles (renaming points keeps Opt). The entry with no negatives is the
whole class and must claim at most u. By the recurrence of [Rivest94] and induction every claim is then true.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
Rectangles on the 3 x 3 grid: 37 concepts, Opt = 4 (floor(log2 37) = 5). Every point's 1-side has fewer than 16
rectangles but the centre's, whose extensions form the full 2 x 2 x 2 x 2 box, and the centre's 0-side leaves 21:

>>> from solvers.classes.evaluated import EvaluatedClass
>>> C = EvaluatedClass("rectangles", {"N": 3})
>>> proof = {"kind": "upper-bound-states", "family": "rectangles", "params": {"N": 3}, "bound": 4,
...          "entries": [{"negatives": [], "bound": 4}, {"negatives": [[2, 2]], "bound": 3}]}
>>> check_rectangles(proof, C)
4
>>> del proof["entries"][1]
>>> check_rectangles(proof, C)
Traceback (most recent call last):
...
solvers._errors.TreeError: entry 0 (an A-state, Opt <= 4): the point (2, 2) leaves 16 rectangles on its 1-side and 21 on its 0-side, and neither is shown to be worth at most 3
"""

from __future__ import annotations

import numpy as np

from .._errors import TreeError
from ._reading import _show, entry_list, whole

__all__ = ["check_rectangles"]

#: The 8 symmetries of the square on a B-state's axes (L, R, D, U): the permutations keeping {L, R} and {D, U}.
_AXES = ((0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 3, 2), (1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 0, 1), (2, 3, 1, 0), (3, 2, 1, 0))


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _worth(n: int, h: int) -> bool:
    """Fewer than 2^h concepts (Opt <= h - 1 by the Halving bound; no concept at all splits nothing)."""
    return n.bit_length() <= h


class _Grid:
    """The rectangles of the N x N grid, counted from their definition."""

    def __init__(self, N: int):
        self.N = N
        ends = np.arange(1, N + 1)
        self.a, self.b = ends[:, None], ends[None, :]  # a rectangle's side [a, b], a <= b

    def avoiding(self, Q) -> np.ndarray:
        """A[a1 - 1, b1 - 1, a2 - 1, b2 - 1]: the rectangle [a1, b1] x [a2, b2] exists and holds no point of Q."""
        a, b = self.a, self.b
        side = a <= b
        A = side[:, :, None, None] & side[None, None, :, :]
        for i, j in Q:
            rows = (a <= i) & (i <= b)
            cols = (a <= j) & (j <= b)
            A &= ~(rows[:, :, None, None] & cols[None, None, :, :])
        return A

    def holding(self, A: np.ndarray) -> np.ndarray:
        """H[i - 1, j - 1]: the rectangles of A holding the point (i, j): a1 <= i <= b1 and a2 <= j <= b2."""
        N = self.N
        idx = np.arange(N)
        # along the second axis pair: sum over a2 <= j (prefix over a2) and b2 >= j (suffix over b2), at [j, j]
        P = np.cumsum(A, axis=2, dtype=np.int64)
        P = np.flip(np.cumsum(np.flip(P, axis=3), axis=3), axis=3)
        T = P[:, :, idx, idx]  # T[a1, b1, j]
        T = np.cumsum(T, axis=0)
        T = np.flip(np.cumsum(np.flip(T, axis=1), axis=1), axis=1)
        return T[idx, idx, :]

    def extensions(self, Q, p) -> np.ndarray:
        """The B-state after the point p = (i, j) labelled 1 and Q labelled 0: E[eL, eR, eD, eU] when the
        rectangle [i - eL, i + eR] x [j - eD, j + eU] lies on the grid and holds no point of Q."""
        i, j = p
        N = self.N
        E = np.ones((i, N - i + 1, j, N - j + 1), dtype=bool)
        for qi, qj in Q:
            # the rectangle holds q exactly when it reaches q's row and column from p: e >= the vector to q
            v = [0, 0, 0, 0]
            v[0 if qi < i else 1] = abs(qi - i)
            v[2 if qj < j else 3] = abs(qj - j)
            E[v[0]:, v[1]:, v[2]:, v[3]:] = False
        return E


def _trim(B: np.ndarray) -> np.ndarray:
    """The down-set B cut to its extent (no all-False slice at the high end of an axis)."""
    if not B.any():
        return np.zeros((0, 0, 0, 0), dtype=bool)
    keep = []
    for axis in range(4):
        others = tuple(k for k in range(4) if k != axis)
        keep.append(int(np.flatnonzero(B.any(axis=others))[-1]) + 1)
    return B[: keep[0], : keep[1], : keep[2], : keep[3]]


def _b_key(B: np.ndarray) -> tuple:
    """The least of the 8 images of the down-set B under the square's symmetries (shape, then bits)."""
    B = _trim(B)
    return min(("b", np.transpose(B, p).shape, np.packbits(np.transpose(B, p), axis=None).tobytes()) for p in _AXES)


def _a_key(Q, N: int) -> tuple:
    """The least of the 8 images of the point set Q under the square's symmetries (sorted points)."""
    M = N + 1

    def images(p):
        i, j = p
        return ((i, j), (i, M - j), (M - i, j), (M - i, M - j), (j, i), (j, M - i), (M - j, i), (M - j, M - i))

    ims = [images(p) for p in Q]
    return ("a", min(tuple(sorted(im[g] for im in ims)) for g in range(8)))


def _down_set(maximal) -> np.ndarray:
    """The down-set of 4-vectors of whole numbers generated by ``maximal``."""
    shape = tuple(max(m[k] for m in maximal) + 1 for k in range(4))
    B = np.zeros(shape, dtype=bool)
    for m in maximal:
        B[: m[0] + 1, : m[1] + 1, : m[2] + 1, : m[3] + 1] = True
    return B


def _vectors(shape):
    """Every vector beyond a box within ``shape``: one direction, or one horizontal and one vertical."""
    for a in range(4):
        for t in range(1, shape[a]):
            yield tuple(t if k == a else 0 for k in range(4))
    for h in (0, 1):
        for v in (2, 3):
            for x in range(1, shape[h]):
                for y in range(1, shape[v]):
                    yield tuple(x if k == h else y if k == v else 0 for k in range(4))


def check_rectangles(proof: dict, C) -> int:
    """Check a certificate of kind ``upper-bound-states`` for ``rectangles N`` (module docstring); return its bound.

    Raises
    ------
    TreeError
        One line: malformed, for another class, or an entry that does not hold.
    """
    family, params = getattr(C, "family", None), dict(getattr(C, "params", {}) or {})
    if family != "rectangles":
        raise TreeError(f"the certificate is for rectangles N={_show((proof.get('params') or {}).get('N'))}, and the "
                        f"class given is {'not made by a family' if family is None else family}; give 'rectangles' "
                        "with its N")
    if proof.get("params") != params:
        raise TreeError(f"the certificate is for rectangles {_show(proof.get('params'))}, and the class given is "
                        f"rectangles {_show(params)}")
    N = params["N"]
    u = whole(proof.get("bound"), "bound")
    entries = entry_list(proof, '{"negatives": [[i, j], ...], "bound": h} or {"extensions": [[eL, eR, eD, eU], ...], '
                                '"bound": h}')
    grid = _Grid(N)
    claims: dict[tuple, int] = {}
    states = []
    for k, e in enumerate(entries):
        if not isinstance(e, dict) or set(e) not in ({"negatives", "bound"}, {"extensions", "bound"}):
            raise TreeError(f'entry {k} is neither {{"negatives": [[i, j], ...], "bound": h}} nor '
                            '{"extensions": [[eL, eR, eD, eU], ...], "bound": h}')
        h = e["bound"]
        if not _whole(h):
            raise TreeError(f"entry {k} claims bound {_show(h)}, not a whole number >= 0")
        if "negatives" in e:
            Q = e["negatives"]
            if not isinstance(Q, list) or not all(
                    isinstance(q, list) and len(q) == 2 and all(_whole(c) and 1 <= c <= N for c in q) for q in Q):
                raise TreeError(f"entry {k} has negatives {_show(Q)}; give grid points [i, j] with 1 <= i, j <= {N}")
            Q = frozenset(tuple(q) for q in Q)
            key = _a_key(Q, N)
            states.append((k, "a", Q, h))
        else:
            M = e["extensions"]
            if not isinstance(M, list) or not M or not all(
                    isinstance(m, list) and len(m) == 4 and all(_whole(c) and c < N for c in m) for m in M):
                raise TreeError(f"entry {k} has extensions {_show(M)}; give a non-empty list of [eL, eR, eD, eU], each "
                                f"a whole number below {N}")
            key = _b_key(_down_set(M))
            states.append((k, "b", M, h))  # (the down-set built again when checked: kept, 52,916 of them take GBs)
        claims[key] = min(h, claims.get(key, h))
    total = (N * (N + 1) // 2) ** 2 + 1
    if not _worth(total, u + 1) and claims.get(_a_key((), N), u + 1) > u:
        raise TreeError(f"no entry with no negatives (the whole class) claims Opt(C) <= {u}")

    def shown(key, h) -> bool:
        return claims.get(key, h) <= h - 1

    for k, kind, S, h in states:
        if kind == "a":
            A = grid.avoiding(S)
            n = 1 + int(A.sum())
            if _worth(n, h + 1):
                continue
            if h == 0:
                raise TreeError(f"entry {k} claims Opt <= 0 for {n} concepts")
            H = grid.holding(A)
            for i, j in np.argwhere(~((H < 1 << h) | (n - H < 1 << h))):
                p = (int(i) + 1, int(j) + 1)
                if p in S:
                    continue  # (labelled 0 already: no rectangle of A holds it, so it splits nothing)
                if shown(_a_key(S | {p}, N), h):
                    continue
                E = grid.extensions(S, p)
                if int(E.sum()) != int(H[i, j]):
                    raise TreeError(f"internal error: the 1-side of {p} in entry {k} was counted two ways differently")
                if shown(_b_key(E), h):
                    continue
                raise TreeError(f"entry {k} (an A-state, Opt <= {h}): the point {p} leaves {int(H[i, j])} rectangles "
                                f"on its 1-side and {n - int(H[i, j])} on its 0-side, and neither is shown to be worth "
                                f"at most {h - 1}")
            continue
        B = _trim(_down_set(S))
        n = int(B.sum())
        if _worth(n, h + 1):
            continue
        if h == 0:
            raise TreeError(f"entry {k} claims Opt <= 0 for {n} concepts")
        up = np.flip(B, (0, 1, 2, 3))
        for axis in range(4):
            up = np.cumsum(up, axis=axis, dtype=np.int64)
        up = np.flip(up, (0, 1, 2, 3))  # up[v]: the extensions e >= v
        for v in _vectors(B.shape):
            c1 = int(up[v])
            if _worth(c1, h) or _worth(n - c1, h):
                continue
            one = B[v[0]:, v[1]:, v[2]:, v[3]:]
            if shown(_b_key(one), h):
                continue
            zero = B.copy()
            zero[v[0]:, v[1]:, v[2]:, v[3]:] = False
            if shown(_b_key(zero), h):
                continue
            raise TreeError(f"entry {k} (a B-state, Opt <= {h}): the vector {list(v)} beyond the box leaves {c1} "
                            f"rectangles on its 1-side and {n - c1} on its 0-side, and neither is shown to be worth at "
                            f"most {h - 1}")
    return u
