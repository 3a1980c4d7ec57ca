"""The conformance suite of the engines of Opt: what an engine must do to be registered.

As scikit-learn ships ``check_estimator``, this module ships :func:`check_engine`: it runs an engine on a
shared list of small classes (:data:`CASES`) and checks, for every class and game the engine takes, its
answer against :func:`brute_force` (the game's value computed straight from its definition) and its
certificates against the checkers of :mod:`solvers.certificates`, which read the class alone. An engine is
a module (or any object) with

* ``NAME`` -- its name in :data:`solvers.opt.engines.REGISTRY`;
* ``takes(C, game) -> str | None`` -- None when it takes the pair, else the reason, in one line;
* ``solve(C, game, control, tuning=None) -> OptResult`` -- the bounds, the value when proven, a tree of depth
  ``lower``, ``stats`` with ``"engine"`` and ``"stopped"``, and ``upper_certificate(limit=...)``.

The checks (:data:`CHECKS`; each returns the :class:`Failure` s it finds):

========  ==============================================================================================
value     with no limit the engine solves the case: ``lower == value == upper`` = the brute force's value,
          its result names the game, and its stats say ``"engine"`` and ``"stopped"`` (None)
tree      its tree has depth ``lower`` and the game's checker accepts it (a mistake tree for Opt(C), D_k and
          the horizons; a shattered tree, valued again by the checker, for the randomized game)
upper     its upper-bound certificate, checked on the class alone, proves ``upper``
deadline  with a deadline already past, on classes that need a search (:data:`HARD_CASES`): proven bounds
          (lower <= the known value <= upper; a tree of depth ``lower`` when it gives one), and
          ``stats["stopped"] == "time limit"`` unless it settled the class before its first look at the
          clock; on one of them at least it must have stopped
cancel    the same with the control's cancel event already set: ``stats["stopped"] == "cancelled"``
refuses   ``takes`` gives a one-line reason for what it refuses, and ``solve`` on such a pair raises
          ValueError
========  ==============================================================================================

The brute force is written from the definitions in the seeds and in :mod:`solvers.game_rules` and calls no
solver of :mod:`solvers.opt`; :mod:`tests.solvers.opt.test_conformance` checks it against published values
and against a second brute force written another way.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
>>> from solvers.classes.families import make
>>> brute_force(make("thresholds", N=7))
3
>>> brute_force(make("all-functions", n=2), Game(randomized=True))
Fraction(1, 1)
>>> brute_force([[0, 1], [1, 1]], Game(errors=1))
3
>>> brute_force([])                             # no concept: the convention Opt(empty) = -1
-1
>>> [c.name for c in CASES][:3]
['thresholds N=7', 'intervals N=5', 'rectangles N=2']
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterator, Optional, Sequence

import numpy as np

from ..game_rules import Game, universal_rl, volume_bound

__all__ = [
    "Case",
    "CASES",
    "HARD_CASES",
    "CHECKS",
    "Failure",
    "brute_force",
    "check_engine",
    "checks",
    "taken",
]

OPT = Game()


# ---------------------------------------------------------------------------------------------- brute force
def _rows(C) -> tuple[list[tuple[int, ...]], int]:
    """The distinct concepts of ``C`` (a class with a ``matrix``, or a sequence of 0/1 rows) as tuples of 0/1
    ints, in first-seen order, and the number of points."""
    n = _described_experts(C)
    if n is not None:  # concept i labels the point x of {0,1}^n (bit i of 0 .. 2^n - 1) with x_i
        if n > 12:
            raise ValueError(f"{C} has 2^{n} points; the brute force reads at most 12 experts")
        return [tuple((x >> i) & 1 for x in range(1 << n)) for i in range(n)], 1 << n
    if hasattr(C, "n_concepts") and getattr(C, "matrix", None) is None:
        raise ValueError(f"{C} has no matrix; the brute force reads a small listed class (or its 0/1 rows)")
    M = np.asarray(getattr(C, "matrix", C), dtype=bool)
    if M.size == 0 and M.ndim != 2:
        return [], 0
    if M.ndim != 2:
        raise ValueError(f"a class is a 2-D 0/1 matrix (concepts x points), not an array of shape {M.shape}")
    seen: dict = {}
    for row in M.astype(int).tolist():
        seen.setdefault(tuple(row), None)
    return list(seen), M.shape[1]


def _described_experts(C) -> Optional[int]:
    """n for the universal class of n experts described by n (:class:`~solvers.opt.experts.UniversalExperts`)."""
    from .experts import UniversalExperts

    return C.n if isinstance(C, UniversalExperts) else None


def universal_experts(C) -> Optional[int]:
    """n when ``C`` is the universal class of n experts (concept i labels the point x of {0,1}^n with x_i: n
    concepts, and every vector of {0,1}^n a point, in any order, repeated or not), else None; read off the class
    alone, as the experts game's certificates, which name their number of experts and not their class, are
    bound to it."""
    n = _described_experts(C)
    if n is not None:
        return n
    try:
        rows, _ = _rows(C)
    except ValueError:
        return None
    if not rows or len(rows) > 20:
        return None
    points = set(zip(*rows))
    return len(rows) if len(points) == 2 ** len(rows) else None


def brute_force(C, game: Game = OPT):
    """The value of ``game`` on ``C`` by the minimax recursion of its definition, with no search technique.

    Parameters
    ----------
    C : ConceptClass or sequence of 0/1 rows
        A class with a matrix (``C.matrix``), or its rows (duplicates are one concept).
    game : Game
        ``Game()`` for Opt(C); see :mod:`solvers.game_rules` for the others.

    Returns
    -------
    int or Fraction
        Opt(C) (an int; -1 for no concept, the convention the solvers use), D_k(C) (an int), or the
        randomized value (a Fraction).

    Notes
    -----
    Opt(C), [Rivest94] section 2.1: the adversary shows a point x, the learner predicts, the adversary
    reveals a label that some concept still agrees with. On version spaces, Opt(V) = -1 when V is empty, 0
    when no point splits V, and otherwise the largest over the points x splitting V of 1 + min(Opt(V_x^0),
    Opt(V_x^1)).

    The other games (:mod:`solvers.game_rules`) on states that give each concept its remaining budget of
    label errors (-1: dead) and, with a horizon, the rounds left t: the value is 0 when t = 0, and otherwise
    the largest over the points x of what x is worth. When only one label of x keeps a concept alive, the
    learner predicts it: x is worth nothing, or the state itself with t - 1 rounds left. When both labels
    are legal, with a and b the values after label 0 and after label 1, x is worth

    * to a deterministic learner: the least over its predictions p of the most over the labels y of
      [p != y] + (a or b);
    * to a randomized learner: the least over q = P(predict 1) in [0, 1] of max(q + a, 1 - q + b) (the
      adversary knows q, not the coin): a minimum of a convex piecewise-linear function of q, found
      among q = 0, q = 1 and where the two lines cross.

    Without a horizon a point may be a *loop*: every living concept says y0, and the other label, legal
    because some concept has an error left, takes one from every budget (the *exit*). Label y0 leaves the
    state as it is, so the adversary may repeat x: a learner that predicts the other label with any
    probability q > 0 pays q a round for ever, so the least fixed point of the recursion has the learner
    predict y0 and x worth 1 + the exit's value. Every other child has budgets no larger and one smaller
    than its state's, and an exit takes one from every budget: the recursion ends.
    """
    rows, n = _rows(C)
    if game.horizon is None and not game.randomized and game.errors == 0:
        return _opt_of_version_spaces(rows, n)
    return _game_value(rows, n, game)


def _opt_of_version_spaces(rows: list, n: int) -> int:
    """Opt(C) by [Rivest94]'s recursion over version spaces (frozensets of rows)."""
    memo: dict = {}

    def opt(V: frozenset) -> int:
        if not V:
            return -1
        if V in memo:
            return memo[V]
        best = 0
        for x in range(n):
            V0 = frozenset(c for c in V if c[x] == 0)
            V1 = V - V0
            if V0 and V1:
                best = max(best, 1 + min(opt(V0), opt(V1)))
        memo[V] = best
        return best

    return opt(frozenset(rows))


