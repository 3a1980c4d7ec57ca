"""The values of version spaces behind one small interface, for the learners built on them.

SOA predicts 1 on x iff Opt(V_x^1) >= Opt(V_x^0) ([Rivest94], section 2.3.3), and its variants do the same
with the value of another game (D_k with k label errors, RL or R_k for a randomized learner: [FHMM23],
:mod:`solvers.game_rules`). What such a learner asks of the solver is small: the version space it starts
from, the version space a labelled point leads to, and the value of a version space (under a deadline). That
is :class:`VersionSpaceOracle`; the learners (:mod:`solvers.learners.soa`, :mod:`solvers.learners.rand_soa`)
are written against it and name no solver class. :func:`oracle_for` gives the one to use for a class and a
game, and decides where the values come from:

* the standard game (Opt): the generic search's :class:`~solvers.opt.search.Solver` and its memo; when the
  class has few distinct points (``table_points``), the subcube table (:mod:`solvers.opt.subcube`), which
  makes every value a look-up; Opt(C) of a class its family's own search settles (monotone disjunctions)
  by that search, recorded in the solver's memo;
* the other games: :class:`~solvers.opt.games.GameSolver` (without a horizon: a version space here carries no
  count of the rounds left).

A state ("version space") is what :meth:`~VersionSpaceOracle.root` and :meth:`~VersionSpaceOracle.child`
return: in the standard game the bitset V of the concepts still consistent (bit c for concept c of C); in the
other games the tuple of levels (A_0, ..., A_k) of :mod:`solvers.game_rules` (A_j: the concepts with at least
j label errors of budget left; A_0, every living concept, is the version space).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import ContextManager, Optional, Protocol, Union, runtime_checkable

from ..classes.finite import ConceptClass
from ..game_rules import Game
from .memo import SearchStop
from .search import Solver

__all__ = ["VersionSpaceOracle", "oracle_for", "SolverOracle", "TableOracle", "GameOracle", "ORACLE_MEMBERS"]

#: A state: the bitset V in the standard game, the tuple of levels in the others (module docstring).
State = Union[int, tuple]
#: A value: an int (Opt, D_k), a Fraction (RL, R_k); -1 for the empty version space.
Number = Union[int, Fraction]

#: What an object must have to be a :class:`VersionSpaceOracle` (what ``isinstance`` checks).
ORACLE_MEMBERS = ("C", "game", "root", "child", "value", "bounds", "record", "limits", "deadline")


@runtime_checkable
class VersionSpaceOracle(Protocol):
    """The values of the version spaces of one class in one game: what SOA and RandSOA ask.

    Any object with these members is one (``isinstance(obj, VersionSpaceOracle)`` checks that they are
    there, not what they return); :func:`oracle_for` makes the library's own.

    Attributes
    ----------
    C : ConceptClass
        The class; the point indices ``j`` below are its column indices (``C.index_of(x)``).
    game : Game
        The game whose value :meth:`value` gives (``Game()``: Opt; :mod:`solvers.game_rules`). Without a
        horizon.
    deadline : float or None
        The ``time.monotonic()`` instant of the current :meth:`limits` (None: none).

    Methods
    -------
    root()
        The whole class as a state: the bitset ``C.full``, or ``(C.full,) * (k + 1)`` with k label errors.
    child(state, j, y)
        The state after point ``j`` is labelled ``y`` (0 or 1): the concepts that disagree lose one error of
        budget (with none left they leave); None when no concept is left (the label is not legal). A point all
        of the state agrees on gives the state back for their label.
    value(state=None)
        The game's value of ``state`` (default: the root) exactly: Opt(V) in the standard game ([Rivest94]:
        the mistakes an optimal learner makes from V on, in the worst case), D_k, RL or R_k in the others
        ([FHMM23]); -1 for an empty version space. May search; past the :attr:`deadline` it raises
        :class:`~solvers.opt.SearchStop`.
    bounds(state=None)
        Proven ``(lower, upper)`` of :meth:`value` without searching (from what is known so far).
    record(state, lower, upper)
        Remember bounds on the value of ``state`` proven elsewhere (the caller vouches for them).
    limits(*, deadline=None)
        A context manager: inside its block :meth:`value` stops at ``deadline`` (a ``time.monotonic()``
        instant) with :class:`~solvers.opt.SearchStop`; the previous limits come back on exit.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> from solvers.game_rules import Game
    >>> C = make("thresholds", N=7)
    >>> O = oracle_for(C)
    >>> isinstance(O, VersionSpaceOracle)
    True
    >>> V = O.child(O.root(), C.index_of((4,)), 0)     # the threshold is in {5, 6, 7, 8}
    >>> O.value(), O.value(V)
    (3, 2)
    >>> R = oracle_for(C, Game(randomized=True))
    >>> R.value(R.child(R.root(), C.index_of((4,)), 0))   # RL of four thresholds
    Fraction(1, 1)
    """

    C: ConceptClass
    game: Game

    @property
    def deadline(self) -> Optional[float]: ...

    def root(self) -> State: ...

    def child(self, state: State, j: int, y: int) -> Optional[State]: ...

    def value(self, state: Optional[State] = None) -> Number: ...

    def bounds(self, state: Optional[State] = None) -> tuple: ...

    def record(self, state: State, lower: Number, upper: Number) -> None: ...

    def limits(self, *, deadline: Optional[float] = None) -> ContextManager: ...


def oracle_for(C: ConceptClass, game: Optional[Game] = None, *, solver=None, table_points: int = 12,
               who: str = "the learner") -> VersionSpaceOracle:
    """The oracle of the game ``game`` (default: Opt) on ``C``.

    Parameters
    ----------
    C : ConceptClass
    game : Game, optional
        Without a horizon (default ``Game()``, the standard game: Opt).
    solver : optional
        What to reuse: a :class:`VersionSpaceOracle` of this class and game (returned as it is), a
        :class:`~solvers.opt.search.Solver` of ``C`` (its memo, and its subcube table when it has one:
        ``opt(C, solver=S)``'s), or a :class:`~solvers.opt.games.GameSolver` of ``C`` for ``game``.
        Without one a new solver is made.
    table_points : int, default 12
        A new oracle of Opt for a class over at most this many distinct points (up to equal and
        complementary columns) fills the subcube table at once (3^n entries), so that every value is a
        look-up; 0: never.
    who : str
        Who asks, for the error messages.

    Returns
    -------
    VersionSpaceOracle

    Raises
    ------
    ValueError
        When ``solver`` is not an oracle (nor a Solver or GameSolver), was built for another class or
        another game, or the game has a horizon.
    """
    if not isinstance(C, ConceptClass):
        raise ValueError(f"{who} is built from a ConceptClass, not {type(C).__name__}; pass a class")
    game = Game() if game is None else game
    if not isinstance(game, Game):
        raise ValueError(f"game={game!r}: give a solvers.game_rules.Game")
    if game.horizon is not None:
        raise ValueError(f"{who}: a version space carries no count of rounds left, so the oracle takes no horizon "
                         f"(game {game}); give a Game without one")
    if solver is None:
        if not game.standard:
            from .games import GameSolver

            return GameOracle(GameSolver(C, game))
        S = Solver(C)
        if table_points > 0 and len(S.root_points) <= table_points:
            S.subcube_table()
            return TableOracle(S)
        return SolverOracle(S)
    oracle = _wrap(solver, who)
    if oracle.C is not C and oracle.C != C:
        raise ValueError(f"the solver given to {who} was built for another class; build it on this one")
    if oracle.game != game:
        raise ValueError(f"the solver given to {who} is for {oracle.game.describe()}, not {game.describe()}; "
                         "give one for this game")
    return oracle


def _wrap(solver, who: str) -> VersionSpaceOracle:
    """``solver`` as an oracle: the library's solvers in their adapters, any other oracle as it is."""
    if isinstance(solver, (SolverOracle, GameOracle)):  # the library's own (a protocol check takes ~40 us)
        return solver
    if isinstance(solver, Solver):
        return TableOracle(solver) if solver.table is not None else SolverOracle(solver)
    from .games import GameSolver  # (here: importing solvers.opt need not load the games)

    if isinstance(solver, GameSolver):
        return GameOracle(solver)
    if isinstance(solver, VersionSpaceOracle):
        return solver
    missing = ", ".join(m for m in ORACLE_MEMBERS if not hasattr(solver, m))
    raise ValueError(f"{who} takes a version-space oracle (solvers.opt.VersionSpaceOracle), a Solver or a GameSolver "
                     f"as solver=, not a {type(solver).__name__} (it has no {missing}); "
                     "for Opt take opt(C, engine='search').solver")


class SolverOracle:
    """Opt of version spaces by the generic search (:class:`~solvers.opt.search.Solver`), whose memo it
    fills and reads: a value found once is a look-up afterwards, for every learner sharing the solver.

    Opt(C) of a class that its family's own search settles (monotone disjunctions, by their symmetry: in
    milliseconds where the generic search takes seconds) comes from :func:`solvers.opt.opt`, under the
    deadline, and is recorded in the memo.
    """

    def __init__(self, solver: Solver):
        self.solver = solver
        self.C = solver.C
        self.game = Game()
        self._columns = solver.C.columns
        self._full = solver.C.full
        self._family = None  # whether the family's own search settles Opt(C) (asked on first use)

    @property
    def deadline(self) -> Optional[float]:
        return self.solver.deadline

    def limits(self, *, deadline: Optional[float] = None) -> ContextManager:
        return self.solver.limits(deadline=deadline)

    def root(self) -> int:
        return self.C.full

    def child(self, V: int, j: int, y: int) -> Optional[int]:
        """xi_y(V, x_j): the concepts of V that label point j with y (None: none)."""
        return (V & self._columns[j] if y else V & ~self._columns[j]) or None

    def value(self, V: Optional[int] = None) -> int:
        """Opt(V) by the search (its memo first)."""
        if V is None or V == self._full:
            return self._opt_of_class()
        return self.solver.value(V)

    def bounds(self, V: Optional[int] = None) -> tuple:
        return self.solver.bounds(self.C.full if V is None else V)

    def record(self, V: int, lower: int, upper: int) -> None:
        self.solver.record(V, lower, upper)

    def _opt_of_class(self) -> int:
        """Opt(C): by the family's own search where :func:`solvers.opt.opt` has one, else by the solver."""
        S, full = self.solver, self.C.full
        lo, hi = S.bounds(full)
        if lo < hi:
            if self._family is None:
                from .disjunctions import handles

                self._family = handles(self.C)
            if self._family:
                from .driver import opt

                left = None if S.deadline is None else S.deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise SearchStop()
                r = opt(self.C, time_limit=left)
                if r.value is None:
                    raise SearchStop()
                S.record(full, r.value, r.value)
                return r.value
        return S.value(full)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<{len(self.C)} concepts x {self.C.n_points} points>)"


