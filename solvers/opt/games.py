"""Exact values of the games beyond Opt: the randomized optimum RL(C), k label errors (D_k, R_k), a horizon.

The rules, the states (a bitset of the concepts per budget level) and the one-round values f and g are
those of :mod:`solvers.game_rules`, where the bounds used below are proven. :class:`GameSolver` is the search
of :mod:`solvers.opt.search` carried over to those states: a memo of proven bounds per state (bounded in
bytes), the parent's distinct splits inherited by its children (a point constant on the living concepts
stays constant; points splitting them alike give the same children), balanced moves first, a deadline
and progress reports.

* **Deterministic, k errors** (D_k, k >= 1): decision queries "D_k(s) >= d?" as for Opt: some move
  with both children >= d - 1 (a split), or a loop whose exit is >= d - 1 (the max(a, b) part of g never
  wins, by monotonicity: :mod:`solvers.game_rules`). A query needs Phi_d(s) >= 2^d (the volume bound); the
  root asks d = 1, 2, ... until the answer is no. With a horizon T the value is min(T, D_k).
* **Randomized** (RL, R_k, and any horizon): a value search. ``_value(s, alpha)`` returns RL(s) exactly
  when it exceeds alpha, and otherwise only an upper bound <= alpha (a "fail-low", stored in the memo).
  A move can beat the best value b found so far only if f(a, c) > b, i.e. a > b or c > b or a + c >
  2b - 1; so the first child is asked with alpha = min(b, 2b - 1 - u), u an upper bound of the second,
  and the second with alpha = max(a - 1, min(b, 2b - 1 - a)) (below a - 1 it no longer changes f). The
  upper bounds that prune are E(|V|) of :func:`solvers.game_rules.universal_rl` and (#distinct splits)/2 for
  k = 0, the volume bound for k >= 1, and t/2 with t rounds left; a node stops when a move meets its upper
  bound. Values are dyadic rationals, kept as integers scaled by 2^P (P grows, and the memo with it, the
  first time a halving would not be exact) and returned as Fractions.
* **Symmetry**: once the search has expanded a few thousand nodes, states are keyed by their orbits
  under the renamings of the points that map C onto itself (:class:`StateKeys`: a canonical form by
  bliss of the class's graph coloured by the budgets, so the group is never listed); the upper-bound
  certificate then carries the group's generators, and its checker checks every merge it makes.

Certificates (checked by :mod:`solvers.certificates.games`, which uses only the matrix):

* lower bounds: for the deterministic game a mistake tree of depth D_k whose every path is labelled
  within k errors of some concept; for the randomized game a shattered tree whose value, by the
  recurrence f at its nodes, is the claimed one (for k = 0: the random-walk average depth is exactly
  2 RL, [FHMM23]), with *repeat* nodes for loops;
* upper bounds: entries "v(s) <= h" for states named by their paths, each checked against every move
  (:meth:`GameSolver.upper_proof`).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).

Examples
--------
>>> from solvers.classes.families import make
>>> from solvers.game_rules import Game
>>> S = GameSolver(make("thresholds", N=3), Game(randomized=True))
>>> S.value()                       # four thresholds: the two middle splits give (1 + 1/2 + 1/2)/2
Fraction(1, 1)
>>> GameSolver(make("all-functions", n=1), Game(errors=1)).value()   # two experts, one error: 2k + 1
3
"""

from __future__ import annotations

import math
import sys
import time
from fractions import Fraction
from typing import Optional

import numpy as np

from ..certificates import ProofTooLarge
from ..classes.automorphisms import canonical_labels
from ..classes.finite import ConceptClass
from ..game_rules import Game, rank_rl_bound, universal_rl
from .control import Tuning
from .memo import MemoSearch, SearchStop
from .search import default_memo_bytes

__all__ = ["GameSolver", "SearchStop", "StateKeys", "TreeTooLarge"]

# The search's thresholds (the starting precision, the experts table it fills, the largest tree it writes, the
# classes whose states get canonical keys and the groups worth them) are the fields games_* of
# solvers.opt.control.Tuning, where they were measured.


