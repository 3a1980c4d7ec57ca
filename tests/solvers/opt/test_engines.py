"""solvers/opt/engines: every engine declares NAME, takes and solve, returns the one OptResult, and gives the brute
force's value on the small classes it takes (the full conformance suite is solvers.opt.conformance)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from solvers.classes import ConceptClass
from solvers.classes.evaluated import EvaluatedClass
from solvers.classes.families import make
from solvers.game_rules import Game
from solvers.opt import REGISTRY, Control, OptResult, Stats, Tuning
from solvers.opt.engines import engine

from ...oracles import matrices, opt_brute


def test_the_registry():
    assert set(REGISTRY) == {"search", "table", "states", "disjunctions", "packed", "games", "experts"}
    for name, mod in REGISTRY.items():
        assert mod.NAME == name and callable(mod.takes) and callable(mod.solve)
    with pytest.raises(ValueError, match="unknown engine"):
        engine("fast")


@pytest.mark.parametrize("name", ["search", "table", "packed"])
@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=matrices(max_rows=24, max_cols=7))
def test_listed_engines_give_the_brute_forces_value(name, rows):
    C = ConceptClass.from_matrix(rows)
    mod = REGISTRY[name]
    assert mod.takes(C, Game()) is None
    r = mod.solve(C, Game(), Control(), Tuning())
    assert isinstance(r, OptResult) and isinstance(r.stats, Stats) and r.stopped is None
    assert r.value == r.lower == r.upper == opt_brute(rows)


def test_what_each_engine_takes():
    listed = make("thresholds", N=20)
    ev = EvaluatedClass("intervals", {"N": 30})
    disj = make("monotone-disjunctions", n=5, k=2)
    R = Game.of("randomized", 0, None)
    assert REGISTRY["states"].takes(listed, Game()) is None and REGISTRY["states"].takes(ev, Game()) is None
    assert REGISTRY["search"].takes(ev, Game()).startswith("the search reads the class's matrix")
    assert REGISTRY["table"].takes(listed, Game()).startswith("the table handles at most 17")
    assert REGISTRY["disjunctions"].takes(disj, Game()) is None and REGISTRY["disjunctions"].takes(listed, Game())
    assert REGISTRY["games"].takes(listed, R) is None and REGISTRY["games"].takes(listed, Game())
    assert REGISTRY["packed"].takes(listed, R) and REGISTRY["states"].takes(listed, R)
    with pytest.raises(ValueError, match="engine 'search' does not take this"):
        REGISTRY["search"].solve(ev, Game(), Control())


def test_the_family_engines_and_the_games():
    assert REGISTRY["states"].solve(EvaluatedClass("intervals", {"N": 30}), Game(), Control()).value == \
        REGISTRY["search"].solve(make("intervals", N=30), Game(), Control()).value
    disj = make("monotone-disjunctions", n=6, k=2)
    assert REGISTRY["disjunctions"].solve(disj, Game(), Control()).value == opt_brute(disj.matrix.astype(int).tolist())
    C = make("thresholds", N=6)
    r = REGISTRY["games"].solve(C, Game.of("deterministic", 1, None), Control())
    assert r.solved and r.game.errors == 1 and r.value >= REGISTRY["search"].solve(C, Game(), Control()).value
    T = REGISTRY["search"].solve(make("thresholds", N=15), Game.of("deterministic", 0, 2), Control())
    assert T.value == 2 and T.tree.depth == 2  # min(T, Opt) with Opt = 4


@pytest.mark.parametrize("name,C", [("search", make("decision-lists", n=4)), ("packed", make("decision-lists", n=4)),
                                    ("states", EvaluatedClass("intervals", {"N": 400})),
                                    ("games", make("decision-lists", n=4))])
def test_a_cancel_or_a_past_deadline_stops_with_proven_bounds(name, C):
    import threading
    import time

    ev = threading.Event()
    ev.set()
    game = Game.of("randomized", 0, None) if name == "games" else Game()
    r = REGISTRY[name].solve(C, game, Control(cancel=ev))
    assert r.stopped == "cancelled" and r.lower <= r.upper
    r = REGISTRY[name].solve(C, game, Control(deadline=time.monotonic() - 1))
    assert r.stopped == "time limit" and r.lower <= r.upper


def test_the_experts_engine():
    """The universal class of n experts, listed or described by n: the value of experts() with its certificates;
    a million experts (no matrix) too; the games it refuses; a cancel stops the randomized table."""
    import threading

    from solvers.certificates import verify
    from solvers.opt.experts import UniversalExperts, experts

    from ...oracles import experts_matrix, game_value_brute

    eng = REGISTRY["experts"]
    listed = ConceptClass.from_matrix(experts_matrix(3))
    for G in (Game(), Game.of("randomized", 0, None), Game.of("deterministic", 2, None), Game.of("randomized", 1, None)):
        for C in (listed, UniversalExperts(3)):
            r = eng.solve(C, G, Control())
            want = game_value_brute(experts_matrix(3), randomized=G.randomized, errors=G.errors)
            assert r.value == r.lower == r.upper == want and r.game == G and r.stats.engine == "experts"
            assert verify(r.tree.to_json()) == verify(r.upper_certificate()) == want
    r = eng.solve(UniversalExperts(10**6), Game.of("deterministic", 1, None), Control())
    assert r.value == experts(10**6, 1).value and r.tree is None and "more than" in r.stats["tree_note"]
    assert eng.takes(listed, Game.of("deterministic", 0, 3)).startswith("the experts games have no horizon")
    assert eng.takes(make("thresholds", N=7), Game()).startswith("the experts engine takes the universal class")
    assert "the randomized table" in eng.takes(UniversalExperts(10**6), Game.of("randomized", 2, None))
    ev = threading.Event()
    ev.set()
    r = eng.solve(UniversalExperts(300), Game.of("randomized", 1, None), Control(cancel=ev))
    assert r.stopped == "cancelled" and r.value is None and r.lower <= r.upper and r.tree is None


def test_the_tuning_reaches_the_engines():
    """The thresholds an engine is given are the ones its implementation reads: the packed search's leaves (fewer
    leaf searches over larger leaves, the same value), the search's and the games' solvers."""
    C = make("halfspaces", n=3)
    want = REGISTRY["search"].solve(C, Game(), Control()).value
    big = REGISTRY["packed"].solve(C, Game(), Control(), Tuning(packed_leaf=10**6, packed_exact_leaf=10**6))
    small = REGISTRY["packed"].solve(C, Game(), Control(), Tuning(packed_leaf=4, packed_exact_leaf=4))
    assert big.value == small.value == want
    assert small.stats["leaves"] > big.stats["leaves"]
    T = Tuning(wide_from=7, games_precision=2)
    assert REGISTRY["search"].solve(C, Game(), Control(), T).solver.tuning is T
    r = REGISTRY["games"].solve(make("singletons", N=9), Game.of("randomized", 0, None), Control(), T)
    assert r.solver.tuning is T and r.solver.prec > 2 and r.value == 1 - 2**-9