def _deterministic_round(a, b):
    """min over the prediction p of max over the label y of [p != y] + v_y, with v_0 = a, v_1 = b."""
    return min(max(int(p != y) + v for y, v in ((0, a), (1, b))) for p in (0, 1))


def _randomized_round(a, b) -> Fraction:
    """min over q = P(predict 1) in [0, 1] of max(q + a, 1 - q + b): the adversary says 0 (the learner errs
    with probability q) or 1 (with probability 1 - q)."""
    a, b = Fraction(a), Fraction(b)
    cross = min(Fraction(1), max(Fraction(0), (1 + b - a) / 2))
    return min(max(q + a, 1 - q + b) for q in (Fraction(0), Fraction(1), cross))


def _game_value(rows: list, n: int, game: Game):
    """The value of a game other than Opt(C)'s by the recursion of :func:`brute_force`'s notes."""
    if not rows:
        return -1
    k, T = game.errors, game.horizon
    one_round = _randomized_round if game.randomized else _deterministic_round
    zero = Fraction(0) if game.randomized else 0
    memo: dict = {}

    def after(budgets: tuple, x: int, y: int) -> Optional[tuple]:
        out = tuple(-1 if b < 0 else (b if c[x] == y else b - 1) for c, b in zip(rows, budgets))
        return out if any(b >= 0 for b in out) else None

    def value(budgets: tuple, t):
        if t == 0:
            return zero
        key = (budgets, t)
        if key in memo:
            return memo[key]
        later = None if t is None else t - 1
        best = zero
        for x in range(n):
            s0, s1 = after(budgets, x, 0), after(budgets, x, 1)
            if s0 is None or s1 is None:  # one legal label: the learner predicts it
                worth = zero if t is None else value(budgets, later)
            elif t is None and budgets in (s0, s1):  # a loop: the learner predicts the unanimous label
                worth = 1 + value(s1 if s0 == budgets else s0, None)
            else:
                worth = one_round(value(s0, later), value(s1, later))
            best = max(best, worth)
        memo[key] = best
        return best

    v = value((k,) * len(rows), T)
    return Fraction(v) if game.randomized else v


