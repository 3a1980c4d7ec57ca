"""Symmetry groups of concept classes: renamings of the points, each possibly with the labels complemented.

A *symmetry* of a class C over points X is a pair g = (pi, f): a permutation pi of X and a bit f. It
maps a concept c to g(c), the concept with g(c)(pi(x)) = c(x) XOR f; it is a symmetry of C when
g(C) = C. The game of [Rivest94] played on g(C) is the game on C with every point renamed and, when
f = 1, every label flipped, so Opt(V) = Opt(g(V)) for every version space V: a search may keep one
version space per orbit. Families declare their groups by generators (``Family.symmetry``); nothing
is assumed: :meth:`Symmetry.check` verifies every generator on the class's matrix before a solver
uses it.

A version space reached by labelled examples S is V = {c in C : c agrees with S}. Its *closure* is
the partial labelling of every point on which all of V agrees; V is the set of concepts agreeing with
its closure (the closure contains S), so closures name version spaces one to one, and g maps the
version space of a closure L to the version space of g(L) = {(pi(x), y XOR f) : (x, y) in L}. Two
version spaces whose closures lie in one orbit have the same Opt: that is the canonical form the
solver's memo uses (:mod:`solvers.opt.canonical`) and the one the certificate checker recomputes.

Groups here: the hyperoctahedral group on {0,1}^n (renaming and negating variables, order 2^n n!) and
its subgroup of renamings (n!); the reflections of a line and the dihedral group of a square grid.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from solvers.classes.families import make
>>> G = make("halfspaces", n=3).symmetry
>>> G.order, len(G.generators)
(96, 4)
"""

from __future__ import annotations

import itertools
from typing import Iterable

import numpy as np

__all__ = ["Symmetry", "MAX_ORDER", "cube_generators", "line_generators", "grid_generators",
           "symmetric_group_generators"]

#: The largest group :meth:`Symmetry.elements` lists (a solver uses no symmetry past it).
MAX_ORDER = 200_000


class Symmetry:
    """A group of symmetries (pi, f) of a class over ``n_points`` points, given by generators.

    Parameters
    ----------
    generators : iterable of (permutation, flip)
        ``permutation[x]`` = pi(x) for every point index x; ``flip`` True when the labels are complemented.
    n_points : int

    Raises
    ------
    ValueError
        If a permutation is not one of range(n_points).
    """

    __slots__ = ("n_points", "generators", "_elements", "_past")

    def __init__(self, generators: Iterable, n_points: int):
        gens = []
        for perm, flip in generators:
            p = tuple(int(v) for v in perm)
            if len(p) != n_points or sorted(p) != list(range(n_points)):
                raise ValueError(f"a symmetry's permutation must list each of the {n_points} point indices once")
            g = (p, bool(flip))
            if g != (tuple(range(n_points)), False) and g not in gens:
                gens.append(g)
        self.n_points = n_points
        self.generators: tuple = tuple(gens)
        self._elements = None
        self._past = None  # a limit the group is known to pass

    def __repr__(self) -> str:
        return f"Symmetry(order={self.order}, generators={len(self.generators)}, points={self.n_points})"

    @property
    def trivial(self) -> bool:
        return not self.generators

    def elements(self, limit: int = MAX_ORDER) -> tuple[np.ndarray, np.ndarray]:
        """Every element of the group: (perms, flips), perms of shape (order, n_points), identity first.

        Raises ValueError past ``limit`` (at most :data:`MAX_ORDER`) elements."""
        limit = min(limit, MAX_ORDER)
        if self._elements is None and self._past is not None and self._past <= limit:
            raise ValueError(f"the symmetry group has more than {self._past} elements")
        if self._elements is not None and len(self._elements[1]) > limit:
            raise ValueError(f"the symmetry group has more than {limit} elements")
        if self._elements is None:
            ident = (tuple(range(self.n_points)), False)
            seen = {ident: None}
            frontier = [ident]
            while frontier:
                nxt = []
                for p, f in frontier:
                    for q, h in self.generators:
                        g = (tuple(q[v] for v in p), f != h)  # first (p, f), then (q, h)
                        if g not in seen:
                            seen[g] = None
                            nxt.append(g)
                            if len(seen) > limit:
                                self._past = limit
                                raise ValueError(f"the symmetry group has more than {limit} elements")
                frontier = nxt
            elems = list(seen)
            perms = np.array([p for p, _ in elems], dtype=np.int64).reshape(len(elems), self.n_points)
            flips = np.array([f for _, f in elems], dtype=bool)
            self._elements = (perms, flips)
        return self._elements

    @property
    def order(self) -> int:
        return len(self.elements()[1])

    def check(self, matrix: np.ndarray) -> None:
        """Raise ValueError unless every generator maps the class (rows of ``matrix``) onto itself."""
        m = np.asarray(matrix, dtype=bool)
        if m.shape[1] != self.n_points:
            raise ValueError(f"the symmetry acts on {self.n_points} points, the class has {m.shape[1]}")
        rows = _row_set(m)
        for p, f in self.generators:
            # g(c)(pi(x)) = c(x) XOR f: column y of the image is column pi^-1(y) (np.take gathers a row at a
            # time; the scatter m2[:, p] = m took 20 times longer on rectangles N=28's 164,837 x 784 matrix)
            image = np.take(m, np.argsort(np.asarray(p)), axis=1)
            if f:
                image = ~image
            if _row_set(image) != rows:
                raise ValueError("a declared symmetry does not map the class onto itself")

    def to_json(self) -> dict:
        return {"points": self.n_points,
                "generators": [{"permutation": list(p), "complement": f} for p, f in self.generators]}

    @classmethod
    def from_json(cls, obj) -> "Symmetry":
        """Read :meth:`to_json`'s form; ValueError (one line) when malformed."""
        try:
            n = obj["points"]
            gens = [(g["permutation"], g["complement"]) for g in obj["generators"]]
        except (TypeError, KeyError):
            raise ValueError('a symmetry is {"points": m, "generators": [{"permutation": [...], '
                             '"complement": false}, ...]}') from None
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError("a symmetry's \"points\" must be a whole number")
        for perm, flip in gens:
            if not isinstance(flip, bool) or not isinstance(perm, list) or \
                    not all(isinstance(v, int) and not isinstance(v, bool) for v in perm):
                raise ValueError("a symmetry generator is a list of point indices and a true/false complement")
        return cls(gens, n)


