"""Implicit classes ({0,1}^n families listed by their concepts) and the referee on them."""


import numpy as np
import pytest

from adversary.game import GameInProgress, play
from adversary.referee import WitnessError, witness_class, make_witness, replay, verify_witness
from solvers.classes.implicit import IMPLICIT_ABOVE, ImplicitFamily
from solvers.classes import ConceptClass
from solvers.classes.families import LITERAL_FAMILIES, make

SMALL = (
    [("monotone-disjunctions", {"n": n, "k": k}) for n in range(1, 6) for k in range(0, n + 1)]
    + [("disjunctions", {"n": n, "k": k}) for n in range(1, 5) for k in range(0, n + 1)]
    + [("monotone-conjunctions", {"n": n}) for n in range(1, 6)]
    + [("conjunctions", {"n": n, "false": f}) for n in range(1, 5) for f in (0, 1)]
    + [("parities", {"n": n}) for n in range(1, 6)]
    + [("k-of-r", {"n": n, "r": r, "k": k}) for n in range(1, 6) for r in range(1, n + 1) for k in range(1, r + 1)]
)
MD20 = {"family": "monotone-disjunctions", "params": {"n": 20, "k": 2}}


@pytest.mark.parametrize("family,params", SMALL)
def test_same_concepts_in_the_same_order_as_make(family, params):
    C = make(family, **params)
    F = ImplicitFamily(family, params)
    assert F.n_concepts == C.n_concepts and F.params == C.params
    M = np.stack([F.labels(x) for x in C.points], axis=1)
    assert (M == C.matrix).all()
    for c in range(F.n_concepts):  # evaluation from the literals alone agrees too
        for j, x in enumerate(C.points):
            assert F.evaluate(c, x) == C.matrix[c, j] == F.label(c, x)


def test_every_literal_family_is_covered():
    assert set(LITERAL_FAMILIES) == {f for f, _ in SMALL}


def test_large_instance_agrees_with_make_on_sampled_points():
    C = make("monotone-disjunctions", n=12, k=2)  # the largest domain still loaded as a matrix
    F = ImplicitFamily("monotone-disjunctions", {"n": 12, "k": 2})
    rng = np.random.default_rng(0)
    for j in rng.choice(C.n_points, size=50, replace=False).tolist():
        assert (F.labels(C.points[j]) == C.matrix[:, j]).all()


def test_version_spaces_and_consistent():
    F = ImplicitFamily("monotone-disjunctions", {"n": 20, "k": 2})
    e = lambda *on: tuple(int(i in on) for i in range(20))  # noqa: E731
    V = F.consistent([(e(3), 1), (e(4, 5), 0)])
    names = [F.names[c] for c in F.concepts_of(V)]
    assert "x3" in names and all("x3" in s and "x4" not in s and "x5" not in s for s in names)
    assert len(names) == 1 + 17  # x3 alone, or with one of the 17 other variables (not x4, x5)
    V0, V1 = F.split(F.full, e(3))
    assert V0 | V1 == F.full and V0 & V1 == 0 and V1.bit_count() == 20  # x3 with or without a partner


def test_proposals_are_points_and_seeded():
    F = ImplicitFamily("disjunctions", {"n": 24, "k": 2})
    a = F.proposals(np.random.default_rng(1), count=40)
    b = F.proposals(np.random.default_rng(1), count=40)
    assert a == b and len(a) == len(set(a)) == 40
    assert all(len(x) == 24 and set(x) <= {0, 1} for x in a)
    rng = np.random.default_rng(2)
    for c in range(0, F.n_concepts, 97):
        for density in (0.0, 0.5, "all", "one"):
            assert F.evaluate(c, F.satisfying(c, rng, density)) == 1 or F.names[c] == "false"
            assert F.evaluate(c, F.falsifying(c, rng, density)) == 0 or F.names[c] == "true"


@pytest.mark.parametrize("family,params", [("monotone-conjunctions", {"n": 14}), ("k-of-r", {"n": 30, "r": 3, "k": 2}),
                                           ("parities", {"n": 16}), ("conjunctions", {"n": 9})])
def test_satisfying_and_falsifying_points(family, params):
    F = ImplicitFamily(family, params)  # any size: the literal form does not need a large domain
    rng = np.random.default_rng(0)
    for c in rng.choice(F.n_concepts, size=30, replace=False).tolist():
        x1, x0 = F.satisfying(c, rng, 0.3), F.falsifying(c, rng, 0.3)
        if F.names[c] not in ("false", "true"):
            assert (F.label(c, x1), F.label(c, x0)) == (1, 0)


