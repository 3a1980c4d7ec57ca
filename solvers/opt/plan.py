"""``auto`` as a pure function: :func:`plan` maps a small description of a class (:class:`ClassFacts`), the game, the
workers, the time limit and the engine asked for to a :class:`Plan`, the ordered steps :func:`solvers.opt.opt` runs.

Every plan for Opt(C) on ``auto`` begins with what settles a class cheaply whatever engine follows:

``shattered set``
    A set of points C shatters, grown greedily (:func:`solvers.opt.anytime.shattered_points`): d points shattered
    prove Opt(C) >= d (the complete mistake tree over them, [Rivest94]), and when d = floor(log2 |C|), Halving's
    upper bound, Opt(C) = d without a search (all-functions). On listed classes of at least
    :attr:`Tuning.shattered_from <solvers.opt.control.Tuning.shattered_from>` concepts, and under a time limit with
    the anytime pass on every listed class.
``learners``
    The proven mistake bounds of the learners that apply (given by the caller as data: :func:`solvers.opt.opt`'s
    ``bounds``), each an upper bound on Opt(C); one that meets the shattered set's lower bound settles Opt(C).

Then the engine (one of :data:`solvers.opt.engines.REGISTRY`), with its share of the time: ``packed`` for listed
classes over at most 64 points past :attr:`~solvers.opt.control.Tuning.packed_from` concepts, ``states`` or
``disjunctions`` for the families with a search of their own, ``search`` for any listed class, followed by ``table``
when the class has at most 17 distinct points (the search first, for the share of the table's estimated cost
:attr:`~solvers.opt.control.Tuning.table_share`), ``games`` for the randomized and k-error games. With a time limit a
plan ends with the ``anytime`` pass (a smaller member of the family embedded, restrictions, the packed search's tree,
and the learners' bounds for the upper bound: :mod:`solvers.opt.anytime`), which gets
:attr:`~solvers.opt.control.Tuning.anytime_share` of the time; a deterministic game with a horizon ends with ``cap``
(min(T, Opt(C))).

The smaller member embedded is in the ``anytime`` pass rather than at the head of the plan: solving the smaller
instances costs more than the search itself on the classes the search settles in seconds.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> facts = ClassFacts(listed=True, n_concepts=2**20, n_points=20, log2_size=20, distinct_points=20,
...                    family="all-functions")
>>> plan(facts, Game()).names
('shattered set', 'packed')
>>> plan(ClassFacts(listed=True, n_concepts=101, n_points=100, log2_size=6, distinct_points=18), Game()).names
('search',)
>>> plan(ClassFacts(evaluated=True, n_concepts=10**8, n_points=10**4, log2_size=26, family="intervals",
...                 params=(("N", 10**4),), states=True), Game(), time_limit=60).names
('states', 'anytime')
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field, fields

from ..classes.evaluated import EvaluatedClass
from ..classes.finite import ConceptClass
from ..game_rules import Game
from . import disjunctions, packed
from .control import Tuning

__all__ = ["ClassFacts", "Step", "Plan", "plan", "first_plan", "needs_count", "may_settle", "distinct_points",
           "ENGINE_CHOICES", "SETTLERS"]

#: The engines :func:`solvers.opt.opt` accepts by name (``auto``: the plan's choice).
ENGINE_CHOICES = ("auto", "search", "table", "packed", "states")
#: Classes of at most this many distinct points are solved by the bottom-up table (:mod:`solvers.opt.subcube`).
MAX_TABLE_POINTS = 17
#: The families the states engine searches over compact states (:mod:`solvers.opt.intervals`,
#: :mod:`solvers.opt.rectangles`); halfspaces, evaluated too, are read as truth tables by the packed engine.
STATES_FAMILIES = ("thresholds", "intervals", "rectangles")
#: Families whose smaller instances embed in a larger one (the anytime pass lifts their trees): see
#: :data:`solvers.opt.anytime.EMBEDS`, of which this is the list of names.
EMBEDS = frozenset({"decision-lists", "monotone-disjunctions", "disjunctions", "conjunctions", "monotone-conjunctions",
                    "parities", "halfspaces", "thresholds", "intervals", "rectangles", "all-functions"})


@dataclass(frozen=True)
class ClassFacts:
    """What :func:`plan` needs to know of a class (built by :meth:`of`; all plain values).

    Attributes
    ----------
    listed : bool
        The class has a 0/1 matrix (a :class:`~solvers.classes.finite.ConceptClass`).
    evaluated : bool
        An :class:`~solvers.classes.evaluated.EvaluatedClass` (no matrix: only its own engines read it).
    tables : bool
        It holds the concepts' 64-bit truth tables (halfspaces on {0,1}^6): the packed engine's alone.
    n_concepts, n_points : int
    log2_size : int
        floor(log2 |C|), Halving's bound (-1 for an empty class).
    distinct_points : int or None
        Points up to equal-or-complementary columns, the constant ones left out (known up to 18: a larger count
        is given as 18; None when not listed, or not counted: ``ClassFacts.of(C, count=False)``, as
        :func:`solvers.opt.opt` builds them when :func:`needs_count` says the plan does not read them).
    family : str or None
        The family that made it (``make`` or implicit), with its ``params`` as sorted items.
    params : tuple
    made : bool
        Built by its family's ``make`` (its family and parameters name the class), not only claiming the family.
    disjunctions : bool
        ``monotone-disjunctions n k`` made by its family (:func:`solvers.opt.disjunctions.handles`).
    states : bool
        A class of thresholds, intervals or rectangles the states engine reads (evaluated, or made by its family).
    """

    listed: bool = False
    evaluated: bool = False
    tables: bool = False
    n_concepts: int = 0
    n_points: int = 0
    log2_size: int = -1
    distinct_points: int | None = None
    family: str | None = None
    params: tuple = ()
    made: bool = False
    disjunctions: bool = False
    states: bool = False

    @property
    def points_bound(self) -> int:
        """The distinct points when counted exactly (at most 17), else all the points: a shattered set has no more.
        (Halving's floor(log2 |C|) is at most either: |C| distinct concepts take that many distinct points.)"""
        d = self.distinct_points
        return d if d is not None and d <= MAX_TABLE_POINTS else self.n_points

    @property
    def embeds(self) -> bool:
        """A family whose smaller instances embed in this one (the anytime pass's ``embedded``)."""
        return self.family in EMBEDS and bool(self.params)

    @classmethod
    def of(cls, C, count: bool = True) -> "ClassFacts":
        """The facts of class ``C`` (reads its size, family and, when listed and ``count``, its columns until 18
        distinct ones are seen: :meth:`counted`; ``count=False`` leaves ``distinct_points`` None, for
        :func:`needs_count` to say whether the plan reads it)."""
        if type(C) is ConceptClass:  # (the common case, read at once)
            listed, evaluated = True, False
            n_concepts, n_points = C.matrix.shape
            params, family, made = C.params, C.family, C.made
        else:
            listed = bool(getattr(C, "finite", False)) and getattr(C, "matrix", None) is not None
            evaluated = isinstance(C, EvaluatedClass)
            params = getattr(C, "params", None)
            family = getattr(C, "family", None)
            n_points = int(getattr(C, "n_points", 0) or 0)
            n_concepts = int(getattr(C, "n_concepts", 0) or 0)
            made = bool(getattr(C, "made", False))
        facts = object.__new__(cls)  # (the fields set at once: the frozen __init__ sets them one by one, ~3 us)
        facts.__dict__.update(
            listed=listed, evaluated=evaluated, tables=evaluated and packed.handles(C),
            n_concepts=n_concepts, n_points=n_points, log2_size=n_concepts.bit_length() - 1,
            distinct_points=distinct_points(C) if listed and count else None,
            family=family, params=tuple(sorted(params.items())) if isinstance(params, dict) else (),
            made=made, disjunctions=family == disjunctions.FAMILY and disjunctions.handles(C),
            states=family in STATES_FAMILIES and (evaluated or made))
        return facts

    def counted(self, C) -> "ClassFacts":
        """These facts (of ``C``) with its distinct points counted (up to 18) when it is listed."""
        if not self.listed or self.distinct_points is not None:
            return self
        facts = object.__new__(ClassFacts)  # (a copy with one field set: dataclasses.replace costs ~10 us)
        facts.__dict__.update(self.__dict__, distinct_points=distinct_points(C))
        return facts

    @property
    def table_points(self) -> int:
        """The distinct points the table's cost is estimated on: the count, else (not counted) all the points of a
        listed class, which bound it."""
        if self.distinct_points is not None:
            return self.distinct_points
        return self.n_points if self.listed else 0


def distinct_points(C, most: int = MAX_TABLE_POINTS + 1) -> int:
    """The points of listed ``C`` up to equal-or-complementary columns, constant ones left out; counted up to
    ``most`` (the table's limit and one: the plan needs no more)."""
    if C.n_points <= 256:  # the class's distinct splits (cached: the search's root is made of them)
        return min(len(C.distinct_splits()[0]), most)
    import numpy as np

    # The class's column words (cached: the search's root splits of a class over more points are read from them).
    words = C.column_words
    m = C.n_concepts
    full = np.frombuffer(((1 << m) - 1).to_bytes(words.shape[1] * 8, "little"), dtype="<u8")
    seen = set()
    for j in range(0, words.shape[0], 32):
        rows = words[j:j + 32]
        counts = np.bitwise_count(rows).sum(axis=1, dtype=np.int64)
        rows = rows[(counts > 0) & (counts < m)]
        canon = np.where((rows[:, :1] & np.uint64(1)) == 0, rows ^ full, rows)  # (the side without concept 0)
        for row in canon:
            seen.add(row.tobytes())
        if len(seen) >= most:
            break
    return min(len(seen), most)


@dataclass(frozen=True)
class Step:
    """One step of a :class:`Plan`.

    Attributes
    ----------
    name : str
        A settler (``"shattered set"``, ``"learners"``), an engine of :data:`solvers.opt.engines.REGISTRY`, or
        ``"anytime"`` / ``"cap"``.
    until : float or None
        With a time limit, the step ends by this fraction of it (from the start of the call); None: the whole.
    cap : float or None
        The step ends by this many seconds from the start of the call, time limit or not (None: no cap).
    """

    name: str
    until: float | None = None
    cap: float | None = None


@dataclass(frozen=True)
class Plan:
    """The steps :func:`solvers.opt.opt` runs, in order; the first that settles Opt(C) ends the run.

    Attributes
    ----------
    steps : tuple of Step
    names : tuple of str
        The steps' names, in order.
    """

    steps: tuple = field(default_factory=tuple)

    def __post_init__(self):
        # The names of the steps, in order (set once: a cached_property costs ~1.5 us on its first read).
        object.__setattr__(self, "names", tuple([s.name for s in self.steps]))

    def __iter__(self):
        return iter(self.steps)


def plan(facts: ClassFacts, game: Game = Game(), *, jobs: int = 1, time_limit: float | None = None,
         engine: str = "auto", tuning: Tuning | None = None, solver: str | None = None, bounds: bool = False,
         anytime: bool = True, cluster: bool = False) -> Plan:
    """The steps that compute ``game``'s value on the class ``facts`` describes (a pure function: no class, no
    clock, no environment).

    Parameters
    ----------
    facts : ClassFacts
    game : Game
    jobs : int
        Worker processes (> 1: the search is spread, and the packed engine, a one-process search, is not chosen).
    time_limit : float, optional
        Seconds (only whether there is one, and the shares of it, matter here).
    engine : {"auto", "search", "table", "packed", "states"}
    tuning : Tuning, optional
    solver : {"search", "states", "games"}, optional
        The kind of warm solver the caller gives (its engine is then the one that runs).
    bounds : bool
        Whether the caller gives the learners' bounds (the ``learners`` step).
    anytime : bool
        False: the engine alone (no settler, no anytime pass).
    cluster : bool
        A Dask cluster takes the search.

    Returns
    -------
    Plan

    Raises
    ------
    ValueError
        When the engine asked for does not take the class or the game (one line saying what to change).
    """
    t = tuning or Tuning.default()
    if t is not Tuning.default():
        return _plan(facts, game, jobs, time_limit is not None, engine, t, solver, bounds, anytime, cluster)
    # (a pure function of plain values: the default tuning's plans are kept, as opt() asks on every call)
    key = (_fact_values(facts), game, jobs, time_limit is not None, engine, solver, bounds, anytime, cluster)
    try:
        steps = _PLANS.get(key)
    except TypeError:  # (a family parameter that is not hashable)
        return _plan(facts, game, jobs, time_limit is not None, engine, t, solver, bounds, anytime, cluster)
    if steps is None:
        steps = _plan(facts, game, jobs, time_limit is not None, engine, t, solver, bounds, anytime, cluster)
        if len(_PLANS) >= _PLANS_KEPT:
            _PLANS.clear()
        _PLANS[key] = steps
    return steps


#: The default tuning's plans, by their arguments (at most _PLANS_KEPT: past it they are dropped all at once).
_PLANS: dict = {}
_PLANS_KEPT = 4096
#: A ClassFacts' fields as a tuple, in their order (hashed and compared in C, where the dataclass's own hash and eq
#: build their tuples in Python).
_fact_values = operator.attrgetter(*(f.name for f in fields(ClassFacts)))


def _plan(facts: ClassFacts, game: Game, jobs: int, timed: bool, engine: str, t: Tuning, solver: str | None,
          bounds: bool, anytime: bool, cluster: bool) -> Plan:
    """:func:`plan`, with ``timed``: whether there is a time limit."""
    if engine not in ENGINE_CHOICES:
        raise ValueError(f"unknown engine {engine!r}; use one of {', '.join(ENGINE_CHOICES)}")
    if facts.tables and (not game.standard or engine not in ("auto", "states", "packed")):
        raise ValueError("only Opt(C) is computed for this class, by its own engine (packed truth tables); "
                         "drop the game options and the engine")
    if engine == "packed" and (not game.standard or facts.n_points > 64 or not (facts.tables or facts.listed)):
        raise ValueError("the packed engine computes Opt(C) of a listed class over at most 64 points; drop the game "
                         "options, or use engine 'auto'")
    if not game.standard and not (game.randomized or game.errors):  # a horizon: Opt(C) capped at T
        inner = _plan(facts, Game(), jobs, timed, engine, t, solver, bounds, anytime, cluster)
        if inner.names[-1] in ("states", "disjunctions"):
            raise ValueError("the states engine computes Opt(C) only; the other games need the class's matrix "
                             "(a smaller N, engine 'auto')")
        return Plan(inner.steps + (Step("cap"),))
    if not game.standard:
        if engine == "table":
            raise ValueError("the table engine computes Opt(C) only; use engine 'auto' for the other games")
        if facts.evaluated or engine == "states" or not facts.listed:
            raise ValueError("the states engine computes Opt(C) only; the other games need the class's matrix "
                             "(a smaller N, engine 'auto')")
        return Plan((Step("games"),))

    spread = cluster or jobs > 1
    steps: list = []
    # The engine.
    if facts.tables or engine == "packed" or (
            engine == "auto" and facts.listed and facts.n_points <= 64 and facts.n_concepts > t.packed_from
            and not spread):
        body = [Step("packed")]
        tail = False  # (the packed engine finds its deep trees itself)
    else:
        if _by_family(facts, engine, t, solver) or engine == "states" or facts.evaluated:
            if not (facts.states or facts.disjunctions):
                raise ValueError(f"the state engine needs a class of {', '.join(STATES_FAMILIES)} or "
                                 "monotone-disjunctions made by its family; use engine 'auto' or 'search'")
            if engine == "table":
                raise ValueError("the table engine needs the class's matrix; use engine 'states' or 'auto'")
            body = [Step("disjunctions" if facts.disjunctions else "states")]
        elif engine == "table":
            if facts.distinct_points is not None and facts.distinct_points > MAX_TABLE_POINTS:
                raise ValueError(f"the table engine handles at most {MAX_TABLE_POINTS} distinct points and this "
                                 "class has more; use engine 'search' or 'auto'")
            body = [Step("table")]
        elif engine == "auto" and facts.table_points <= MAX_TABLE_POINTS:
            N = facts.table_points
            body = [Step("search", cap=max(t.table_min_seconds, t.table_share * t.table_seconds(N))), Step("table")]
        else:
            body = [Step("search")]
        # The anytime pass: with a time limit, on a class it can do something for.
        tail = (anytime and timed and engine in ("auto", "search", "states")
                and solver in (None, "search")
                and (facts.embeds or (facts.listed and facts.n_concepts >= t.anytime_min_concepts
                                      and facts.n_points >= 2)))
    # The settlers: on auto, and under a time limit before the search the anytime pass wraps.
    if anytime and (engine == "auto" or tail):
        if (facts.listed and (facts.n_concepts >= t.shattered_from or tail)
                and 1 <= facts.log2_size <= facts.points_bound):
            steps.append(Step("shattered set"))  # (bounded by its work: see Tuning.shattered_from)
        if bounds and facts.n_concepts >= t.learners_from and (facts.listed or facts.family is not None):
            steps.append(Step("learners"))
    if tail:
        share = 1 - t.anytime_share
        body = [Step(s.name, until=share, cap=s.cap) for s in body] + [Step("anytime")]
    return Plan(tuple(steps + body))


#: The steps of a plan that settle a class cheaply before its engine (they read no count of its distinct points).
SETTLERS = ("shattered set", "learners")


def first_plan(facts: ClassFacts, game: Game = Game(), *, jobs: int = 1, time_limit: float | None = None,
               engine: str = "auto", tuning: Tuning | None = None, solver: str | None = None, bounds: bool = False,
               anytime: bool = True, cluster: bool = False) -> tuple[bool, Plan | None]:
    """What :func:`solvers.opt.opt` does before it counts the distinct points of the class ``facts`` describes (built
    with ``count=False``), given :func:`plan`'s arguments: ``(count, first)``.

    - ``(False, p)``: the plan does not read the count (:func:`needs_count`); ``p`` is the plan.
    - ``(True, p)``: ``p`` (the plan without the count) begins with a settler, which needs no count: run it, and
      count only when the engine comes (the settlers of the counted plan are the same).
    - ``(True, None)``: count, then :func:`plan`.

    Kept like :func:`plan`'s answers (the default tuning's, by their arguments)."""
    t = tuning or Tuning.default()
    key = None
    if t is Tuning.default():
        key = ("first", _fact_values(facts), game, jobs, time_limit is not None, engine, solver, bounds, anytime,
               cluster)
        try:
            found = _PLANS.get(key)
        except TypeError:  # (a family parameter that is not hashable)
            key = found = None
        if found is not None:
            return found
    options = dict(jobs=jobs, time_limit=time_limit, engine=engine, tuning=tuning, solver=solver, bounds=bounds,
                   anytime=anytime, cluster=cluster)
    if not needs_count(facts, game, jobs=jobs, engine=engine, tuning=t, solver=solver, cluster=cluster):
        found = (False, plan(facts, game, **options))
    elif may_settle(facts, time_limit=time_limit, tuning=t, anytime=anytime):
        steps = plan(facts, game, **options)
        found = (True, steps if steps.steps[0].name in SETTLERS else None)
    else:
        found = (True, None)
    if key is not None:
        if len(_PLANS) >= _PLANS_KEPT:
            _PLANS.clear()
        _PLANS[key] = found
    return found


def _by_family(facts: ClassFacts, engine: str, t: Tuning, solver: str | None) -> bool:
    """Whether ``auto`` sends the class to its family's own engine (monotone disjunctions made by their family, not
    listed or over at least :attr:`Tuning.disjunctions_from <solvers.opt.control.Tuning.disjunctions_from>` points)."""
    return (engine == "auto" and solver != "search" and facts.disjunctions
            and (not facts.listed or facts.n_points >= t.disjunctions_from))


def may_settle(facts: ClassFacts, *, time_limit: float | None = None, tuning: Tuning | None = None,
               anytime: bool = True) -> bool:
    """False when no settler (``shattered set``, ``learners``) can head :func:`plan`'s steps for the class ``facts``
    describes, whatever the other arguments (a cheap test: True says only that one may)."""
    t = tuning or Tuning.default()
    return anytime and (facts.n_concepts >= min(t.shattered_from, t.learners_from) or (
        time_limit is not None and (facts.embeds or facts.n_concepts >= t.anytime_min_concepts)))


def needs_count(facts: ClassFacts, game: Game = Game(), *, jobs: int = 1, engine: str = "auto",
                tuning: Tuning | None = None, solver: str | None = None, cluster: bool = False) -> bool:
    """Whether :func:`plan`, given the same arguments, reads the distinct points of the class ``facts`` describes
    (built by ``ClassFacts.of(C, count=False)``); when not, the plan is the same with the count or without it, and
    :meth:`ClassFacts.counted` would be work for nothing (on a class over thousands of points it reads every column).

    Read only by the ``table`` engine's check and by ``auto``'s choice of the search then the table, with the
    search's cap from the table's estimated cost; not for a class the packed engine, its family's engine (the
    disjunctions) or the games engine takes, nor when even all the points of the class make a table whose share of
    the cost is below :attr:`Tuning.table_min_seconds <solvers.opt.control.Tuning.table_min_seconds>` (the cap is
    then that least whatever the count). The shattered set's test needs no count: a class of |C| distinct concepts
    has at least floor(log2 |C|) distinct points."""
    t = tuning or Tuning.default()
    if not facts.listed or facts.distinct_points is not None:
        return False
    if not game.standard and (game.randomized or game.errors):
        return False  # (the games engine)
    if engine not in ("auto", "table"):
        return False
    if engine == "auto" and (facts.tables or _by_family(facts, engine, t, solver) or (
            facts.n_points <= 64 and facts.n_concepts > t.packed_from and not (cluster or jobs > 1))):
        return False
    n = facts.n_points
    return not (n <= MAX_TABLE_POINTS and t.table_share * t.table_seconds(n) <= t.table_min_seconds)