class TableOracle(SolverOracle):
    """Opt of version spaces by look-ups in the subcube table of a solver (:mod:`solvers.opt.subcube`),
    filled when the oracle is made.

    A version space reached by examples is the class cut down to a subcube (the table's points labelled or
    free). The oracle follows the subcube of each version space :meth:`child` leads to (up to
    ``remember`` of them; past that it starts afresh), and finds that of any other version space V from the
    labels all of V agrees on, when the concepts with those labels are exactly V. Other sets of concepts
    (reached by no examples) are asked of the search.
    """

    def __init__(self, solver: Solver, *, remember: int = 1 << 16):
        super().__init__(solver)
        T = solver.subcube_table().fill()
        self.table = T
        C, full = self.C, self.C.full
        masks = [C.columns[p] for p in T.points]
        where = {m: e for e, m in enumerate(masks)}
        # column j -> (3^e, 1 if it is the complement of table point e), None for a column constant on C
        self._eff = [None if col in (0, full) else (T.pow3[where[col]], 0) if col in where
                     else (T.pow3[where[full ^ col]], 1) for col in C.columns]
        self._masks = masks
        self._remember = max(1, remember)
        self._at = {full: T.root}  # version space -> its subcube

    def _subcube(self, V: int) -> Optional[int]:
        """The subcube whose concepts are exactly V (V nonempty), or None when no subcube has exactly V's concepts."""
        p = self._at.get(V)
        if p is not None:
            return p
        T, full = self.table, self.C.full
        p, S = 0, full
        for e, m in enumerate(self._masks):
            if V & m == V:
                S &= m
                p += T.pow3[e]
            elif V & m == 0:
                S &= full ^ m
            else:
                p += 2 * T.pow3[e]
        if S != V:
            return None
        self._keep(V, p)
        return p

    def _keep(self, V: int, p: int) -> None:
        if len(self._at) >= self._remember:
            self._at.clear()
        self._at[V] = p

    def child(self, V: int, j: int, y: int) -> Optional[int]:
        W = V & self._columns[j] if y else V & ~self._columns[j]
        if W and W != V:
            p = self._at.get(V)
            if p is None:
                p = self._subcube(V)
            if p is not None:
                # j splits V, so its table point e is free (digit 2) in V's subcube: W's has digit y (or 1 - y)
                pow3, flip = self._eff[j]
                self._keep(W, p - (2 - (y ^ flip)) * pow3)
        return W or None

    def value(self, V: Optional[int] = None) -> int:
        """Opt(V) from the table (V reached by no examples: by the search)."""
        p = self.table.root if V is None else self._at.get(V)
        if p is None:
            p = self._subcube(V) if V else None
            if p is None:
                return self.solver.value(V) if V else -1
        return self.table.U.item(p) - 1

    def bounds(self, V: Optional[int] = None) -> tuple:
        p = self.table.root if V is None else self._subcube(V) if V else None
        if p is None:
            return self.solver.bounds(V)
        v = self.table.U.item(p) - 1
        return v, v