# ---------------------------------------------------------------------------------------------- the cases
@dataclass(frozen=True)
class Case:
    """One class of the shared list, with the games it is checked in.

    Attributes
    ----------
    name : str
    make : callable
        Builds the class (a fresh one each call: nothing an engine caches on it carries over).
    games : tuple of Game
    known : dict, optional
        ``{game: value}`` from a published formula, or ``{game: (low, high)}`` from proven bounds, for
        :data:`HARD_CASES` (too large for the brute force).
    """

    name: str
    make: Callable = field(repr=False)
    games: tuple = (OPT,)
    known: dict = field(default_factory=dict, repr=False)

    def value(self, C, game: Game):
        """The value the case must have: the published one (or a (low, high) range proven to hold it), else
        the brute force's."""
        return self.known[game] if game in self.known else brute_force(C, game)


def _family(name: str, **params) -> Callable:
    def make():
        from ..classes.families import make as make_family

        return make_family(name, **params)

    return make


def _implicit(name: str, **params) -> Callable:
    """A {0,1}^n family too large to list its points (:class:`~solvers.classes.implicit.ImplicitFamily`)."""
    def make():
        from ..classes.implicit import ImplicitFamily

        return ImplicitFamily(name, params)

    return make


def _evaluated(name: str, **params) -> Callable:
    """A family too large for its matrix, its labels computed (:class:`~solvers.classes.evaluated.EvaluatedClass`)."""
    def make():
        from ..classes.evaluated import EvaluatedClass

        return EvaluatedClass(name, params)

    return make


def _matrix(rows, points=None) -> Callable:
    def make():
        from ..classes.finite import ConceptClass

        return ConceptClass.from_matrix(np.asarray(rows, dtype=bool), points)

    return make


def _random(m: int, n: int, seed: int, p: float = 0.5) -> Callable:
    """m rows of n random labels (numpy's generator seeded by ``seed``; duplicates merge)."""
    return _matrix(np.random.default_rng(seed).random((m, n)) < p)


def _twins(m: int, seed: int) -> Callable:
    """A random class on 3 points with each column repeated and complemented: 9 points, 3 distinct up to
    complement (engines that merge such columns must still answer for every point)."""
    base = np.random.default_rng(seed).random((m, 3)) < 0.5
    return _matrix(np.hstack([base, base, ~base, base[:, ::-1], ~base[:, :1]]))


