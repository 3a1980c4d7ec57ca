"""solvers/opt/plan.py: ``auto`` as a pure function, tested as a table of cases (class facts, game, jobs, time limit,
engine, ...) -> the names of the steps; and ClassFacts.of on real classes."""

from __future__ import annotations

import pytest

from solvers.classes.families import make
from solvers.game_rules import Game
from solvers.opt import ClassFacts, Tuning, plan
from solvers.opt.plan import may_settle, needs_count


def listed(m, n, *, distinct=None, family=None, params=(), made=False, disjunctions=False, states=False):
    """The facts of a listed class of m concepts over n points (``distinct``: n by default, capped at 18)."""
    return ClassFacts(listed=True, n_concepts=m, n_points=n, log2_size=m.bit_length() - 1,
                      distinct_points=min(18, n if distinct is None else distinct), family=family, params=params,
                      made=made, disjunctions=disjunctions, states=states)


ALL20 = listed(2**20, 20, family="all-functions", params=(("n", 20),), made=True)
ALL14 = listed(2**14, 14, family="all-functions", params=(("n", 14),), made=True)
DL6 = listed(260_134, 64, family="decision-lists", params=(("n", 6),), made=True)
RANDOM = listed(10_000, 40)                                   # a user's matrix: no family
SMALL = listed(101, 100, family="thresholds", params=(("N", 100),), made=True, states=True)
TINY = listed(96, 8, family="decision-lists", params=(("n", 3),), made=True)
EVAL_INTERVALS = ClassFacts(evaluated=True, n_concepts=10**9, n_points=10**4, log2_size=29, family="intervals",
                            params=(("N", 10**4),), states=True)
IMPLICIT_DISJ = ClassFacts(n_concepts=10**12, n_points=2**24, log2_size=39, family="monotone-disjunctions",
                           params=(("k", 2), ("n", 24)), disjunctions=True)
LISTED_DISJ_SMALL = listed(29, 32, family="monotone-disjunctions", params=(("k", 2), ("n", 5)), made=True,
                           disjunctions=True)
LISTED_DISJ = listed(1_000, 1024, family="monotone-disjunctions", params=(("k", 2), ("n", 10)), made=True,
                     disjunctions=True)
HALFSPACES6 = ClassFacts(evaluated=True, tables=True, n_concepts=15_028_134, n_points=64, log2_size=23,
                         family="halfspaces", params=(("n", 6),))
BIG_WIDE = listed(200_000, 100)                               # past PACKED_FROM, but over more than 64 points

D = Game()
R = Game.of("randomized", 0, None)
K = Game.of("deterministic", 1, None)
T = Game.of("deterministic", 0, 3)

TABLE = [
    # (facts, game, options, steps)
    (ALL20, D, {}, ("shattered set", "packed")),
    (ALL20, D, {"time_limit": 60}, ("shattered set", "packed")),   # the documented regression: the settler first
    (ALL20, D, {"bounds": True}, ("shattered set", "learners", "packed")),
    (ALL14, D, {}, ("shattered set", "search", "table")),
    (ALL14, D, {"time_limit": 60}, ("shattered set", "search", "table", "anytime")),
    (ALL14, D, {"anytime": False}, ("search", "table")),
    (ALL20, D, {"jobs": 2}, ("shattered set", "search")),            # the packed engine is one process's
    (ALL20, D, {"engine": "search"}, ("search",)),
    (ALL20, D, {"engine": "search", "time_limit": 60}, ("shattered set", "search", "anytime")),
    (DL6, D, {}, ("shattered set", "packed")),
    (DL6, D, {"tuning": Tuning(packed_from=10**6)}, ("shattered set", "search")),
    (RANDOM, D, {}, ("shattered set", "search")),
    (RANDOM, D, {"time_limit": 10}, ("shattered set", "search", "anytime")),
    (SMALL, D, {}, ("search",)),                                     # (small: the search settles it)
    (SMALL, D, {"time_limit": 10}, ("shattered set", "search", "anytime")),  # thresholds embed: the anytime pass
    (SMALL, D, {"tuning": Tuning(shattered_from=100)}, ("shattered set", "search")),
    (SMALL, D, {"engine": "states"}, ("states",)),
    (TINY, D, {}, ("search", "table")),
    (TINY, D, {"engine": "table"}, ("table",)),
    (TINY, R, {}, ("games",)),
    (TINY, K, {"time_limit": 5}, ("games",)),
    (TINY, T, {}, ("search", "table", "cap")),
    (listed(40, 8, distinct=4), D, {"time_limit": 5, "tuning": Tuning(anytime_min_concepts=1)},
     ("search", "table", "anytime")),                                # floor(log2 40) = 5 > 4 distinct points
    (EVAL_INTERVALS, D, {}, ("states",)),
    (EVAL_INTERVALS, D, {"time_limit": 30}, ("states", "anytime")),
    (IMPLICIT_DISJ, D, {}, ("disjunctions",)),
    (LISTED_DISJ_SMALL, D, {}, ("search",)),                         # fewer points: the generic search is faster
    (LISTED_DISJ_SMALL, D, {"tuning": Tuning(disjunctions_from=0)}, ("disjunctions",)),
    (LISTED_DISJ_SMALL, D, {"anytime": False}, ("search",)),
    (LISTED_DISJ, D, {}, ("disjunctions",)),
    (LISTED_DISJ, D, {"solver": "search"}, ("search",)),             # a warm Solver given: its engine
    (HALFSPACES6, D, {}, ("packed",)),
    (BIG_WIDE, D, {}, ("shattered set", "search")),
]