def _row_set(m: np.ndarray) -> set:
    packed = np.ascontiguousarray(np.packbits(m, axis=1))  # (a column-major matrix packs column-major)
    return set(packed.view(np.dtype((np.void, packed.shape[1]))).ravel().tolist())


def cube_generators(n: int, *, negate: bool, complement: bool = False) -> list:
    """Generators on {0,1}^n with points in ``itertools.product`` order (point index = the bits read
    with x_0 as the most significant): swap x_0 and x_1, the cycle x_0 -> x_1 -> ... -> x_0, with
    ``negate`` the negation of x_0, with ``complement`` the complement of the labels."""
    pts = list(itertools.product((0, 1), repeat=n))
    index = {p: i for i, p in enumerate(pts)}

    def by(f) -> tuple:
        return tuple(index[f(p)] for p in pts)

    gens = []
    if n >= 2:
        gens.append((by(lambda p: (p[1], p[0]) + p[2:]), False))
        gens.append((by(lambda p: p[-1:] + p[:-1]), False))
    if negate and n >= 1:
        gens.append((by(lambda p: (1 - p[0],) + p[1:]), False))
    if complement:
        gens.append((tuple(range(len(pts))), True))
    return gens


def line_generators(N: int, *, complement: bool = False) -> list:
    """The reflection x -> N + 1 - x of {1..N} (points in order), with the labels complemented when
    ``complement`` (thresholds: the reflection of [x >= t] is a complemented threshold)."""
    return [(tuple(range(N - 1, -1, -1)), complement)]


def grid_generators(N: int) -> list:
    """The dihedral group of the square grid {1..N}^2 (points in row-major order): a quarter turn
    and a reflection."""
    def idx(i: int, j: int) -> int:
        return i * N + j

    turn = [0] * (N * N)
    mirror = [0] * (N * N)
    for i in range(N):
        for j in range(N):
            turn[idx(i, j)] = idx(j, N - 1 - i)
            mirror[idx(i, j)] = idx(i, N - 1 - j)
    return [(tuple(turn), False), (tuple(mirror), False)]


def symmetric_group_generators(n: int) -> list:
    """Every renaming of n points: a swap and an n-cycle."""
    if n < 2:
        return []
    return [((1, 0) + tuple(range(2, n)), False), (tuple(range(1, n)) + (0,), False)]