def _experts_listed(n: int, seed: int) -> Callable:
    """The universal class of n experts listed: concept i labels the point x of {0,1}^n with x_i, the 2^n points
    shuffled and a quarter of them repeated (numpy's generator seeded by ``seed``)."""
    rng = np.random.default_rng(seed)
    points = np.arange(1 << n)
    points = rng.permutation(np.concatenate([points, rng.choice(points, size=max(1, len(points) // 4))]))
    return _matrix((points[None, :] >> np.arange(n)[:, None]) & 1)


def _experts(n: int) -> Callable:
    """The universal class of n experts described by n (:class:`~solvers.opt.experts.UniversalExperts`)."""
    def make():
        from .experts import UniversalExperts

        return UniversalExperts(n)

    return make


D1, R0, R1 = Game(errors=1), Game(randomized=True), Game(randomized=True, errors=1)
H2, RH3, D2 = Game(horizon=2), Game(randomized=True, horizon=3), Game(errors=2)
TINY_GAMES = (OPT, R0, D1, R1, H2, RH3)

#: The shared list: small enough that the brute force and every engine answer each in well under a second. (The
#: empty class is not among them: a ConceptClass has at least one concept. The brute force gives it -1, the value
#: the engines give an empty version space.)
CASES: tuple[Case, ...] = (
    Case("thresholds N=7", _family("thresholds", N=7), (OPT, R0, H2)),
    Case("intervals N=5", _family("intervals", N=5)),
    Case("rectangles N=2", _family("rectangles", N=2)),
    Case("monotone-disjunctions n=3 k=2", _family("monotone-disjunctions", n=3, k=2)),
    Case("monotone-disjunctions n=4 k=2", _family("monotone-disjunctions", n=4, k=2)),
    Case("thresholds N=1", _family("thresholds", N=1)),
    Case("intervals N=4 empty=0", _family("intervals", N=4, empty=0)),
    Case("rectangles N=3", _family("rectangles", N=3)),
    Case("monotone-disjunctions n=2 k=1", _family("monotone-disjunctions", n=2, k=1)),
    Case("monotone-disjunctions n=5 k=1", _family("monotone-disjunctions", n=5, k=1)),
    Case("all-functions n=3", _family("all-functions", n=3), (OPT, R0)),
    Case("halfspaces n=2", _family("halfspaces", n=2)),
    Case("singletons N=4", _family("singletons", N=4), (OPT, R0, D1)),
    Case("parities n=3", _family("parities", n=3)),
    Case("conjunctions n=2", _family("conjunctions", n=2)),
    Case("monotone-conjunctions n=3", _family("monotone-conjunctions", n=3)),
    Case("random 12x6 seed=1", _random(12, 6, 1)),
    Case("random 20x8 seed=2", _random(20, 8, 2)),
    Case("random 30x10 seed=3 sparse", _random(30, 10, 3, p=0.25)),
    Case("random 5x3 seed=4", _random(5, 3, 4), TINY_GAMES + (D2,)),
    Case("random 6x4 seed=5", _random(6, 4, 5), TINY_GAMES),
    Case("repeated and complemented columns seed=6", _twins(6, 6), (OPT, R0, D1)),
    Case("repeated and complemented columns seed=7", _twins(8, 7)),
    Case("two experts", _matrix([[0, 1, 0, 1], [0, 0, 1, 1]]), TINY_GAMES + (D2,)),
    Case("one concept", _matrix([[0, 1, 1]]), TINY_GAMES + (D2,)),
    Case("one point, two concepts", _matrix([[0], [1]]), TINY_GAMES),
    Case("one point, one concept", _matrix([[1]]), TINY_GAMES),
    Case("no point", _matrix(np.zeros((1, 0), dtype=bool)), (OPT, R0)),
    Case("experts n=3, points shuffled and repeated", _experts_listed(3, 8), (OPT, R0, D1, R1, D2)),
    Case("experts n=4, points shuffled and repeated", _experts_listed(4, 9), (OPT, R0, D1)),
    Case("experts n=3 (described)", _experts(3), (OPT, R0, D1, R1, D2)),
)

#: Classes that need a search, with their published value in each game (or a range proven to hold it): the deadline
#: and cancel checks.
HARD_CASES: tuple[Case, ...] = (
    # Opt = n + 1 (the dual of elimination, [OnlineAlgs]); floor(log2 |C|) = 9, VC = 6: no cheap bound meets;
    # with a horizon T, min(T, Opt) (solvers.game_rules)
    Case("conjunctions n=6", _family("conjunctions", n=6), (OPT, Game(horizon=5)), {OPT: 7, Game(horizon=5): 5}),
    # 82 concepts on 16 points (the table's 3^16 subcubes): Opt = n + 1 = 5, floor(log2 82) = 6, VC = 4. With one
    # label error: at least Opt (every adversary of Opt(C) is one of D_1's) and at most the volume bound
    # max{q : 2^q <= 82 (1 + q)} = 9 (solvers.game_rules)
    Case("conjunctions n=4", _family("conjunctions", n=4), (OPT, D1), {OPT: 5, D1: (5, 9)}),
    # Opt = floor(log2(N + 1)) ([Rivest94] section 2.3.2), VC = 1
    Case("thresholds N=4095", _family("thresholds", N=4095), (OPT,), {OPT: 12}),
    # the intervals [1, b] are thresholds with their labels complemented: Opt >= floor(log2(N + 1)) = 9; and
    # Opt <= floor(log2 |C|) = floor(log2(N(N + 1)/2 + 1)) = 18 (Halving)
    Case("intervals N=1000 (evaluated)", _evaluated("intervals", N=1000), (OPT,), {OPT: (9, 18)}),
    # Opt = n when k = n (the points e_i are shattered, and Opt <= lg 2^n), on {0,1}^12 listed by its concepts
    Case("monotone-disjunctions n=12 k=12 (implicit)", _implicit("monotone-disjunctions", n=12, k=12), (OPT,),
         {OPT: 12}),
    # RL of all functions on n points is n/2 and, with a horizon T <= n, T/2 ([FHMM23]: the complete tree)
    Case("all-functions n=12", _family("all-functions", n=12), (R0, Game(randomized=True, horizon=6)),
         {R0: Fraction(6), Game(randomized=True, horizon=6): Fraction(3)}),
    # two experts with k label errors: D_k = 2k + 1 ([CFHHSW97])
    Case("two experts, 40 errors", _matrix([[0, 1, 0, 1], [0, 0, 1, 1]]), (Game(errors=40),),
         {Game(errors=40): 81}),
    # n = 1000 experts: RL = E(n) = (d + n/2^d - 1)/2, d = floor(log2 n) ([FHMM23]); with k errors, D_k and R_k
    # at least k + their value without errors (k loops) and at most the volume bound (solvers.game_rules)
    Case("experts n=1000 (described)", _experts(1000), (R0, D2, R1),
         {R0: universal_rl(1000), D2: (2 + 9, volume_bound([0, 0, 1000])),
          R1: (1 + universal_rl(1000), volume_bound([0, 1000]))}),
)


# ---------------------------------------------------------------------------------------------- checks
@dataclass(frozen=True)
class Failure:
    """One check an engine failed: on which case and game, and what was wrong."""

    engine: str
    check: str
    case: str
    game: str
    message: str

    def __str__(self) -> str:
        return f"{self.engine}: {self.check} on {self.case} ({self.game}): {self.message}"


def _control(*, deadline=None, cancel=None):
    """A :class:`solvers.opt.control.Control` with this deadline and cancel event."""
    from .control import Control

    return Control(deadline=deadline, cancel=cancel)


@contextlib.contextmanager
def _kernel(mode: Optional[str]):
    """``$LITTLESTONE_KERNEL`` set to ``mode`` for the block (None: as it is)."""
    if mode is None:
        yield
        return
    old = os.environ.get("LITTLESTONE_KERNEL")
    os.environ["LITTLESTONE_KERNEL"] = mode
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("LITTLESTONE_KERNEL", None)
        else:
            os.environ["LITTLESTONE_KERNEL"] = old


def _name(engine) -> str:
    return str(getattr(engine, "NAME", engine))


def taken(engine, cases: Sequence[Case] = CASES, failures: Optional[list] = None,
          check: str = "takes") -> Iterator[tuple]:
    """(case, C, game) for every game of every case that ``engine.takes`` (C built afresh for each case). With
    ``failures``, a ``takes`` that raises is appended there as a :class:`Failure` of ``check`` (else it
    propagates)."""
    for case in cases:
        C = case.make()
        for game in case.games:
            try:
                why = engine.takes(C, game)
            except Exception as e:  # noqa: BLE001 -- an engine's takes answers, it does not raise
                if failures is None:
                    raise
                failures.append(_failure(engine, check, case, game)(f"takes raised {type(e).__name__}: {e}"))
                continue
            if why is None:
                yield case, C, game


def _proves(cert, C, game: Game, bound: str):
    """(what ``cert`` proves of ``game`` on ``C``, None) by the one checker of :mod:`solvers.certificates`, or
    (None, what is wrong). ``bound`` is "lower" (a tree) or "upper" (an upper-bound certificate): a certificate
    of the other side, or of another game, proves nothing here."""
    from ..certificates import TreeError
    from ..certificates.games import read_game

    try:
        stated = read_game(cert)
        if stated != game:
            return None, f"it is a certificate of {stated.symbol}, not of {game.symbol}"
        if isinstance(cert, dict) and str(cert.get("kind", "")).startswith("experts-"):
            n = universal_experts(C)
            if n is None or cert.get("experts") != n:
                return None, (f"it is a certificate of the game of {cert.get('experts')!r} experts, and the class is "
                              + ("not the universal class of any number of experts" if n is None else
                                 f"the universal class of {n}"))
        try:
            from ..certificates import rule_of, verify
        except ImportError:  # (before one verify checked every certificate)
            return _proves_by_kind(cert, C, game, bound), None
        rule = rule_of(cert)
        if rule.bound != bound:
            return None, f'it follows the rule "{rule.name}", which proves an {rule.bound} bound, not an {bound} one'
        return verify(cert, C), None
    except (TreeError, ValueError) as e:
        return None, f"the checker refuses it: {e}"


def _proves_by_kind(cert, C, game: Game, bound: str):
    """:func:`_proves` by the checker of each kind of certificate."""
    from ..certificates import verify_tree, verify_upper
    from ..certificates.games import verify_error_tree, verify_game_upper, verify_randomized_tree
    from ..certificates.states import verify_state_upper

    if bound == "lower":
        if game.randomized:
            return verify_randomized_tree(cert, C)
        return verify_tree(cert, C) if game.standard else verify_error_tree(cert, C, game.errors, game.horizon)
    if cert.get("kind") == "upper-bound-states":
        return verify_state_upper(cert, C)
    return verify_upper(cert, C) if game.standard else verify_game_upper(cert, C)


def _check_tree(r, C, game: Game, *, required: bool = True) -> Optional[str]:
    """What is wrong with ``r.tree`` as the certificate of ``r.lower`` (None: nothing); with ``required`` False
    (a run that was stopped) no tree is no fault."""
    if r.tree is None:
        return None if r.lower < 0 or not required else f"no tree, and lower = {r.lower} (a tree of that depth is its certificate)"
    got, why = _proves(r.tree.to_json(), C, game, "lower")
    if why is not None:
        return f"its tree proves nothing: {why}"
    if got != r.lower:
        return f"its tree proves {got}, and it reports lower = {r.lower}"
    return None


def _check_upper(r, C, game: Game) -> Optional[str]:
    """What is wrong with ``r.upper_certificate()`` as the certificate of ``r.upper`` (None: nothing)."""
    try:
        cert = r.upper_certificate(limit=1_000_000)
    except Exception as e:  # noqa: BLE001 -- whatever it raises, the engine gave no certificate
        return f"upper_certificate() raised {type(e).__name__}: {e}"
    got, why = _proves(cert, C, game, "upper")
    if why is not None:
        return f"its upper-bound certificate proves nothing: {why}"
    if got != r.upper:
        return f"its upper-bound certificate proves {got}, and it reports upper = {r.upper}"
    return None


def _solve(engine, C, game, control, kernel):
    with _kernel(kernel):
        return engine.solve(C, game, control)


def _judged(engine, check: str, cases, kernel, control, judge) -> list[Failure]:
    """Every case and game of ``cases`` the engine takes, solved under ``control()``: the :class:`Failure` s of
    ``check`` for a ``solve`` that raises and for each message ``judge(case, C, game, result)`` yields."""
    out = []
    for case, C, game in taken(engine, cases, out, check):
        fail = _failure(engine, check, case, game)
        try:
            r = _solve(engine, C, game, control(), kernel)
        except Exception as e:  # noqa: BLE001 -- whatever it raises, the engine gave no answer
            out.append(fail(f"solve raised {type(e).__name__}: {e}"))
            continue
        out.extend(fail(message) for message in judge(case, C, game, r) if message is not None)
    return out


def _value_faults(case: Case, C, game: Game, r) -> Iterator[str]:
    want = case.value(C, game)
    missing = [k for k in ("engine", "stopped") if k not in r.stats]
    if missing:
        yield f"its stats have no {' and no '.join(map(repr, missing))}"
    if getattr(r, "game", game) != game:
        yield f"its result names the game {r.game.symbol}"
    if (r.value, r.lower, r.upper) != (want, want, want):
        yield f"value {r.value}, bounds [{r.lower}, {r.upper}]; the brute force gives {want}"
    elif r.stats.get("stopped") is not None:
        yield f'stats["stopped"] is {r.stats.get("stopped")!r} with no limit given'


def check_value(engine, cases: Sequence[Case] = CASES, kernel: Optional[str] = None) -> list[Failure]:
    """With no limit, ``lower == value == upper`` = the brute force's value on every case taken."""
    return _judged(engine, "value", cases, kernel, _control, _value_faults)


def check_tree(engine, cases: Sequence[Case] = CASES, kernel: Optional[str] = None) -> list[Failure]:
    """The tree of depth ``lower`` is accepted by the game's checker."""
    return _judged(engine, "tree", cases, kernel, _control, lambda case, C, game, r: [_check_tree(r, C, game)])


def check_upper(engine, cases: Sequence[Case] = CASES, kernel: Optional[str] = None) -> list[Failure]:
    """The upper-bound certificate is accepted by the game's checker, for ``upper``."""
    return _judged(engine, "upper", cases, kernel, _control, lambda case, C, game, r: [_check_upper(r, C, game)])


def _holds(lower, upper, want) -> bool:
    """Whether proven bounds [lower, upper] can hold the value ``want`` (a value, or a (low, high) range
    known to hold it)."""
    if isinstance(want, tuple):
        return lower <= want[1] and want[0] <= upper and lower <= upper
    return lower <= want <= upper


def _past_deadline():
    return _control(deadline=time.monotonic() - 1.0)


def _cancelled():
    event = threading.Event()
    event.set()
    return _control(cancel=event)


#: The checks of an engine stopped at once: check -> (the control that stops it, what its ``stats["stopped"]``
#: must say).
_STOPS = {"deadline": (_past_deadline, "time limit"), "cancel": (_cancelled, "cancelled")}


def _check_stopped(engine, check: str, cases, kernel) -> list[Failure]:
    """Every hard case taken, solved under the control of ``check`` (:data:`_STOPS`): proven bounds, its tree (when
    it gives one: a run cut short may leave it out) checked, and its ``stats["stopped"]`` (or nothing stopped when
    it settled the case before its first look at the clock); at least one of them stopped (else the engine never
    looked)."""
    control, stopped = _STOPS[check]
    seen = {"ran": 0, "halted": 0}

    def faults(case: Case, C, game: Game, r) -> Iterator[str]:
        want = case.value(C, game)
        said = r.stats.get("stopped")
        seen["ran"] += 1
        seen["halted"] += said == stopped
        if said != stopped and not (said is None and r.lower == r.upper):
            yield (f'stats["stopped"] is {said!r}, not {stopped!r}, and the bounds [{r.lower}, {r.upper}] are '
                   "not a value")
        if not _holds(r.lower, r.upper, want):
            yield (f"bounds [{r.lower}, {r.upper}] do not hold the value, "
                   f"{'in [%s, %s]' % want if isinstance(want, tuple) else want}")
        elif r.value is not None and (r.value != r.lower or r.lower != r.upper):
            yield f"value {r.value} with bounds [{r.lower}, {r.upper}]"
        yield _check_tree(r, C, game, required=False)

    out = _judged(engine, check, cases, kernel, control, faults)
    ran = seen["ran"] + sum(f.message.startswith("solve raised") for f in out)
    if not ran:
        out.append(Failure(_name(engine), check, "-", "-", "it takes none of the cases given, so this check did not "
                           "run; pass cases= with a class it takes that needs a search"))
    elif not seen["halted"]:
        out.append(Failure(_name(engine), check, f"all {ran} taken", "-",
                           f'it settled every case as if nothing stopped it (no stats["stopped"] == {stopped!r}): '
                           "it does not look at the control, or the cases are too easy for it (pass harder cases=)"))
    return out


def check_deadline(engine, cases: Sequence[Case] = HARD_CASES, kernel: Optional[str] = None) -> list[Failure]:
    """With a deadline already past, the engine stops at once: ``stats["stopped"] == "time limit"`` and
    proven bounds."""
    return _check_stopped(engine, "deadline", cases, kernel)


def check_cancel(engine, cases: Sequence[Case] = HARD_CASES, kernel: Optional[str] = None) -> list[Failure]:
    """With the cancel event already set, the engine stops at once: ``stats["stopped"] == "cancelled"`` and
    proven bounds."""
    return _check_stopped(engine, "cancel", cases, kernel)


def check_refuses(engine, cases: Sequence[Case] = CASES + HARD_CASES, kernel: Optional[str] = None) -> list[Failure]:
    """``takes`` gives a one-line reason (a non-empty str) for every pair it refuses, and ``solve`` on such a
    pair raises ValueError."""
    out = []
    for case in cases:
        C = case.make()
        for game in case.games + (Game(randomized=True, errors=2, horizon=4),):
            fail = _failure(engine, "refuses", case, game)
            try:
                why = engine.takes(C, game)
            except Exception as e:  # noqa: BLE001
                out.append(fail(f"takes raised {type(e).__name__}: {e}"))
                continue
            if why is None:
                continue
            if not isinstance(why, str) or not why.strip() or "\n" in why.strip():
                out.append(fail(f"takes gave {why!r}, not None or a one-line reason"))
                continue
            try:
                with _kernel(kernel):
                    engine.solve(C, game, _control(deadline=time.monotonic() + 5.0))
            except ValueError:
                continue
            except Exception as e:  # noqa: BLE001
                out.append(fail(f"solve on a pair it refuses ({why}) raised {type(e).__name__}, not ValueError"))
                continue
            out.append(fail(f"solve on a pair it refuses ({why}) returned instead of raising ValueError"))
    return out


def _failure(engine, check: str, case: Case, game: Game) -> Callable[[str], Failure]:
    return lambda message: Failure(_name(engine), check, case.name, game.symbol, message)


#: The checks by name, in the order :func:`check_engine` runs them.
CHECKS: dict[str, Callable] = {
    "value": check_value,
    "tree": check_tree,
    "upper": check_upper,
    "deadline": check_deadline,
    "cancel": check_cancel,
    "refuses": check_refuses,
}


def checks(engine, *, cases: Optional[Sequence[Case]] = None, kernel: Optional[str] = None,
           only: Optional[Sequence[str]] = None) -> Iterator[tuple[str, Callable[[], list]]]:
    """The checks of ``engine`` one by one, as (name, a call returning its failures), without running them
    (as scikit-learn's ``check_estimator(generate_only=True)``); ``cases`` replaces :data:`CASES` and
    :data:`HARD_CASES` both."""
    for name, check in CHECKS.items():
        if only is not None and name not in only:
            continue
        if cases is None:
            yield name, (lambda check=check: check(engine, kernel=kernel))
        else:
            yield name, (lambda check=check: check(engine, list(cases), kernel=kernel))


def check_engine(engine, *, cases: Optional[Sequence[Case]] = None, kernel: Optional[str] = None,
                 only: Optional[Sequence[str]] = None) -> list[Failure]:
    """Run every check of :data:`CHECKS` on ``engine``; the failures found (empty: it conforms).

    Parameters
    ----------
    engine : module or object
        With ``NAME``, ``takes(C, game)`` and ``solve(C, game, control, tuning=None)``.
    cases : sequence of Case, optional
        The classes to run it on (default: :data:`CASES` for the answers, :data:`HARD_CASES` for the
        deadline and the cancel).
    kernel : {"numba", "python"}, optional
        ``$LITTLESTONE_KERNEL`` while the engine runs (the search's compiled kernel or its Python path).
    only : sequence of str, optional
        The names of the checks to run (default: all of :data:`CHECKS`).

    Returns
    -------
    list of Failure

    Raises
    ------
    ValueError
        For an engine without ``takes`` and ``solve``, or an unknown name in ``only``.
    """
    if not callable(getattr(engine, "takes", None)) or not callable(getattr(engine, "solve", None)):
        raise ValueError(f"{engine!r} is not an engine: give a module or object with takes(C, game) and "
                         "solve(C, game, control, tuning=None)")
    unknown = set(only or ()) - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown check {sorted(unknown)[0]!r}; use some of {', '.join(CHECKS)}")
    out: list[Failure] = []
    for _, run in checks(engine, cases=cases, kernel=kernel, only=only):
        out.extend(run())
    return out