class StateKeys:
    """Canonical keys of game states under the renamings of the points that map the class onto itself.

    A renaming pi of the points with pi(C) = C maps each concept c to a concept sigma(c) (the one with
    sigma(c)(pi(x)) = c(x)), and a state -- a budget per concept, dead concepts below 0 -- to the state
    giving sigma(c) the budget of c. The game from the image is the game from the state with the points
    renamed, so both have the same value, for every game of :mod:`solvers.game_rules` (the rounds left are
    kept beside the key). The key of a state is a canonical form of the class's bipartite graph (a vertex
    per concept, coloured by its budget, a vertex per point, each concept joined to the points where it
    says 1) computed by bliss (``igraph.Graph.canonical_permutation``): two states get one key exactly when
    a renaming maps one onto the other, and the group need not be listed (a class of 38 concepts whose
    group has 18! elements is keyed as cheaply as one with 2). Symmetries that complement the labels are
    not used here.

    Parameters
    ----------
    C : ConceptClass
    levels : int
        The budget levels of a state (k + 1 for k errors).

    Attributes
    ----------
    order : int
        The order of the group of renamings (with the renamings of equal columns).
    seconds : float
        The time building the graph and counting the group took.
    """

    def __init__(self, C, levels: int):
        from ..classes.automorphisms import load_igraph

        t0 = time.perf_counter()
        igraph = load_igraph()
        M = np.asarray(C.matrix, dtype=bool)
        m, n = M.shape
        self.m, self.n = m, n
        # The complement of the edges between the two sides has the same automorphisms (the colours keep
        # the sides apart): the sparser one is the cheaper graph.
        A = M if 2 * int(M.sum()) <= m * n else ~M
        self.graph = igraph.Graph.Biadjacency(A.astype(np.int8))
        edges = np.array(self.graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)
        self._concept_ends = np.ascontiguousarray(edges.min(axis=1))
        self._point_ends = np.ascontiguousarray(edges.max(axis=1))
        self._width = m + n
        self._point_colour = levels + 1
        self._base = [0] * m + [self._point_colour] * n  # concepts' colours: budget + 1 (0: dead)
        self.order = int(self.graph.count_automorphisms(color=[1] * m + [self._point_colour] * n))
        self._nbytes = (m + 7) // 8
        #: the bytes of a key: the colours in canonical order, and the edges as an m x n bit matrix
        self.key_bytes = m + n + (m * n + 7) // 8
        self.seconds = time.perf_counter() - t0

    def complementing(self, C) -> bool:
        """Whether some symmetry of C complements the labels (a renaming of the points onto the complemented
        class; these keys do not use them): found as :mod:`solvers.classes.automorphisms` does."""
        M = np.asarray(C.matrix, dtype=bool)
        m, n = M.shape
        col, row = M.sum(axis=0), M.sum(axis=1)
        if not (np.array_equal(np.sort(col), np.sort(m - col)) and np.array_equal(np.sort(row), np.sort(n - row))):
            return False
        colour = [1] * m + [self._point_colour] * n
        g1 = type(self.graph).Biadjacency(M.astype(np.int8))
        g2 = type(self.graph).Biadjacency((~M).astype(np.int8))
        return bool(g1.isomorphic_bliss(g2, color1=colour, color2=colour))

    def generators(self) -> list:
        """Generators (pi, False) of the group of renamings, as bliss finds them."""
        m, n = self.m, self.n
        gens = self.graph.automorphism_group(color=[1] * m + [self._point_colour] * n)
        return [(tuple(int(a[m + x]) - m for x in range(n)), False) for a in gens]

    def _bits(self, mask: int) -> np.ndarray:
        raw = np.frombuffer(mask.to_bytes(self._nbytes, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[: self.m]

    def key(self, levels: tuple) -> tuple:
        """The canonical key of a state given by its levels (:mod:`solvers.game_rules`: ``levels[i]`` the
        concepts with budget >= i)."""
        if len(levels) >= self._point_colour:
            raise ValueError(f"a state of {len(levels)} levels, and these keys were made for {self._point_colour - 1}")
        colour = self._bits(levels[0]).astype(np.int64)
        for lv in levels[1:]:
            if lv:
                colour += self._bits(lv)
        colours = colour.tolist() + [self._point_colour] * self.n
        perm = canonical_labels(self.graph, colours)  # perm[v]: the canonical label of vertex v
        out = np.empty(self._width, dtype=np.int8)
        out[perm] = colours
        # The relabelled graph is the colours in canonical order and its edges. A label's side is read off its
        # colour (points have their own), so an edge is (the concept's rank among the concept labels, the
        # point's among the point labels): a bit of an m x n matrix, the whole graph in m*n/8 bytes. (It was a
        # sorted list of 8-byte edges, kept for ever in a table of forms outside the memo's budget: 18 GB for
        # R_1 of decision lists n=4 under --memory 9.)
        is_point = out == self._point_colour
        rank = np.empty(self._width, dtype=np.int64)
        rank[~is_point] = np.arange(self.m)
        rank[is_point] = np.arange(self.n)
        bits = np.zeros(self.m * self.n, dtype=np.uint8)
        bits[rank[perm[self._concept_ends]] * self.n + rank[perm[self._point_ends]]] = 1
        return np.packbits(bits).tobytes(), out.tobytes()


class TreeTooLarge(ValueError):
    """The lower-bound tree would have more than :attr:`Tuning.games_tree_nodes
    <solvers.opt.control.Tuning.games_tree_nodes>` nodes (the message says so)."""


class _Precision(Exception):
    """A halving was not exact at the current precision: the caller grows it and asks again."""


def _distinct(A0: int, cmasks, cidx):
    """The distinct splits of the living set A0 among the candidates (same or complementary splits
    merged), and whether some candidate is constant on A0."""
    masks: list[int] = []
    idxs: list[int] = []
    seen = set()
    low = A0 & -A0
    const = False
    for c, j in zip(cmasks, cidx):
        c &= A0
        if c == 0 or c == A0:
            const = True
            continue
        key = c if c & low else A0 ^ c
        if key in seen:
            continue
        seen.add(key)
        masks.append(c)
        idxs.append(j)
    return masks, idxs, const


def _entry_bytes(m: int, k: int) -> int:
    """The bytes a memo entry of a state of ``m`` concepts and ``k`` errors takes in Python, as the budget counts
    it: its key (a tuple of k + 1 ints of m bits), its bounds (a pair of ints of about 100 bits), and its share of
    the dict's table and of the moves recorded beside the memo. Counted as (k + 1) * m/8 + 150 bytes, the memo of a
    game took 1.3 to 1.6 times its budget (R_1 of intervals N=12, decision lists n=4, monotone disjunctions n=6
    k=3)."""
    return _state_bytes(m, k) + 128 + 40


def _state_bytes(m: int, k: int) -> int:
    """The bytes of a state in CPython: a tuple of k + 1 ints of m bits (28 bytes and 4 per 30 bits each)."""
    return 40 + 8 * (k + 1) + (k + 1) * (28 + 4 * -(-m // 30))


class GameSolver(MemoSearch):
    """The search state of one game (:class:`solvers.game_rules.Game`) on one finite class.

    Parameters
    ----------
    C : ConceptClass
    game : Game
        Not the standard game (Opt(C) has :class:`~solvers.opt.search.Solver`); for a deterministic
        learner ``errors`` must be at least 1 (with no errors the value is min(T, Opt(C))).
    memo_bytes : int, optional
        Memory the memo may use (default: half of the machine's); past it the older half is dropped.
    opt_seconds : float
        For the randomized game without errors: the time the Opt(C) solver may take at the start for a
        bound d >= Opt(C), which makes U(n, d) of :func:`solvers.game_rules.rank_rl_bound` a cheap upper
        bound (0: none).
    symmetry : bool
        Key states by their orbits under the renamings of the points that map C onto itself (default
        True; :class:`StateKeys`), once the search has expanded ``symmetry_after`` nodes (0: from the
        start); :attr:`symmetry_info` says what was used. The Opt(C) solver gets the same switch.
    symmetry_min : int
        States with fewer living concepts are keyed by themselves (their search is cheaper than a key).
    symmetry_after : int
        Nodes expanded before the keys become canonical (small searches never pay for the group).
    symmetry_min_order : int, optional
        A smaller group is not used (default: the ``tuning``'s :attr:`~solvers.opt.control.Tuning.games_min_order`,
        :attr:`~solvers.opt.control.Tuning.games_min_order_errors` with label errors: where keys start to pay).
    tuning : Tuning, optional
        The search's thresholds (:class:`~solvers.opt.control.Tuning`, fields ``games_*``; default ``Tuning()``);
        the Opt(C) solver gets it too.

    A state is ``(levels, t)``: ``levels`` as in :mod:`solvers.game_rules`, t the rounds left (None without
    a horizon). :meth:`value` gives exact values of any state, :meth:`lower_tree` and
    :meth:`upper_proof` the certificates of the root's value.
    """

    def __init__(self, C: ConceptClass, game: Game, *, memo_bytes: int | None = None, opt_seconds: float = 0.5,
                 symmetry: bool = True, symmetry_min: int = 4, symmetry_after: int = 2_000,
                 symmetry_min_order: int | None = None, tuning: Tuning | None = None):
        if not isinstance(C, ConceptClass):
            raise TypeError("GameSolver needs a ConceptClass")
        #: the search's thresholds (solvers.opt.control.Tuning)
        self.tuning = T = Tuning.default() if tuning is None else tuning
        if not isinstance(game, Game):
            raise TypeError("GameSolver needs a solvers.game_rules.Game")
        if not game.randomized and game.errors == 0:
            raise ValueError("the deterministic game without label errors is Opt(C): use solvers.opt.Solver")
        self.C = C
        self.game = game
        self.k = game.errors
        self.randomized = game.randomized
        self.horizon = game.horizon
        self.columns = C.columns
        self.full = C.full
        # memo: key -> proven (lower, upper); moves: key -> the move proving the lower bound ("split" | "loop", j)
        self._init_memo(default_memo_bytes() if memo_bytes is None else memo_bytes, _entry_bytes(C.n_concepts, self.k))
        self.nodes = 0
        least = T.games_min_order_errors if self.k > 0 else T.games_min_order
        self._min_order = least if symmetry_min_order is None else max(2, symmetry_min_order)
        self._init_symmetry(symmetry, symmetry_min, symmetry_after)
        self._root_bounds = None
        self._root_best = None  # randomized: the best exact value of a root move so far (scaled)
        masks, idxs, const = _distinct(self.full, C.columns, range(C.n_points))
        self.root_masks, self.root_points, self.root_const = masks, idxs, const
        self._root_key = self._root_plain = self._plain(*self.start())
        self.prec = T.games_precision
        self.one = 1 << self.prec
        self._vtab: list[list[int]] = []
        self.opt_bound = None  # d >= Opt(C) proven by self._opt_solver, when it is below floor(log2 |C|)
        self._opt_solver = None
        self._rank_hi: dict = {}
        self._cheap_n: dict = {}  # k = 0: |V| -> the cheap bound of V (scaled, without a horizon)
        self._experts = None     # k >= 1: the experts game with |C| experts (solvers.opt.experts), whose
        self._experts_hi: dict = {}  # value at the counts of a state bounds the state's (module docstring)
        self._opt_run = None     # (lower, upper) of Opt(C) and the Opt solver that proved them
        self._opt_seconds = opt_seconds
        if self._symmetry_at is not None and self._symmetry_at <= 0:
            self._use_symmetry()
        if self.k >= 1:
            self._universal(memo_bytes)
        if self.randomized and self.k == 0 and opt_seconds > 0 and C.n_concepts >= 4:
            d = self._opt_bounds()[1]
            if d < self.C.n_concepts.bit_length() - 1:
                self.opt_bound, self._opt_solver = d, self._opt_run[2]

    def _universal(self, memo_bytes) -> None:
        """The experts game on |C| experts with k errors as a cheap bound: a class state embeds in the
        universal class of its concepts (each point is an advice vector; restricting the adversary's
        points lowers the value), whose value depends only on the budget counts (:mod:`solvers.opt.experts`).
        The randomized table is filled here when it is small (at most :attr:`Tuning.games_universal_moves
        <solvers.opt.control.Tuning.games_universal_moves>` moves);
        the deterministic search is asked as the search goes (under the solver's deadline)."""
        from . import experts

        n = self.C.n_concepts
        if not self.randomized:
            self._experts = experts.DeterministicExperts(n, self.k, memo_bytes=max(1, self.memo_bytes // 8))
        elif experts._randomized_moves(n, self.k) <= self.tuning.games_universal_moves:
            T = experts.RandomizedExperts(n, self.k, memo_bytes=max(1, self.memo_bytes // 8))
            T.fill()
            self._experts = T

    def _opt_bounds(self) -> tuple:
        """(lower, upper, solver): Opt(C) bounds the Opt(C) solver proves within ``opt_seconds`` (once)."""
        if self._opt_run is None:
            from .search import Solver

            S = Solver(self.C, memo_bytes=max(1, self.memo_bytes // 8), symmetry=self.symmetric_search,
                       tuning=self.tuning)
            S.reset_root_bounds()
            if self._opt_seconds > 0:
                try:
                    with S.limits(deadline=time.monotonic() + self._opt_seconds):
                        S.solve_root([])
                except SearchStop:
                    pass
            lo, hi = S.root_bounds
            self._opt_run = (lo, hi, S)
        return self._opt_run

    def _root_lower(self) -> int:
        """A proven lower bound of the root's value: D_k(C) >= Opt(C) + 2k when some point splits C
        (:meth:`_det_lower`), and R_k >= D_k / 2, since against a randomized learner the adversary that
        keeps D_k of the state by a forcing move (both children >= D_k - 1; with a loop, its unanimous
        child) and answers the label the learner thinks less likely gains >= 1/2 a round for at least D_k
        rounds; with a horizon T, min(T, ...). Scaled for the randomized game."""
        if not self.root_masks:
            return 0
        d = self._opt_bounds()[0] + 2 * self.k
        if self.horizon is not None:
            d = min(d, self.horizon)
        return d << (self.prec - 1) if self.randomized else d

    # ------------------------------------------------------------------ states
    def start(self) -> tuple:
        """The root state ``(levels, t)``."""
        return (self.full,) * (self.k + 1), self.horizon

    def _plain(self, s: tuple, t):
        """The memo's key of a state by itself."""
        if self.k == 0:
            return s[0] if t is None else (s[0], t)
        return s if t is None else (s, t)

    def _key(self, s: tuple, t):
        """The memo's key of a state: its canonical key (:class:`StateKeys`) once symmetry is in use and
        the state has at least ``symmetry_min`` living concepts, else the state itself. A canonical key
        is a pair of bytes (:meth:`StateKeys.key`), which no plain key equals."""
        if self._keys is None or s[0].bit_count() < self._canon_min:
            return self._plain(s, t)
        plain = s[0] if self.k == 0 else s
        ck = self._kcache.get(plain)
        if ck is None:
            if len(self._kcache) >= self._kcache_max:
                self._kcache.clear()
            ck = self._kcache[plain] = self._keys.key(s)
        return ck if t is None else (ck, t)

    def _peek_key(self, s: tuple, t):
        """The key under which the memo may hold a state, without computing a canonical key: the cached one,
        else the state itself (the parent's scan of its children only reads bounds; a child that is
        searched gets its canonical key then, so a scan costs no key)."""
        if self._keys is None or s[0].bit_count() < self._canon_min:
            return self._plain(s, t)
        ck = self._kcache.get(s[0] if self.k == 0 else s)
        if ck is None:
            return self._plain(s, t)
        return ck if t is None else (ck, t)

    # ------------------------------------------------------------------ symmetry
    def _init_symmetry(self, symmetry: bool, symmetry_min: int, symmetry_after: int) -> None:
        C = self.C
        #: the canonical keys in use (None: every state is its own key)
        self._keys: StateKeys | None = None
        self._kcache: dict = {}  # a state's levels -> its canonical key (cleared when full)
        # a canonical key holds a byte per vertex of the class's graph and a bit per entry of its matrix: the
        # cache takes at most an eighth of the memo's budget, and a memo entry under such a key counts those
        # bytes too (_entry_size)
        self._key_bytes = C.n_concepts + C.n_points + (C.n_concepts * C.n_points + 7) // 8 + 2 * 33 + 56
        self._state_bytes = _state_bytes(C.n_concepts, self.k)
        self._kcache_max = max(64, min(1 << 18, self.memo_bytes // 8 // (self._key_bytes + 150)))
        self._canon_min = max(2, symmetry_min)
        self.symmetric_search = bool(symmetry)
        self._symmetry_seconds = None
        self._symmetry_after = symmetry_after
        if not symmetry:
            self._symmetry_source = "skipped: switched off"
        elif C.n_concepts * C.n_points > self.tuning.games_key_entries:
            self._symmetry_source = (f"skipped: a {C.n_concepts} x {C.n_points} matrix, past the "
                                     f"{self.tuning.games_key_entries:,} "
                                     "entries where a canonical key per state costs more than it saves")
        elif C.n_points == 0 or C.n_concepts < 2:
            self._symmetry_source = "none"
        else:
            self._symmetry_source = None  # decided by _use_symmetry
        self._symmetry_at = symmetry_after if self._symmetry_source is None else None

    def _entry_size(self, key) -> int:
        if type(key) is tuple and (type(key[-1]) is bytes or type(key[0]) is tuple and type(key[0][-1]) is bytes):
            # a canonical key (with or without the rounds left); the moves keep the state it stands for
            return self._entry_bytes + self._key_bytes + self._state_bytes
        return self._entry_bytes

    def _tick(self) -> None:
        if self._symmetry_at is not None and self.nodes >= self._symmetry_at:
            self._use_symmetry()
        MemoSearch._tick(self)

    def _use_symmetry(self) -> None:
        """Key states by their orbits from now on (entries under plain keys stay valid)."""
        self._symmetry_at = None
        K = StateKeys(self.C, self.k + 1)
        self._symmetry_seconds = K.seconds
        if K.order <= 1:
            self._symmetry_source = ("skipped: its only symmetries complement the labels, which the keys of this "
                                     "game do not use" if K.complementing(self.C) else "none")
            return
        if K.order < self._min_order:
            self._symmetry_source = (f"skipped: a group of order {K.order:,}, too small to pay for a canonical key "
                                     f"per state (from order {self._min_order} in this game)")
            return
        self._keys = K
        self._symmetry_source = "detected"
        # the cache of canonical keys takes up to an eighth of the budget: the memo keeps to the rest
        self._reserved = min(self.memo_bytes // 8, self._kcache_max * (self._key_bytes + self._state_bytes))
        self._root_key = self._key(*self.start())

    @property
    def symmetry_info(self) -> dict:
        """The symmetry the search used: ``{"order", "source", "seconds"}`` as for Opt
        (:attr:`solvers.opt.search.Solver.symmetry_info`): ``order`` the order of the group of renamings
        keying the memo (None when none), ``source`` "detected" (by graph automorphism), "none" (only the
        identity) or "skipped: <why>", ``seconds`` the time finding it took (None when it did not run)."""
        source = self._symmetry_source
        if source is None:
            source = f"skipped: the search ended within {self._symmetry_after:,} nodes"
        seconds = None if self._symmetry_seconds is None else round(self._symmetry_seconds, 4)
        return {"order": self._keys.order if self._keys is not None else None, "source": source,
                "seconds": seconds}

    def _recorded(self, key, plain):
        """The move recorded for a state (under its key, with the state it was found for), or None."""
        rec = self.moves.get(key)
        return rec[1] if rec is not None and rec[0] == plain else None

    def child(self, s: tuple, j: int, y: int) -> Optional[tuple]:
        """The levels after labelling point ``j`` with ``y`` (None when the label is not legal)."""
        col = self.columns[j]
        k1 = len(s)
        out = []
        for i in range(k1):
            nxt = s[i + 1] if i + 1 < k1 else 0
            out.append((s[i] & col) | (nxt & ~col) if y else (s[i] & ~col) | (nxt & col))
        return tuple(out) if out[0] else None

    @staticmethod
    def _split(s: tuple, c: int) -> tuple[tuple, tuple]:
        """(child for label 0, child for label 1) of a split of the living set: ``c`` is the part of the
        living concepts saying 1 (both children are legal)."""
        k1 = len(s)
        if k1 == 1:
            return (s[0] ^ c,), (c,)
        cs = [a & c for a in s]
        s0 = tuple((s[i] ^ cs[i]) | (cs[i + 1] if i + 1 < k1 else 0) for i in range(k1))
        s1 = tuple(cs[i] | ((s[i + 1] ^ cs[i + 1]) if i + 1 < k1 else 0) for i in range(k1))
        return s0, s1

    @staticmethod
    def _exit(s: tuple) -> tuple:
        """The state after a label that every living concept gets wrong (every budget minus one)."""
        return s[1:] + (0,)

    def _const_point(self, A0: int) -> Optional[tuple[int, int]]:
        """(j, y0): a point on which every concept of A0 says y0, or None."""
        for j, col in enumerate(self.columns):
            c = col & A0
            if c == 0:
                return j, 0
            if c == A0:
                return j, 1
        return None

    # ------------------------------------------------------------------ numbers
    def _num(self, v: int):
        """A scaled value as the number it stands for (an int for the deterministic game)."""
        if not self.randomized:
            return v
        q = Fraction(v, self.one)
        return q

    def _scaled(self, q) -> int:
        q = Fraction(q)
        v = q * self.one
        if v.denominator != 1:
            raise _Precision()
        return int(v)

    def _grow(self, bits: int = 64) -> None:
        """More precision: every stored scaled value times 2^bits."""
        self.prec += bits
        self.one = 1 << self.prec
        self._rank_hi = {}
        self._cheap_n = {}
        self._experts_hi = {}
        if self.randomized:
            self.memo = {key: (lo << bits, hi << bits) for key, (lo, hi) in self.memo.items()}
            if self._root_best is not None:
                self._root_best <<= bits
            if self._root_bounds is not None:
                self._root_bounds = tuple(b << bits for b in self._root_bounds)

    def _vrow(self, q: int) -> list[int]:
        """[V(q, 0), ..., V(q, k)] with V(q, b) = sum_{i <= b} C(q, i)."""
        tab = self._vtab
        while len(tab) <= q:
            r = len(tab)
            acc, row = 0, []
            for b in range(self.k + 1):
                acc += math.comb(r, b) if b <= r else 0
                row.append(acc)
            tab.append(row)
        return tab[q]

    def _counts(self, s: tuple) -> list[int]:
        k1 = len(s)
        return [(s[j] & ~s[j + 1]).bit_count() if j + 1 < k1 else s[j].bit_count() for j in range(k1)]

    def _phi_at_least(self, s: tuple, d: int) -> bool:
        """Phi_d(s) >= 2^d: the volume bound allows value d (:func:`solvers.game_rules.volume_bound`)."""
        row = self._vrow(d)
        total = 0
        need = 1 << d
        for mj, vj in zip(self._counts(s), row):
            total += mj * vj
            if total >= need:
                return True
        return False

    def _universal_at_least(self, s: tuple, d: int) -> bool:
        """D_k of the universal class at the counts of s is >= d (a necessary condition, see _universal)."""
        E = self._experts
        if E is None:
            return True
        E._deadline = self._deadline  # the experts search stops with this one
        return E.at_least(tuple(self._counts(s)), d)

    def _volume(self, s: tuple) -> int:
        m = self._counts(s)
        if not any(m):
            return -1
        q = 0
        while True:
            row = self._vrow(q + 1)
            if (1 << (q + 1)) <= sum(mj * vj for mj, vj in zip(m, row)):
                q += 1
            else:
                return q

    def _cheap_hi(self, s: tuple, t) -> int:
        """A cheap upper bound of the randomized value (scaled): E(|A_0|) for k = 0, else the volume
        bound; at most t/2 with t rounds left."""
        n = s[0].bit_count()
        if self.k == 0:
            if n <= 1:
                return 0
            d = n.bit_length() - 1
            if self.opt_bound is not None and self.opt_bound < d:
                hi = self._rank_hi.get(n)
                if hi is None:  # U(n, Opt bound), rounded up to the current precision
                    q = rank_rl_bound(n, self.opt_bound)
                    hi = self._rank_hi[n] = -((-q.numerator << self.prec) // q.denominator)
            else:
                hi = ((d - 1) << (self.prec - 1)) + (n << (self.prec - d - 1)) if self.prec > d + 1 else self._scaled(universal_rl(n))
        elif self._experts is not None:
            m = tuple(self._counts(s))
            hi = self._experts_hi.get(m)
            if hi is None:
                q = self._experts.value(m)  # R of the universal class at these counts, rounded up
                hi = self._experts_hi[m] = -((-q.numerator << self.prec) // q.denominator)
        else:
            hi = self._volume(s) << self.prec
        if t is not None:
            hi = min(hi, t << (self.prec - 1))
        return hi

    def _ub(self, s: tuple, t) -> int:
        e = self.memo.get(self._peek_key(s, t))
        if e is not None:
            return e[1]
        return self._cheap_hi(s, t)

    def _f(self, a: int, c: int) -> int:
        """f(a, c) exactly on scaled values (raises _Precision when the halving is not exact)."""
        h = self.one + a + c
        if h & 1:
            raise _Precision()
        h >>= 1
        return max(a, c, h)

    def _f_up(self, a: int, c: int) -> int:
        """f(a, c) rounded up (for upper bounds)."""
        return max(a, c, (self.one + a + c + 1) >> 1)

    # ------------------------------------------------------------------ the randomized value search
    def _value(self, s: tuple, t, alpha: int, cmasks, cidx, const) -> tuple[int, bool]:
        # (v, True): v is the value of (s, t) exactly, and it is > alpha or it was known; (v, False): the
        # value is <= v <= alpha (fail low). Scaled integers throughout.
        key = self._key(s, t)
        e = self.memo.get(key)
        if e is not None:
            lo, hi = e
            if lo == hi:
                return lo, True
            if hi <= alpha:
                return hi, False
        else:
            lo, hi = 0, self._cheap_hi(s, t)
            if hi <= alpha:
                return hi, False
            if hi == 0:
                self._store(key, 0, 0)
                return 0, True
        if t == 0:
            self._store(key, 0, 0)
            return 0, True
        self.nodes += 1
        if not self.nodes & 63:
            self._tick()
        A0 = s[0]
        masks, idxs, c2 = _distinct(A0, cmasks, cidx)
        const = const or c2
        loop = self.k > 0 and const and s[1] != 0
        if not masks and not loop:
            self._store(key, 0, 0)
            return 0, True
        if self.k == 0 and t is None:
            hi = min(hi, len(masks) << (self.prec - 1))  # RL <= (number of distinct splits)/2
            if hi <= alpha:
                self._store(key, lo, hi)
                return hi, False
        t1 = None if t is None else t - 1
        one = self.one
        # The moves with an optimistic value F from the children's upper bounds; best first.
        moves = []
        n = A0.bit_count()
        if self.k == 0:  # hot loop: the children are single bitsets; their keys and cheap bounds inlined
            memo = self.memo
            cheap = self._cheap_n
            half_t = None if t1 is None else t1 << (self.prec - 1)
            keyed = self._keys is not None
            for c, j in zip(masks, idxs):
                c0 = A0 ^ c
                k1 = c.bit_count()
                k0 = n - k1
                if keyed:
                    e0 = memo.get(self._peek_key((c0,), t1))
                    e1 = memo.get(self._peek_key((c,), t1))
                else:
                    e0 = memo.get(c0 if t1 is None else (c0, t1))
                    e1 = memo.get(c if t1 is None else (c, t1))
                if e0 is not None:
                    u0 = e0[1]
                else:
                    u0 = cheap.get(k0)
                    if u0 is None:
                        u0 = cheap[k0] = self._cheap_hi((c0,), None)
                    if half_t is not None and half_t < u0:
                        u0 = half_t
                if e1 is not None:
                    u1 = e1[1]
                else:
                    u1 = cheap.get(k1)
                    if u1 is None:
                        u1 = cheap[k1] = self._cheap_hi((c,), None)
                    if half_t is not None and half_t < u1:
                        u1 = half_t
                h = (one + u0 + u1 + 1) >> 1
                F = u0 if u0 > u1 else u1
                moves.append((h if h > F else F, k0 if k0 < k1 else k1, 0, j, (c0,), (c,), u0, u1))
        else:
            for c, j in zip(masks, idxs):
                s0, s1 = self._split(s, c)
                u0, u1 = self._ub(s0, t1), self._ub(s1, t1)
                k1 = c.bit_count()
                moves.append((self._f_up(u0, u1), min(k1, n - k1), 0, j, s0, s1, u0, u1))
        if loop:
            ex = self._exit(s)
            if t is None:
                u = self._ub(ex, None)
                moves.append((one + u, n, 1, -1, ex, None, u, 0))
            else:  # with a horizon a loop is an ordinary move whose unanimous child is (s, t - 1)
                u0, u1 = self._ub(s, t1), self._ub(ex, t1)
                moves.append((self._f_up(u0, u1), n, 2, -1, s, ex, u0, u1))
        moves.sort(key=_order, reverse=True)
        beat = alpha if alpha > lo else lo
        best = None
        best_move = None
        soft = 0  # the largest upper bound of a move that cannot beat `beat`
        for F, _, kind, j, sa, sb, ua, ub in moves:
            if F <= beat:
                if F > soft:
                    soft = F
                break  # sorted: every later move is <= F
            if kind == 1:  # a loop without a horizon: 1 + the exit's value
                v, exact = self._value(sa, None, beat - one, masks, idxs, True)
                r, ok = one + v, exact
            else:
                r, ok = self._move(sa, sb, ua, ub, t1, beat, masks, idxs, const)
            if ok and r > beat:
                beat = best = r
                best_move = ("loop", -1) if kind else ("split", j)
                if key == self._root_key or key == self._root_plain:  # (keys may have turned canonical since)
                    self._root_best = r
                if r >= hi:
                    break
            elif r > soft:
                soft = r
        if best is not None:
            self._store(key, best, best)
            self.moves[key] = (self._plain(s, t), best_move)
            return best, True
        top = min(hi, soft, beat)
        self._store(key, lo, top)
        return top, False

    def _move(self, s0, s1, u0, u1, t1, beat, masks, idxs, const) -> tuple[int, bool]:
        """The value f(v(s0), v(s1)) of one split: (exact value, True), or (an upper bound <= beat, False)."""
        one = self.one
        # A: the child with the smaller upper bound first (the likelier to fail low).
        if u0 <= u1:
            A, Cc, uC = s0, s1, u1
        else:
            A, Cc, uC = s1, s0, u0
        tau = min(beat, 2 * beat - one - uC)
        a, ea = self._value(A, t1, tau, masks, idxs, const)
        if not ea:  # a <= tau: the move beats `beat` only through c > beat
            c, ec = self._value(Cc, t1, beat, masks, idxs, const)
            if not ec:
                return min(self._f_up(a, min(c, uC)), beat), False
            if c >= a + one:
                return c, True  # the true a is at most c - 1, so f = c
            a, ea = self._value(A, t1, c - one, masks, idxs, const)
            if not ea:
                return c, True
            return self._f(a, c), True
        tauc = max(a - one, min(beat, 2 * beat - one - a))
        c, ec = self._value(Cc, t1, tauc, masks, idxs, const)
        if not ec:
            if a >= beat:
                return a, True  # c <= a - 1: f = a
            return min(self._f_up(a, min(c, uC)), beat), False
        return self._f(a, c), True

    # ------------------------------------------------------------------ the deterministic decision search
    def _at_least(self, s: tuple, d: int, cmasks, cidx, const) -> bool:
        # Hot loop: decide D_k(s) >= d.
        if d <= 0:
            return True
        key = self._key(s, None)
        e = self.memo.get(key)
        if e is not None:
            if e[0] >= d:
                return True
            if e[1] < d:
                return False
            lo, hi = e
        else:
            lo, hi = 0, None
        if not self._phi_at_least(s, d) or not self._universal_at_least(s, d):
            self._store(key, lo, d - 1 if hi is None else min(hi, d - 1))
            return False
        if hi is None:
            hi = self._volume(s)
        self.nodes += 1
        if not self.nodes & 63:
            self._tick()
        A0 = s[0]
        masks, idxs, c2 = _distinct(A0, cmasks, cidx)
        const = const or c2
        loop = const and s[1] != 0
        if not masks and not loop:
            self._store(key, 0, 0)
            return False
        if d == 1:
            self._store(key, max(lo, 1), hi)
            self.moves[key] = (s, ("split", idxs[0]) if masks else ("loop", -1))
            return True
        d1 = d - 1
        cands = []
        n = A0.bit_count()
        for c, j in zip(masks, idxs):
            s0, s1 = self._split(s, c)
            k1 = c.bit_count()
            cands.append((min(k1, n - k1), j, s0, s1))
        cands.sort(key=_first, reverse=True)
        if loop:
            ex = self._exit(s)
            if self._at_least(ex, d1, masks, idxs, True):
                self._store(key, d, hi)
                self.moves[key] = (s, ("loop", -1))
                return True
        memo = self.memo
        for _, j, s0, s1 in cands:
            e0 = memo.get(self._key(s0, None))
            if e0 is not None and e0[1] < d1:
                continue
            e1 = memo.get(self._key(s1, None))
            if e1 is not None and e1[1] < d1:
                continue
            if self._at_least(s0, d1, masks, idxs, const) and self._at_least(s1, d1, masks, idxs, const):
                self._store(key, d, hi)
                self.moves[key] = (s, ("split", j))
                return True
        self._store(key, lo, d - 1)
        return False

    # ------------------------------------------------------------------ exact values
    def value(self, levels: tuple | None = None, t="horizon"):
        """The exact value of a state (default: the root): an int for the deterministic game, a
        Fraction for the randomized one. ``t`` is the rounds left (default: the game's horizon; None:
        no limit). Uses and fills the memo."""
        if levels is None:
            levels, t = self.start()
        elif t == "horizon":
            t = self.horizon
        levels = tuple(levels)
        if len(levels) != self.k + 1:
            raise ValueError(f"a state of this game has {self.k + 1} levels, not {len(levels)}")
        if not levels[0]:
            return Fraction(-1) if self.randomized else -1
        if not self.randomized:
            d = self._det_value(levels)
            return d if t is None else min(t, d)
        return self._exact(levels, t)

    def _exact(self, s: tuple, t) -> Fraction:
        """The randomized value of (s, t), growing the precision as needed."""
        e = self.memo.get(self._key(s, t))
        if e is not None and e[0] == e[1]:
            return Fraction(e[0], self.one)
        while True:
            try:
                v, _ = self._value(s, t, -1, self.root_masks, self.root_points, self.root_const)
                return Fraction(v, self.one)
            except _Precision:
                self._grow()

    def _det_value(self, s: tuple) -> int:
        d = 0
        while self._at_least(s, d + 1, self.root_masks, self.root_points, self.root_const):
            d += 1
        return d

    def bounds(self, levels: tuple | None = None, t=None) -> tuple:
        """Proven (lower, upper) of a state from the memo and the cheap bounds, without search."""
        if levels is None:
            levels, t = self.start()
        if not self.randomized:
            e = self.memo.get(self._key(levels, None))
            lo, hi = (e[0], e[1]) if e is not None else (0, self._volume(levels))
            if t is not None:
                lo, hi = min(lo, t), min(hi, t)
            return lo, hi
        e = self.memo.get(self._key(levels, t))
        lo, hi = e if e is not None else (0, self._cheap_hi(levels, t))
        return Fraction(lo, self.one), Fraction(hi, self.one)

    @property
    def root_bounds(self) -> tuple:
        """(lower, upper) of the root's value proven so far (numbers: ints or Fractions)."""
        if self._root_bounds is not None:
            lo, hi = self._root_bounds
            return self._num(lo), self._num(hi)
        return self.bounds()

    def solve_root(self, queries: list | None = None) -> tuple:
        """The root's value: (lower, upper), equal; a deadline raises :class:`SearchStop` with
        :attr:`root_bounds` holding what is proven. Deterministic root queries "D_k >= d?" go up from 1
        and are appended to ``queries`` as ``{"d", "answer", "seconds"}``."""
        queries = [] if queries is None else queries
        s, t = self.start()
        if not self.randomized:
            hi = self._volume(s) if t is None else min(t, self._volume(s))
            lo = min(hi, self._det_lower())
            self._root_bounds = (lo, hi)
            while lo < hi:
                d = lo + 1
                t0 = time.monotonic()
                ok = self._at_least(s, d, self.root_masks, self.root_points, self.root_const)
                queries.append({"d": d, "answer": ok, "seconds": round(time.monotonic() - t0, 4)})
                if ok:
                    lo = d
                else:
                    hi = d - 1
                self._root_bounds = (lo, hi)
                if self._progress is not None:
                    self._progress({"lower": lo, "upper": hi, "nodes": self.nodes, "memo": len(self.memo)})
            return lo, hi
        while True:
            try:
                self._root_bounds = (self._root_lower(), self._cheap_hi(s, t))
                self._root_best = None
                v, _ = self._value(s, t, -1, self.root_masks, self.root_points, self.root_const)
                self._root_bounds = (v, v)
                return Fraction(v, self.one), Fraction(v, self.one)
            except _Precision:
                self._grow()
            except SearchStop:
                lo = max(self._root_lower(), self._root_best or 0)
                e = self.memo.get(self._key(s, t))
                hi = e[1] if e is not None else self._root_bounds[1]
                self._root_bounds = (lo, hi)
                raise

    def _det_lower(self) -> int:
        """D_k(C) >= Opt(C) + 2k when some point splits C (the Opt(C) bound from :meth:`_opt_bounds`):
        the adversary plays a mistake tree of Opt(C) down to depth Opt(C) - 1, which leaves
        two concepts that differ at some point x and k errors for each; on x alone they are the two
        experts of :mod:`solvers.game_rules`, worth 2k + 1 more (monotonicity: D_k of those two is at most
        that of the state)."""
        if not self.root_masks:
            return 0
        return self._opt_bounds()[0] + 2 * self.k

    # ------------------------------------------------------------------ the moves of a state (not the hot path)
    def moves_of(self, levels: tuple, t=None) -> list:
        """Every move of a state: ``("split", j, s0, s1)`` for the distinct splits of the living concepts
        and ``("loop", j, y0, exit)`` for a point on which they all say y0 (when some budget is left)."""
        masks, idxs, const = _distinct(levels[0], self.root_masks, self.root_points)
        out = [("split", j, *self._split(levels, c)) for c, j in zip(masks, idxs)]
        if self.k > 0 and levels[1]:
            cp = self._const_point(levels[0])
            if cp is not None:
                out.append(("loop", cp[0], cp[1], self._exit(levels)))
        return out

    # ------------------------------------------------------------------ certificates
    def lower_tree(self, d=None, *, max_nodes: int | None = None):
        """The lower-bound certificate of the root's value (``d``, default the value): the JSON node.

        Deterministic: a mistake tree of depth d (``{"point": j, "0": ..., "1": ...}``, null leaves).
        Randomized: a shattered tree with nodes ``{"point": j, "0": ..., "1": ...}``, null leaves at any
        depth, and (without a horizon) repeat nodes ``{"point": j, "repeat": y0, "exit": ...}``: show
        point j, on which every living concept says y0, again and again, and answer 1 - y0 once the
        learner's probability of an error there is small enough; worth 1 + the exit's value.

        The walk looks at the solver's deadline (:meth:`limits`) every few hundred nodes and raises
        :class:`SearchStop` past it; a tree of more than ``max_nodes`` nodes raises :class:`TreeTooLarge`
        (a deterministic one before any is built: it has 2^d - 1; default ``max_nodes``: the tuning's
        :attr:`~solvers.opt.control.Tuning.games_tree_nodes`).
        """
        max_nodes = self.tuning.games_tree_nodes if max_nodes is None else max_nodes
        s, t = self.start()
        if not self.randomized:
            if d is None:
                d = self.value()
            if d > 0 and (1 << d) - 1 > max_nodes:
                raise TreeTooLarge(f"the mistake tree of depth {d} has 2^{d} - 1 nodes, more than the "
                                   f"{max_nodes:,} written")
            return self._dtree(s, d)
        return self._rtree(s, t, max_nodes)

    def _dtree(self, s: tuple, d: int):
        # Iterative: a stack of (state, depth left, parent node, label); the root comes back in box[0].
        box: list = [None]
        stack = [(s, d, box, 0)]
        count = 0
        while stack:
            count += 1
            if count & 255 == 1:  # the first node, then every 256
                self._clock()
            st, dd, parent, slot = stack.pop()
            if dd <= 0:
                parent[slot] = None
                continue
            move = self._det_move(st, dd)
            if move[0] == "split":
                _, j, s0, s1 = move
                node = {"point": j, "0": None, "1": None}
                stack.append((s1, dd - 1, node, "1"))
                stack.append((s0, dd - 1, node, "0"))
            else:
                _, j, y0, ex = move
                node = {"point": j, "0": None, "1": None}
                stack.append((st, dd - 1, node, str(y0)))
                stack.append((ex, dd - 1, node, str(1 - y0)))
            parent[slot] = node
        return box[0]

    def _det_move(self, s: tuple, d: int):
        """A move proving D_k(s) >= d."""
        rec = self._recorded(self._key(s, None), s)
        for mv in self.moves_of(s):
            if rec is not None and mv[0] != rec[0]:
                continue
            if mv[0] == "split" and rec is not None and mv[1] != rec[1]:
                continue
            if self._det_ok(mv, d):
                return mv
        for mv in self.moves_of(s):
            if self._det_ok(mv, d):
                return mv
        raise RuntimeError("internal error: no move proves the claimed depth")

    def _det_ok(self, mv, d: int) -> bool:
        if mv[0] == "split":
            return (self._at_least(mv[2], d - 1, self.root_masks, self.root_points, self.root_const)
                    and self._at_least(mv[3], d - 1, self.root_masks, self.root_points, self.root_const))
        return self._at_least(mv[3], d - 1, self.root_masks, self.root_points, self.root_const)

    def _recorded_first(self, s: tuple, t):
        """The moves of a state, the one the search recorded for it first (its children are usually
        known exactly, so the tree costs no new search)."""
        rec = self._recorded(self._key(s, t), self._plain(s, t))
        if rec is not None:
            kind, j = rec
            if kind == "split":
                c = self.columns[j] & s[0]
                yield ("split", j, *self._split(s, c))
            else:
                cp = self._const_point(s[0])
                if cp is not None:
                    yield ("loop", cp[0], cp[1], self._exit(s))
        yield from self.moves_of(s, t)

    def _rtree(self, s: tuple, t, max_nodes: int):
        box: list = [None]
        stack = [(s, t, box, 0)]
        count = 0
        while stack:
            count += 1
            if count & 255 == 1:  # the first node, then every 256
                self._clock()
            if count > max_nodes:
                raise TreeTooLarge(f"the shattered tree has more than the {max_nodes:,} nodes written")
            st, tt, parent, slot = stack.pop()
            v = self._exact(st, tt)
            if v <= 0:
                parent[slot] = None
                continue
            node = None
            t1 = None if tt is None else tt - 1
            for mv in self._recorded_first(st, tt):
                if mv[0] == "loop" and tt is None:
                    if 1 + self._exact(mv[3], None) == v:
                        node = {"point": mv[1], "repeat": mv[2], "exit": None}
                        stack.append((mv[3], None, node, "exit"))
                        break
                    continue
                if mv[0] == "loop":  # with a horizon: children (the same levels, t - 1) and the exit
                    j, y0 = mv[1], mv[2]
                    kids = {y0: st, 1 - y0: mv[3]}
                    s0, s1 = kids[0], kids[1]
                else:
                    j, s0, s1 = mv[1], mv[2], mv[3]
                a, c = self._exact(s0, t1), self._exact(s1, t1)
                mid = (1 + a + c) / 2
                if max(a, c, mid) != v:
                    continue
                if mid == v:
                    node = {"point": j, "0": None, "1": None}
                    stack.append((s1, t1, node, "1"))
                    stack.append((s0, t1, node, "0"))
                else:  # f = max(a, c): the larger child's tree proves it (its paths are legal here too)
                    stack.append((s0 if a >= c else s1, t1, parent, slot))
                    node = False
                break
            if node is None:
                raise RuntimeError("internal error: no move gives the value found")
            if node is not False:
                parent[slot] = node
        return box[0]

    def upper_proof(self, h=None, *, limit: int = 100_000) -> dict:
        """An upper-bound certificate "v(root) <= h" (default h: the value), checked by
        :func:`solvers.certificates.games.verify_game_upper`.

        When its entries would pass ``limit`` and the search did not key its states by orbits only because the
        class's matrix is large (:attr:`~solvers.opt.control.Tuning.games_key_entries`), a second search that
        does (:meth:`_keyed_twin`) writes it, under this solver's deadline: e.g. D_1 of halfspaces n=4 needs more
        than 100,000 entries by paths, and 636 by orbits of its 384 symmetries.

        Each entry names a state by its path from the root (``[[j, y], ...]``; with a horizon the path's
        length gives the rounds used) and claims a bound. Deterministic: for every split one child's
        claim is at most h - 1, and a loop's exit is at most h - 1. Randomized: f(claim_0, claim_1) <= h
        for every split (with a horizon also for loops), 1 + claim(exit) <= h for a loop. A child that is
        not an entry is bounded by the cheap bounds alone (:mod:`solvers.game_rules`). Raises
        :class:`~solvers.certificates.ProofTooLarge` past ``limit`` entries.
        """
        if h is None:
            h = self.value()
        try:
            return self._upper_proof(h, limit)
        except ProofTooLarge:
            twin = self._keyed_twin()
            if twin is None:
                raise
        # this search's memo is done with (its value is known): the twin gets the whole memory budget
        self.memo.clear()
        self.moves.clear()
        self._memo_used = 0
        with twin.limits(deadline=self._deadline, progress=self._progress):
            return twin._upper_proof(h, limit)

    def _keyed_twin(self) -> "GameSolver | None":
        """A solver of the same game whose states are keyed by orbits from the start, whatever the matrix's size;
        None when this one keys them already, was told not to, or the class has too few symmetries to merge."""
        import dataclasses

        if self._keys is not None or " matrix, past the " not in str(self._symmetry_source):
            return None  # (keyed already; switched off; too few symmetries; a search too short to need them)
        twin = GameSolver(self.C, self.game, memo_bytes=self.memo_bytes, opt_seconds=self._opt_seconds,
                          symmetry_min=self._canon_min, symmetry_after=0, symmetry_min_order=self._min_order,
                          tuning=dataclasses.replace(self.tuning, games_key_entries=sys.maxsize))
        return twin if twin._keys is not None else None

    def _upper_proof(self, h, limit: int) -> dict:
        s, t = self.start()
        if not self.randomized:
            # A horizon only caps the deterministic value: h >= T needs no entry, else prove D_k <= h.
            t = t if t is not None and h >= t else None
        entries: list[dict] = []
        claimed: dict = {}
        stack = [(s, t, (), h)]
        while stack:
            st, tt, path, b = stack.pop()
            key = self._key(st, tt)
            old = claimed.get(key)
            if old is not None and old <= b:
                continue
            if self._cheap_number(st, tt) <= b:
                continue
            claimed[key] = b
            entries.append({"path": [list(p) for p in path], "bound": _json_num(b)})
            if len(entries) > limit:
                raise ProofTooLarge(f"the upper-bound certificate needs more than {limit} entries; "
                                    "raise the limit or use a smaller class")
            t1 = None if tt is None else tt - 1
            for mv in self.moves_of(st, tt):
                if mv[0] == "split":
                    j, s0, s1 = mv[1], mv[2], mv[3]
                    steps = ((j, 0), (j, 1))
                else:
                    j, y0, ex = mv[1], mv[2], mv[3]
                    if tt is None:  # a loop: the exit must be at most b - 1
                        stack.append((ex, None, path + ((j, 1 - y0),), b - 1))
                        continue
                    s0, s1 = (st, ex) if y0 == 0 else (ex, st)
                    steps = ((j, 0), (j, 1))
                if not self.randomized:
                    # one child with value <= b - 1 (the smaller one, or one the cheap bounds settle)
                    opts = sorted(((self._cheap_number(x, t1), x, step) for x, step in ((s0, steps[0]), (s1, steps[1]))),
                                  key=lambda z: z[0])
                    if opts[0][0] <= b - 1:
                        continue
                    pick = min(((self._det_value(x), x, step) for _, x, step in opts), key=lambda z: z[0])
                    if pick[0] > b - 1:
                        raise RuntimeError(f"internal error: the claim <= {b} does not hold for a state")
                    stack.append((pick[1], t1, path + (pick[2],), b - 1))
                    continue
                c0, c1 = self._cheap_number(s0, t1), self._cheap_number(s1, t1)
                if _f(c0, c1) <= b:
                    continue
                a, c = self._exact(s0, t1), self._exact(s1, t1)
                if _f(a, c) > b:
                    raise RuntimeError(f"internal error: the claim <= {b} does not hold for a state")
                if _f(c0, c) <= b:  # the cheap bound of child 0 suffices; child 1 gets the loosest claim
                    stack.append((s1, t1, path + (steps[1],), min(b, 2 * b - 1 - c0)))
                elif _f(a, c1) <= b:
                    stack.append((s0, t1, path + (steps[0],), min(b, 2 * b - 1 - c1)))
                else:
                    stack.append((s0, t1, path + (steps[0],), a))
                    stack.append((s1, t1, path + (steps[1],), min(b, 2 * b - 1 - a)))
        out = {"kind": "upper-bound", "game": self.game.to_json(), "bound": _json_num(h),
               "concepts": self.C.n_concepts, "entries": entries}
        if self._keys is not None:  # entries stand for their orbits: the group the keys used
            from ..classes.symmetry import Symmetry

            out["symmetry"] = Symmetry(self._keys.generators(), self.C.n_points).to_json()
        if self.opt_bound is not None:  # the certificate of Opt(C) <= d that makes U(n, d) a cheap bound
            out["opt_bound"] = {"bound": self.opt_bound, "proof": self._opt_solver.upper_proof(self.opt_bound, limit=limit)}
        from ..certificates.rules import stamp

        return stamp(out, "game-orbit" if "symmetry" in out else "game-paths")

    def _cheap_number(self, s: tuple, t):
        """The cheap upper bound of a state as a number (what the checker may use without an entry)."""
        if not self.randomized:
            v = self._volume(s)
            return v if t is None else min(v, t)
        n = s[0].bit_count()
        if self.k == 0:
            hi = rank_rl_bound(n, self.opt_bound) if self.opt_bound is not None else universal_rl(n)
        else:
            hi = Fraction(self._volume(s))
        if t is not None:
            hi = min(hi, Fraction(t, 2))
        return hi


def _order(m):
    return (m[0], m[1])


def _first(t):
    return t[0]


def _f(a, b):
    return max(a, b, Fraction(1 + a + b) / 2)


def _json_num(v):
    """An int, or the string "p/q" of a Fraction (JSON has no exact rationals)."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return int(v)