# ---------------------------------------------------------------------------------------- the referee
def test_load_class_switches_to_implicit_above_2_to_the_12_points():
    assert isinstance(witness_class({"family": "monotone-disjunctions", "params": {"n": 12, "k": 2}}), ConceptClass)
    F = witness_class(MD20)
    assert isinstance(F, ImplicitFamily) and F.n_points == 2**20 > IMPLICIT_ABOVE
    assert witness_class({"family": "monotone-disjunctions", "params": {"n": 64, "k": 2}}).n_concepts == 2081
    assert isinstance(witness_class({"family": "thresholds", "params": {"N": 5000}}), ConceptClass)  # no literal form


def test_load_class_errors_are_one_line():
    with pytest.raises(WitnessError, match=r"over the limit of 2\^20 = 1048576 for a class listed by its concepts"):
        witness_class({"family": "monotone-disjunctions", "params": {"n": 64}})
    with pytest.raises(WitnessError, match="k must be at most n"):
        witness_class({"family": "monotone-disjunctions", "params": {"n": 30, "k": 31}})


def witness(seq, target, learner="winnow2"):
    return make_witness(learner, {}, MD20, seq, target)


def e(*on, n=20):
    return [int(i in on) for i in range(n)]


def test_witness_on_an_implicit_class_verifies():
    F = witness_class(MD20)
    target = F.concepts_of(F.consistent([(tuple(e(0)), 1), (tuple(e(1)), 1)]))[0]
    assert F.names[target] == "x0 v x1"
    # Winnow2, threshold 20: x0 with 18 others is 19 < 20 (promotion); the 18 others are then worth
    # 36 >= 20 (demotion); x1 alone is 1 < 20 (promotion). Three mistakes.
    seq = [{"x": e(0, *range(2, 20)), "y": 1}, {"x": e(*range(2, 20)), "y": 0}, {"x": e(1), "y": 1}]
    w = witness(seq, target)
    assert w["class"] == MD20 and w["target"] == target and w["learner"]["params"] == {"n": 20}
    r = verify_witness(w)
    assert r.ok, r.message
    assert r.mistakes == w["mistakes"] == 3
    assert "x0 v x1" in r.message
    assert replay("winnow2", seq, MD20).rounds == (0, 1, 2)


def test_referee_rejects_a_target_that_mislabels_an_example():
    F = witness_class(MD20)
    x0 = F.concepts_of(F.consistent([(tuple(e(0)), 1)]))[0]  # the concept x0 alone
    assert F.names[x0] == "x0"
    w = witness([{"x": e(0), "y": 1}], x0)
    assert verify_witness(w).ok
    w["sequence"].append({"x": e(0, 5), "y": 0})  # x0 labels it 1
    r = verify_witness(w)
    assert not r.ok and "\n" not in r.message
    assert f"target concept {x0} (x0) labels example 2" in r.message and "1, not 0" in r.message
    with pytest.raises(WitnessError, match="labels example 2"):
        make_witness("winnow2", {}, MD20, w["sequence"], x0)


def test_referee_needs_a_target_in_range():
    w = witness([{"x": e(0), "y": 1}], 200)
    del w["target"]
    r = verify_witness(w)
    assert not r.ok and 'needs "target": a concept index (0..210' in r.message
    w["target"] = 211
    assert "out of range" in verify_witness(w).message
    w["target"] = "x0"
    assert "concept index" in verify_witness(w).message


@pytest.mark.parametrize("x,needle", [([1] * 19, "has 19 coordinates"), ([2] + [0] * 19, "coordinate 2"),
                                      ([0.5] + [0] * 19, "coordinate 0.5"), ("0110", "not a list")])
def test_referee_rejects_points_outside_the_cube(x, needle):
    w = witness([{"x": e(0), "y": 1}], 200)
    w["sequence"][0]["x"] = x
    r = verify_witness(w)
    assert not r.ok and r.message.startswith("example 1: ") and needle in r.message


def test_learners_on_implicit_classes():
    w = witness([{"x": e(0), "y": 1}], 200)
    w["learner"] = {"name": "halving"}
    assert "needs a class built point by point" in verify_witness(w).message
    w["learner"] = {"name": "winnow2", "params": {"n": 8}}
    assert "give n=20" in verify_witness(w).message
    w["learner"] = {"name": "perceptron"}  # d defaults from the class; sgn(0) = +1 is right on x0
    w["mistakes"] = 0
    w.pop("mistakes_by_kind", None)  # (edited by hand: its counts by kind with it)
    assert verify_witness(w).ok


def test_game_on_an_implicit_class():
    points = iter([tuple(e(3)), tuple(e(3)), tuple(e(*range(4, 20)))])
    g = play("winnow1", MD20, lambda game: next(points, None))  # contrary labels while realizable
    assert g.mistakes == 3 and [y for _, y in g.examples] == [1, 1, 0]
    w = g.witness()
    assert isinstance(w["target"], int) and verify_witness(w).ok
    fixed = GameInProgress("winnow1", MD20, target=w["target"])
    assert fixed.allowed_labels(e(3)) == (1,)