@pytest.mark.parametrize("facts,game,options,steps", TABLE)
def test_the_plan_table(facts, game, options, steps):
    assert plan(facts, game, **options).names == steps


@pytest.mark.parametrize("facts,game,options,steps", TABLE)
def test_the_kept_plans_are_the_plans(facts, game, options, steps):
    """The default tuning's plans are kept by their arguments: asked again (another time limit), and with a tuning
    equal to the default but another object (not kept), the plan is the same, steps and shares."""
    first = plan(facts, game, **options)
    again = {**options, "time_limit": 7.5} if options.get("time_limit") else options
    assert plan(facts, game, **again) == first
    assert plan(facts, game, **{"tuning": Tuning(), **options}) == first


def test_shares_of_the_time():
    """Under a time limit with the anytime pass, the engines end by 1 - anytime_share of it; the shattered set is
    bounded by its work alone; the search before the table is capped at its share of the table's cost."""
    p = plan(ALL14, D, time_limit=60)
    shattered, search, table, tail = p.steps
    t = Tuning()
    assert shattered.until is None and shattered.cap is None
    assert search.until == table.until == 1 - t.anytime_share
    assert search.cap == max(t.table_min_seconds, t.table_share * t.table_seconds(14))
    assert tail.until is None


@pytest.mark.parametrize("facts,game,options,message", [
    (HALFSPACES6, R, {}, r"only Opt\(C\)"),
    (HALFSPACES6, D, {"engine": "search"}, r"only Opt\(C\)"),
    (BIG_WIDE, D, {"engine": "packed"}, "at most 64 points"),
    (TINY, R, {"engine": "table"}, r"table engine computes Opt\(C\) only"),
    (EVAL_INTERVALS, R, {}, "need the class's matrix"),
    (EVAL_INTERVALS, D, {"engine": "table"}, "needs the class's matrix"),
    (RANDOM, D, {"engine": "table"}, "at most 17 distinct points"),
    (TINY, D, {"engine": "fast"}, "unknown engine"),
])
def test_an_engine_that_does_not_take_the_class_says_what_to_change(facts, game, options, message):
    with pytest.raises(ValueError, match=message):
        plan(facts, game, **options)


def test_facts_of_real_classes():
    C = make("all-functions", n=5)
    f = ClassFacts.of(C)
    assert (f.listed, f.n_concepts, f.n_points, f.log2_size, f.distinct_points) == (True, 32, 5, 5, 5)
    assert f.family == "all-functions" and f.params == (("n", 5),) and f.embeds
    # equal and complementary columns count once, constant ones not at all
    import numpy as np

    from solvers.classes import ConceptClass

    M = np.array([[0, 1, 1, 0, 0], [1, 0, 1, 1, 0], [1, 0, 1, 0, 0]], dtype=bool)
    assert ClassFacts.of(ConceptClass.from_matrix(M)).distinct_points == 2
    wide = ClassFacts.of(make("thresholds", N=40))
    assert wide.distinct_points == 18 and wide.states and not wide.disjunctions  # (counted up to 18)
    assert ClassFacts.of(make("monotone-disjunctions", n=5, k=2)).disjunctions


