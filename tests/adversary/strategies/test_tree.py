"""The tree adversary (adversary/strategies/tree.py): playing the mistake tree of Opt(C) forces at
least Opt(C) mistakes on every learner ([Rivest94]), and its witnesses verify.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from adversary.attack import attack
from adversary.referee import make_witness, verify_witness
from adversary.strategies import get_strategy
from adversary.strategies.base import Problem, StrategyError
from adversary.strategies.tree import TreeStrategy
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.learners import LEARNERS, make_learner
from solvers.opt import opt

TREE = get_strategy("tree")
# the tree plays realized predictions: the randomized learners (charged their expectations) are exact's
CLASS_LEARNERS = sorted({s.name for s in LEARNERS.values() if s.needs_class and not s.cls.randomized})
RANDOMIZED = sorted({s.name for s in LEARNERS.values() if s.cls.randomized})
# Vector learners with the parameters they need besides n / d.
VECTOR_LEARNERS = [("winnow", {}), ("winnow1", {}), ("winnow2", {}), ("balanced-winnow", {}), ("winnow-r", {}),
                   ("winnow-k-of-r", {"k": 1}), ("perceptron", {}), ("perceptron", {"margin": 1}),
                   ("elim", {}), ("conjunction-elimination", {})]


def problem(name, C, params=None, tree=None):
    L = make_learner(name, dict(params or {}), C)
    return Problem(name, L.get_params(), C, {}, opt_tree=tree)


def verified(found, name, C, params=None):
    L = make_learner(name, dict(params or {}), C)
    w = make_witness(name, L.get_params(), C, found.sequence, found.target)
    assert w["mistakes"] == found.mistakes
    r = verify_witness(w)
    assert r.ok, r.message
    return found.mistakes


@pytest.mark.parametrize("name,params", VECTOR_LEARNERS)
def test_tree_forces_opt_on_every_vector_learner(name, params):
    C = make("monotone-disjunctions", n=4, k=2)
    result = opt(C)
    found = TREE.run(problem(name, C, params, result.tree))
    assert verified(found, name, C, params) >= result.value == 3


@pytest.mark.parametrize("name", CLASS_LEARNERS)
@pytest.mark.parametrize("family,params", [("thresholds", {"N": 9}), ("intervals", {"N": 5}),
                                           ("monotone-disjunctions", {"n": 3, "k": 2})])
def test_tree_forces_opt_on_every_class_learner(name, family, params):
    C = make(family, **params)
    value = opt(C).value
    found = TREE.run(problem(name, C))  # the tree is computed when the problem has none
    assert verified(found, name, C) >= value
    assert found.stats["tree_depth"] == value


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(st.lists(st.integers(0, 1), min_size=5, max_size=5), min_size=1, max_size=12),
       name=st.sampled_from(CLASS_LEARNERS))
def test_tree_forces_opt_on_random_classes(rows, name):
    C = ConceptClass(rows)
    value = opt(C).value
    for strat in (TREE, TreeStrategy(extend=False)):
        found = strat.run(problem(name, C))
        assert verified(found, name, C) >= value
    assert found.mistakes == value  # without the greedy extension: exactly one mistake per level


def test_tree_through_attack_never_beats_exact():
    C = make("monotone-disjunctions", n=3, k=2)
    for name in ("halving", "soa", "winnow2", "winnow1"):
        tree = attack(name, C, strategy="tree")
        exact = attack(name, C, strategy="exact")
        assert tree.opt <= tree.mistakes <= exact.mistakes
        assert tree.strategy == "tree" and not tree.exact and verify_witness(tree.witness).ok


def test_tree_refuses_margin_halfspaces():
    with pytest.raises(StrategyError, match="finite class"):
        attack("perceptron", {"family": "margin-halfspaces", "params": {"d": 2, "gamma": 0.5}}, strategy="tree")


@pytest.mark.parametrize("name", RANDOMIZED)
def test_tree_refuses_randomized_learners_and_label_errors(name):
    C = make("thresholds", N=3)
    with pytest.raises(StrategyError, match="use --strategy exact"):
        TREE.run(problem(name, C))
    p = problem("soa", C, {"errors": 1})
    p.errors = 1
    with pytest.raises(StrategyError, match="use --strategy exact"):
        TREE.run(p)