class GameOracle:
    """The value of another game (D_k, RL, R_k: :mod:`solvers.game_rules`) of version spaces, by a
    :class:`~solvers.opt.games.GameSolver`, whose memo it fills and reads. The states are tuples of levels."""

    def __init__(self, solver):
        if solver.game.horizon is not None:
            raise ValueError(f"a version space carries no count of rounds left, so the oracle takes no horizon "
                             f"(the solver's game is {solver.game}); give a GameSolver of a game without one")
        self.solver = solver
        self.C = solver.C
        self.game = solver.game
        self._known: dict = {}  # levels -> (lower, upper) recorded from elsewhere

    @property
    def deadline(self) -> Optional[float]:
        return self.solver.deadline

    def limits(self, *, deadline: Optional[float] = None) -> ContextManager:
        return self.solver.limits(deadline=deadline)

    def root(self) -> tuple:
        return self.solver.start()[0]

    def child(self, levels: tuple, j: int, y: int) -> Optional[tuple]:
        return self.solver.child(levels, j, y)

    def value(self, levels: Optional[tuple] = None) -> Number:
        if levels is None:
            levels = self.root()
        known = self._known.get(tuple(levels))
        if known is not None and known[0] == known[1]:
            return known[0]
        return self.solver.value(levels, None)

    def bounds(self, levels: Optional[tuple] = None) -> tuple:
        levels = self.root() if levels is None else tuple(levels)
        lo, hi = self.solver.bounds(levels, None)
        known = self._known.get(levels)
        if known is not None:
            lo, hi = max(lo, known[0]), min(hi, known[1])
        return lo, hi

    def record(self, levels: tuple, lower: Number, upper: Number) -> None:
        self._known[tuple(levels)] = (lower, upper)

    def __repr__(self) -> str:
        return f"GameOracle(<{len(self.C)} concepts x {self.C.n_points} points>, {self.game})"