def test_the_plan_is_pure():
    """Same inputs, same plan; the plan reads no clock and no environment (the facts are plain values)."""
    import os

    a = plan(ALL20, D, time_limit=60, bounds=True)
    os.environ["LITTLESTONE_SPREAD_TRIAL"] = "0"
    try:
        assert plan(ALL20, D, time_limit=60, bounds=True) == a
    finally:
        del os.environ["LITTLESTONE_SPREAD_TRIAL"]
    assert hash(ALL20) == hash(listed(2**20, 20, family="all-functions", params=(("n", 20),), made=True))


def test_the_environment_paces_only_the_spread_search(monkeypatch):
    """opt() reads the environment (Tuning.from_env) only for a search spread over workers: every variable it reads
    sets a spread_* field, so a one-process run with Tuning.default() is the same run."""
    import dataclasses

    assert Tuning.ENV and all(name.startswith("spread_") for name in Tuning.ENV.values())
    spread = {f.name for f in dataclasses.fields(Tuning) if f.name.startswith("spread_")}
    assert set(Tuning.ENV.values()) <= spread
    from solvers.opt import opt

    read = []
    monkeypatch.setattr(Tuning, "from_env", classmethod(lambda cls, *a, **kw: read.append(1) or Tuning()))
    assert opt(make("thresholds", N=9)).value == 3 and not read


@pytest.mark.parametrize("m,lo,hi", [(40, 18, 70), (300, 257, 400)])  # the column bitsets; the column words
def test_distinct_points_are_the_searchs_root_splits(m, lo, hi):
    """ClassFacts counts the points up to equal-or-complementary columns, constant ones left out, as the search
    does (its root splits), up to 18."""
    import numpy as np

    from solvers.classes import ConceptClass
    from solvers.opt.search import Solver

    rng = np.random.default_rng(m)
    for _ in range(30):
        k = int(rng.integers(1, 24))
        base = rng.random((m, k)) < 0.5
        n = int(rng.integers(lo, hi))
        M = base[:, rng.integers(0, k, n)] ^ (rng.random(n) < 0.5)
        M[:, int(rng.integers(0, n))] = bool(rng.random() < 0.5)  # a constant column
        C = ConceptClass.from_matrix(M)
        assert ClassFacts.of(C).distinct_points == min(18, len(Solver(C).root_masks))


# ClassFacts.of(C, count=False) and needs_count: opt() counts the distinct points only when the plan reads them.
_COUNT_CLASSES = [("monotone-disjunctions", {"n": 12, "k": 2}), ("monotone-disjunctions", {"n": 5, "k": 2}),
                  ("singletons", {"N": 18}), ("singletons", {"N": 12}), ("intervals", {"N": 14}),
                  ("thresholds", {"N": 12}), ("all-functions", {"n": 14}), ("all-functions", {"n": 17}),
                  ("conjunctions", {"n": 3}), ("parities", {"n": 4}), ("thresholds", {"N": 40})]
_COUNT_OPTIONS = [{}, {"time_limit": 60}, {"engine": "search"}, {"engine": "table"}, {"engine": "packed"},
                  {"engine": "states"}, {"jobs": 2}, {"solver": "search"}, {"tuning": Tuning(packed_from=10)},
                  {"tuning": Tuning(table_min_seconds=0.0)}, {"tuning": Tuning(disjunctions_from=10**6)}]


def _plan_or_error(facts, game, options):
    try:
        return plan(facts, game, **options)
    except ValueError as e:
        return str(e)


@pytest.mark.parametrize("family,params", _COUNT_CLASSES)
def test_a_plan_that_does_not_read_the_count_is_the_same_without_it(family, params):
    """Wherever needs_count says the plan does not read the distinct points, the plan of the uncounted facts is the
    plan of the counted ones (for every game and option of the table below); where it reads them, they are counted."""
    C = make(family, **params)
    bare = ClassFacts.of(C, count=False)
    full = ClassFacts.of(C)
    assert bare.distinct_points is None and bare.counted(C) == full
    for game in (D, R, T):
        for options in _COUNT_OPTIONS:
            keys = {k: v for k, v in options.items() if k in ("jobs", "engine", "tuning", "solver")}
            if not needs_count(bare, game, **keys):
                assert _plan_or_error(bare, game, options) == _plan_or_error(full, game, options), (game, options)


