"""solvers/opt/anytime.py: lower bounds from restrictions of the class, found when the exact search stops.
Every bound is at most Opt(C) (hypothesis against the exact value), every tree is checked against the whole
class, and opt() uses them only when its search stopped at the time limit."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solvers.opt.driver as driver
from solvers.certificates import verify_tree
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.learners.bounds import learner_bounds
from solvers.opt import Tuning, anytime, opt

from tests.oracles import matrices


def _stopped(lower=0):
    return SimpleNamespace(lower=lower, value=None, stats={"stopped": "time limit"})


def _exact(D, t):
    return opt(D)


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=40, max_cols=7))
def test_every_bound_is_at_most_opt_and_its_tree_checks(m):
    C = ConceptClass.from_matrix(m)
    found = anytime.improve(C, _stopped(), 60.0, _exact)
    exact = opt(C).value
    values = [v for v, _, _ in found]
    assert values == sorted(set(values))  # each one better than the last
    for v, tree, reason in found:
        assert v <= exact and verify_tree(json.loads(json.dumps(tree.to_json())), C) == v
        assert "restricted to its first" in reason or "shatters" in reason
    # brute force: the best prefix restriction's Opt is what improve finds when every one is solved
    prefixes = [opt(ConceptClass(C.matrix[:, :k], C.points[:k])).value for k in range(2, C.n_points)]
    vc = max((len(p) for p in _subsets(C.n_points) if _shattered(C, p)), default=0)
    if found:
        assert max(values) <= max(prefixes + [vc])


def _subsets(n):
    import itertools

    return (p for k in range(n + 1) for p in itertools.combinations(range(n), k))


def _shattered(C, pts) -> bool:
    return len({tuple(int(row[j]) for j in pts) for row in C.matrix}) == 2 ** len(pts)


def test_a_greedy_shattered_set_is_shattered_and_settles_all_functions():
    C = make("all-functions", n=12)
    pts = anytime.shattered_points(C, float("inf"))
    assert sorted(pts) == list(range(12))
    found = anytime.improve(C, _stopped(3), 60.0, _exact)
    assert found[0][0] == 12 and found[0][1].levels is not None and verify_tree(found[0][1].to_json(), C) == 12


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=30, max_cols=6))
def test_the_greedy_set_is_shattered(m):
    C = ConceptClass.from_matrix(m)
    assert _shattered(C, anytime.shattered_points(C, float("inf")))


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 140), st.integers(1, 12), st.integers(0, 2**32 - 1), st.floats(0.0, 1.0), st.booleans())
def test_the_bitset_growth_chooses_the_points_numpy_does(m, n, seed, p, all_or_nothing):
    """The small classes' shattered set (cells of bitsets) is the numpy codes' greedy set, point for point, on any
    shape (one and two words of concepts), with duplicate and constant columns."""
    M = np.random.default_rng(seed).random((m, n)) < p
    M[:, n // 2] = M[:, 0]  # (a repeated column)
    C = ConceptClass.from_matrix(M)
    most = min(62, C.n_concepts.bit_length() - 1)
    cells = anytime._shattered_by_cells(C.column_words, C.columns, C.n_concepts, most, float("inf"), all_or_nothing)
    codes = anytime._shattered_by_codes(np.asarray(C.matrix, dtype=bool), most, float("inf"), all_or_nothing)
    assert cells == codes and _shattered(C, cells)


def test_decision_lists_get_the_bound_of_one_variable_fewer():
    """The first half of {0,1}^4 in lexicographic order is x_1 = 0: decision lists over 3 variables."""
    C = make("decision-lists", n=4)
    found = anytime.improve(C, _stopped(), 120.0, _exact)
    assert found and found[-1][0] >= opt(make("decision-lists", n=3)).value == 5


def test_the_packed_search_gives_a_deeper_tree():
    """A class over at most 64 points past PACKED_FROM concepts gets the packed search's tree (here halfspaces n=4,
    with the thresholds lowered so that it is searched above leaves of 40 concepts): it reaches Opt = 9, past the
    embedded n = 3 (6), and its tree checks against the class."""
    C = make("halfspaces", n=4)
    found = anytime.improve(C, _stopped(), 120.0, _exact, tuning=Tuning(anytime_packed_from=100, packed_leaf=40))
    value, tree, reason = found[-1]
    assert value == 9 == opt(C).value and "packed search" in reason and "at most 40 concepts" in reason
    assert verify_tree(tree.to_json(), C) == 9


def stop_wrapped(monkeypatch, which, result):
    """Make the engine step that the anytime pass wraps (under a time limit, ahead of the pass) on a class
    ``which(D)`` accepts return ``result(D, r, solver, cluster, parts)`` of its real answer ``r`` (found without the
    warm solver, cluster and parts the step was given), as a search stopped by its time limit would; every other
    engine step (no time limit, the pass's restrictions) runs as it is."""
    import dataclasses

    real = driver._engine

    def engine(D, G, steps, k, control, tuning, **kw):
        wrapped = "anytime" in steps.names and steps.steps[k].until is not None and kw["time_limit"] is not None
        if not (wrapped and which(D)):
            return real(D, G, steps, k, control, tuning, **kw)
        r = real(D, G, steps, k, dataclasses.replace(control, cluster=None), tuning,
                 **{**kw, "solver": None, "parts": None})
        return result(D, r, kw["solver"], control.cluster, kw["parts"])

    monkeypatch.setattr(driver, "_engine", engine)


def stopped(D, r, *_):
    """``r`` as a search stopped at the root (1 <= Opt <= its upper bound, no tree)."""
    return driver.OptResult(None, 1, r.upper, None, {**r.stats, "stopped": "time limit"}, r.solver, r.game)


def test_opt_uses_them_when_its_search_stops(monkeypatch):
    """opt() with a time limit on a large listed class: when the search stops, the rest of the time finds a
    deeper tree of a restriction, which replaces the search's (its reason in stats["anytime"])."""
    C = make("decision-lists", n=4)  # (1,050 concepts: a family whose smaller instances embed)
    assert anytime.applies(C) and not anytime.applies(ConceptClass.from_matrix(C.matrix))
    assert anytime.applies(ConceptClass.from_matrix(C.matrix), Tuning(anytime_min_concepts=1000))
    real = driver.opt
    stop_wrapped(monkeypatch, lambda D: D is C, stopped)  # the search on the whole class stops at once
    r = opt(C, time_limit=600)
    assert r.lower >= 5 and r.stats["anytime"][-1]["lower"] == r.lower
    assert verify_tree(r.tree.to_json(), C) == r.lower
    assert r.lower <= real(C).value
    # without a time limit, or on a small class, the wrapper stays out of the way
    assert "anytime" not in opt(C).stats
    small = ConceptClass.from_matrix(np.eye(6, dtype=bool))
    assert not anytime.applies(small)


def test_the_search_inside_the_pass_gets_opts_solver_cluster_and_parts(monkeypatch):
    """A warm solver (a run resumed from the store), a cluster and stored parts reach the search the anytime pass
    wraps, and a spread search's certificate writer survives the pass."""
    from solvers.opt.search import Solver

    C = make("decision-lists", n=4)
    seen = []
    writer = lambda limit: {"kind": "upper-bound", "bound": 99, "entries": []}  # noqa: E731

    def stopped_at_the_root(D, r, solver, cluster, parts):
        seen.append({"solver": solver, "cluster": cluster, "parts": parts})
        return driver.OptResult(None, 1, r.upper, None, {**r.stats, "stopped": "time limit"}, r.solver, r.game,
                                proof=writer)

    stop_wrapped(monkeypatch, lambda D: D is C, stopped_at_the_root)
    S, parts, cluster = Solver(C), {"known": []}, object()
    r = opt(C, time_limit=600, solver=S, cluster=cluster, parts=parts)
    assert seen == [{"solver": S, "cluster": cluster, "parts": parts}]
    assert r.stats["anytime"] and r.proof is writer


def test_the_command_prints_each_bound_with_its_reason(monkeypatch, capsys, tmp_path):
    from adversary.cli import main

    stop_wrapped(monkeypatch, lambda D: D.family == "decision-lists" and D.params.get("n") == 4,  # (the command's)
                 stopped)
    code = main(["opt", "decision-lists", "n=4", "--time-limit", "600", "--no-store", "--tree", str(tmp_path / "t.json")])
    out = capsys.readouterr().out
    # (a restriction to 15 of the 16 points may have Opt(C) itself: then the bounds meet and the run is solved)
    assert code in (0, 3) and "lower bound:" in out and "restricted to its first" in out and "of 16 points" in out
    code = main(["verify", str(tmp_path / "t.json"), "decision-lists", "n=4"])
    assert code == 0 and capsys.readouterr().out.startswith("OK")
    code = main(["opt", "decision-lists", "n=4", "--time-limit", "600", "--no-store", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["anytime"] and out["anytime"][-1]["lower"] == out["lower"] >= 5


# ---------------------------------------------------------------------------------------- smaller instances
def test_a_smaller_instance_of_the_family_embeds():
    """decision-lists n=3 (Opt 5) and below, lifted into n=4 by x -> (x, 0): each tree checks on n=4."""
    C = make("decision-lists", n=4)
    found = anytime.embedded(C, 0, float("inf"), _exact)
    values = [v for v, _, _ in found]
    assert values == sorted(set(values)) and values[-1] == opt(make("decision-lists", n=3)).value == 5
    for v, tree, reason in found:
        assert verify_tree(json.loads(json.dumps(tree.to_json())), C) == v and "embeds" in reason
    g = anytime.embedded(make("rectangles", N=5), 0, float("inf"), _exact)  # the grid: points keep their place
    assert g[-1][0] == opt(make("rectangles", N=4)).value


@pytest.mark.slow
def test_implicit_and_evaluated_classes_get_their_trees_checked():
    from solvers.classes.evaluated import EvaluatedClass
    from solvers.classes.implicit import ImplicitFamily

    for C in (ImplicitFamily("monotone-disjunctions", {"n": 24, "k": 2}), EvaluatedClass("rectangles", {"N": 40})):
        found = anytime.embedded(C, 0, __import__("time").monotonic() + 4, lambda D, t: opt(D, time_limit=t, anytime=False))
        assert found, C
        for v, tree, _ in found:
            assert verify_tree(tree.to_json(), C) == v <= C.n_concepts.bit_length() - 1


def test_a_tree_that_does_not_map_is_not_kept(monkeypatch):
    """The lifted tree is checked against the class: a wrong map (every point sent to the first) keeps
    nothing, and so does a map whose points are not the class's."""
    C = make("decision-lists", n=4)

    def collapse(node, small, C, kind, n_big, index):
        tree = anytime.__dict__["_lift_real"](node, small, C, kind, n_big, index)
        stack = [tree]
        while stack:
            nd = stack.pop()
            if nd is not None:
                nd["point"] = 0
                stack += [nd["0"], nd["1"]]
        return tree

    monkeypatch.setitem(anytime.__dict__, "_lift_real", anytime._lift)
    monkeypatch.setattr(anytime, "_lift", collapse)
    assert anytime.embedded(C, 0, float("inf"), _exact) == []  # (every tree asks one point twice: not realised)
    monkeypatch.undo()
    monkeypatch.setitem(anytime.EMBEDS, "decision-lists", ("n", "grid"))  # (x,) of length 3: not a point of n=4
    assert anytime.embedded(C, 0, float("inf"), _exact) == []


def test_a_shattered_set_as_large_as_the_halving_bound_settles_opt_before_any_search():
    from solvers.certificates import verify_upper

    C = make("all-functions", n=12)  # 4,096 concepts: floor(log2 |C|) = 12 = the points, all shattered
    r = opt(C, time_limit=600)
    assert r.value == 12 and r.stats["engine"] == "shattered set" and r.stats["nodes"] == 0
    assert r.tree.levels is not None and verify_tree(r.tree.to_json(), C) == 12
    assert verify_upper(json.loads(json.dumps(r.upper_certificate())), C) == 12
    assert opt(C, time_limit=600, anytime=False).stats["engine"] != "shattered set"


def test_a_ctrl_c_in_the_pass_returns_what_is_proven(monkeypatch):
    """A Ctrl-C during the anytime pass (after one bound) or during the shattered set tried before the search:
    opt returns its bounds, stopped "interrupted", with the bound the pass had found (a KeyboardInterrupt
    used to escape the pass, and the command printed nothing)."""
    C = make("decision-lists", n=4)
    def one_then_ctrl_c(C, r, seconds, solve, found, *limits):
        found.append(anytime.embedded(C, 0, float("inf"), _exact)[0])
        raise KeyboardInterrupt

    stop_wrapped(monkeypatch, lambda D: D is C, stopped)
    monkeypatch.setattr(anytime, "_improve", one_then_ctrl_c)
    r = opt(C, time_limit=600)
    assert r.stats["stopped"] == "interrupted" and r.lower == r.stats["anytime"][0]["lower"] >= 1
    assert verify_tree(r.tree.to_json(), C) == r.lower
    monkeypatch.undo()

    def ctrl_c(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(anytime, "shattered_points", ctrl_c)
    r = opt(C, time_limit=600, tuning=Tuning(shattered_from=1000))  # (the settler on this small class too)
    assert r.stats["stopped"] == "interrupted" and r.lower <= r.upper


# ---------------------------------------------------------------------------------------- upper bounds
def test_learners_bounds_are_upper_bounds_and_elim_beats_halving_on_disjunctions():
    """Each learner's proven bound that applies is >= Opt(C) (exact on small instances); on disjunctions
    n = 6 ELIM's n + 1 = 7 is below Halving's floor(log2 |C|) = 9 (the class of 3^6 + 1 concepts)."""
    for name, params in [("disjunctions", {"n": 4}), ("monotone-disjunctions", {"n": 6, "k": 2}),
                         ("monotone-conjunctions", {"n": 5}), ("monotone-disjunctions", {"n": 7, "k": 1})]:
        C = make(name, **params)
        exact = opt(C).value
        bounds = learner_bounds(C)
        assert bounds, name
        assert all(v >= exact for v, _ in bounds)
        assert [v for v, _ in bounds] == sorted(v for v, _ in bounds)
    C = make("disjunctions", n=6)
    v, why = learner_bounds(C)[0]
    assert C.log2_size() == 9 and v == 7 and why.startswith("elim's proven bound n + 1") and "Online Algorithms" in why


@pytest.fixture
def real_opt(monkeypatch):
    """opt() whose search on a disjunctions class stops at once at 1 <= Opt <= floor(log2 |C|) (the anytime
    pass and the learners' bounds then run as after a real time limit); returns the real opt."""
    real = driver.opt

    def stopped_at_once(D, r, *_):
        return driver.OptResult(None, 1, D.log2_size(), None, {**r.stats, "stopped": "time limit"}, r.solver, r.game)

    stop_wrapped(monkeypatch, lambda D: D.family == "disjunctions", stopped_at_once)
    return real


def test_a_stopped_search_says_why_its_upper_bound_holds_and_takes_a_learners_smaller_one(real_opt, capsys):
    """The upper bound of an unsolved Opt(C) comes with its reason: Halving's floor(log2 |C|), the search's
    refutation, or a learner's proven bound when that is smaller (which then replaces the search's)."""
    from adversary.cli import main

    C = make("disjunctions", n=5)  # floor(log2 |C|) = 7; ELIM proves 6
    real = real_opt
    r = opt(C, time_limit=600, bounds=learner_bounds)
    assert r.upper == 6 and r.stats["upper_reason"].startswith("elim's proven bound")
    assert opt(C, time_limit=600, bounds=None).upper == 7  # (no bounds given: the search's own, Halving's)
    # the default takes the learners' bounds wired in by the top package, with `from solvers.opt import opt` too
    # (the function itself, as the adversary's modules import it)
    assert opt(C, time_limit=600).upper == 6
    assert r.upper >= real(C).value
    main(["opt", "disjunctions", "n=5", "--time-limit", "600", "--no-store", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["upper"] == 6
    if out["opt"] is None:
        assert out["upper_reason"].startswith("elim's")
    else:  # the pass found a tree as deep as ELIM's bound: solved, by the tree and the theorem
        assert out["opt"] == out["lower"] == real(C).value == 6 and out["upper_reason"] is None
    assert anytime.upper_reason(C, 7).startswith("Halving's bound floor(log2 |C|)")
    assert anytime.upper_reason(C, 5).startswith("the search refuted Opt(C) >= 6")


def test_a_ctrl_c_while_the_learners_bounds_are_read_keeps_the_searchs_bounds(real_opt):
    """The learners' bounds are read after the search stopped: a Ctrl-C there returns the search's bounds,
    marked interrupted (it used to escape opt(), and the command printed no result: CI, test_stops)."""
    C = make("disjunctions", n=5)
    def interrupted(D):
        raise KeyboardInterrupt

    try:
        r = opt(C, time_limit=600, bounds=interrupted)
    except KeyboardInterrupt:
        pytest.fail("the Ctrl-C escaped opt(): the bounds proven were lost")
    assert r.stats["stopped"] == "interrupted" and (r.lower, r.upper) == (1, C.log2_size()) and r.value is None
    assert r.stats["upper_reason"].startswith("Halving's bound")


def test_the_halving_source_is_the_learners_own():
    """anytime.HALVING_SOURCE (this package does not import the learners) is Halving's own citation."""
    from solvers.learners import Halving

    assert anytime.HALVING_SOURCE == Halving.bound_source


def test_no_module_of_the_solver_imports_the_learners():
    """Learner bounds reach opt as data (its ``bounds``), not as an import: no module of solvers/opt imports
    solvers.learners (a cycle, as solvers.learners.soa imports solvers.opt)."""
    import ast
    from pathlib import Path

    root = Path(anytime.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                name = ("." * node.level) + (node.module or "")
                assert "learners" not in name, (path, name)
            elif isinstance(node, ast.Import):
                assert not any("learners" in a.name for a in node.names), path


@pytest.mark.parametrize("bitsets", [True, False])
def test_the_growth_that_settles_passes_over_a_few_points_that_do_not_join(bitsets, monkeypatch):
    """Parities of 6 variables on the points e1, e2, e1 + e2, e3, ... (all balanced, so taken in this order): the
    third is the sum of the first two and does not join, and the growth still reaches 6 points; with every
    point after the first two a sum of them, it gives up after MISSES of them."""
    n = 6
    units = [1 << i for i in range(n)]
    pts = units[:2] + [3] + units[2:] + [x for x in range(1, 1 << n) if x not in units and x != 3]
    rows = np.array([[bin(S & x).count("1") & 1 for x in pts] for S in range(1 << n)], dtype=bool)
    if not bitsets:
        monkeypatch.setattr(anytime, "_BITSET_MOST", 0)
    C = ConceptClass.from_matrix(rows)
    got = anytime.shattered_points(C, float("inf"), all_or_nothing=True)
    assert len(got) == n and 2 not in got
    # e1, e2, MISSES copies of e1 + e2, then e3: the growth gives up before it reaches e3
    stuck = ConceptClass.from_matrix(rows[:, [0, 1] + [2] * anytime.MISSES + [3]])
    assert anytime.shattered_points(stuck, float("inf"), all_or_nothing=True) == [0, 1]
    assert anytime.shattered_points(stuck, float("inf")) == [0, 1, 2 + anytime.MISSES]