COUNTS = [
    # (facts, game, options, whether the plan reads the distinct points)
    (listed(2**12, 4096, distinct=None, family="monotone-disjunctions", params=(("k", 2), ("n", 12)), made=True,
            disjunctions=True), D, {}, False),                  # its family's engine, decided before any count
    (listed(2**12, 4096, family="monotone-disjunctions", params=(("k", 2), ("n", 12)), made=True,
            disjunctions=True), D, {"solver": "search"}, True),  # (a warm search: auto's search, then the table?)
    (listed(2**20, 20, family="all-functions", params=(("n", 20),), made=True), D, {}, False),  # packed
    (listed(2**20, 20, family="all-functions", params=(("n", 20),), made=True), D, {"jobs": 2}, True),
    (listed(19, 18, family="singletons", params=(("N", 18),), made=True), D, {}, True),
    (listed(19, 18, family="singletons", params=(("N", 18),), made=True), D, {"engine": "search"}, False),
    (listed(19, 18, family="singletons", params=(("N", 18),), made=True), R, {}, False),   # the games engine
    (listed(19, 18, family="singletons", params=(("N", 18),), made=True), T, {}, True),    # a horizon: the search
    (listed(13, 12, family="singletons", params=(("N", 12),), made=True), D, {}, False),   # cap at its least anyway
    (listed(2**14, 14, family="all-functions", params=(("n", 14),), made=True), D, {}, True),  # cap from the count
]


@pytest.mark.parametrize("facts,game,options,reads", COUNTS)
def test_needs_count(facts, game, options, reads):
    bare = ClassFacts(**{**{f: getattr(facts, f) for f in facts.__dataclass_fields__}, "distinct_points": None})
    assert needs_count(bare, game, **options) is reads
    assert not needs_count(facts, game, **options)  # (counted already)
    assert not needs_count(EVAL_INTERVALS, game)  # (not listed: nothing to count)


def test_monotone_disjunctions_go_to_their_engine_before_any_count():
    C = make("monotone-disjunctions", n=12, k=2)
    bare = ClassFacts.of(C, count=False)
    assert not needs_count(bare, D)
    assert plan(bare, D, time_limit=60).names[-2:] == ("disjunctions", "anytime")


@pytest.mark.parametrize("facts,game,options,steps", [row for row in TABLE if isinstance(row[3], tuple)])
def test_may_settle_is_true_wherever_a_settler_heads_the_plan(facts, game, options, steps):
    """may_settle (the driver's cheap test before it counts the distinct points) never misses a settler."""
    keys = {k: v for k, v in options.items() if k in ("time_limit", "tuning", "anytime")}
    if steps[0] in ("shattered set", "learners"):
        assert may_settle(facts, **keys)
    for time_limit in (None, 60):
        for bounds in (False, True):
            names = plan(facts, game, **{**options, "time_limit": time_limit, "bounds": bounds}).names
            if names[0] in ("shattered set", "learners"):
                assert may_settle(facts, **{**keys, "time_limit": time_limit})


@pytest.mark.parametrize("facts,game,options,steps", [row for row in TABLE if isinstance(row[3], tuple)])
def test_the_first_plan_before_the_count(facts, game, options, steps):
    """first_plan (what opt() runs before it counts the distinct points) on the uncounted facts: the plan itself when
    the plan reads no count; the plan without the count when a settler heads it, whose settlers are the counted
    plan's; else nothing before the count. Kept (default tuning) and not (an equal tuning) alike."""
    from dataclasses import replace

    from solvers.opt.plan import SETTLERS, first_plan

    bare = replace(facts, distinct_points=None) if facts.listed else facts
    for time_limit in (None, 60):
        o = {**options, "time_limit": time_limit}
        count, first = first_plan(bare, game, **o)
        assert first_plan(bare, game, **{"tuning": Tuning(), **o}) == (count, first)
        keys = {k: v for k, v in o.items() if k not in ("time_limit", "anytime", "bounds")}
        assert count == needs_count(bare, game, **keys)
        counted = plan(facts, game, **o)
        if not count:
            assert first == plan(bare, game, **o)
            if facts.distinct_points is None or facts.log2_size <= facts.distinct_points:  # (a class that can be)
                assert first == counted
        elif first is not None:
            assert first.names[0] in SETTLERS
            settlers = [s for s in first.steps if s.name in SETTLERS]
            assert counted.steps[:len(settlers)] == tuple(settlers)
        else:
            assert plan(bare, game, **o).names[0] not in SETTLERS
