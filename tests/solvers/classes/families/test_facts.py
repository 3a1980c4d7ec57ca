"""The families' facts (solvers/classes/families/*.py, ``Family.facts``) checked by brute force: every
row of the class's matrix is what the facts say it is, on small n.

"monotone_or": k means every concept is an OR of at most k variables, "or_of_literals": k an OR of at most
k literals, "monotone_and": k an AND of at most k variables, "k_of_r": (k, r) "at least k of some r
variables" ([Rivest94], section 2.4; [15-859B]).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
"""

import itertools

import pytest

from solvers.classes import FACT_KEYS, ImplicitFamily, MarginHalfspaces
from solvers.classes.families import FAMILIES, family_facts, make

CASES = [
    *[("monotone-disjunctions", {"n": 4, "k": k}) for k in range(5)],
    *[("disjunctions", {"n": 3, "k": k}) for k in range(4)],
    ("monotone-conjunctions", {"n": 3}),
    ("conjunctions", {"n": 3}),
    ("conjunctions", {"n": 2, "false": 0}),
    ("parities", {"n": 3}),
    ("halfspaces", {"n": 3}),
    ("decision-lists", {"n": 3}),
    *[("k-of-r", {"n": 4, "r": r, "k": k}) for r in range(1, 5) for k in range(1, r + 1)],
    ("thresholds", {"N": 4}),
    ("intervals", {"N": 4}),
    ("singletons", {"N": 3}),
    ("all-functions", {"n": 3}),
    ("rectangles", {"N": 2}),
    ("random", {"m": 5, "N": 4}),
    ("blockwise-addressing", {"d": 2}),
    ("qr-tournament", {"p": 7}),
    ("halfintervals", {"n": 4}),
    ("constants", {"n": 3}),
    ("majority-vote", {"n": 3}),
    ("addressing", {"n": 5}),
]


def tables(points, formulas):
    """The truth tables (tuples over ``points``) of the given predicates."""
    return {tuple(int(f(x)) for x in points) for f in formulas}


def ors_of_literals(n, k, monotone):
    literals = [(i, 1) for i in range(n)] + ([] if monotone else [(i, 0) for i in range(n)])
    for size in range(k + 1):
        for lits in itertools.combinations(literals, size):
            yield lambda x, lits=lits: any(x[i] == v for i, v in lits)


def ands(n, k):
    for size in range(k + 1):
        for S in itertools.combinations(range(n), size):
            yield lambda x, S=S: all(x[i] for i in S)


def at_least(n, k, r):
    for R in itertools.combinations(range(n), r):
        yield lambda x, R=R: sum(x[i] for i in R) >= k


@pytest.mark.parametrize("name, params", CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_facts_hold_on_every_row(name, params):
    C = make(name, **params)
    facts = dict(C.facts)
    assert facts == family_facts(name, params) and set(facts) <= set(FACT_KEYS)
    rows = {tuple(int(v) for v in row) for row in C.matrix}
    points = C.points
    if "n" in facts:
        assert set(points) == set(itertools.product((0, 1), repeat=facts["n"]))
    n = facts.get("n")
    if "monotone_or" in facts:
        assert rows <= tables(points, ors_of_literals(n, facts["monotone_or"], monotone=True))
    if "or_of_literals" in facts:
        assert rows <= tables(points, ors_of_literals(n, facts["or_of_literals"], monotone=False))
    if "monotone_and" in facts:
        assert rows <= tables(points, ands(n, facts["monotone_and"]))
    if "k_of_r" in facts:
        k, r = facts["k_of_r"]
        assert rows <= tables(points, at_least(n, k, r))


def test_facts_are_tight_where_stated():
    # the facts name the smallest k: some concept needs all k variables (or literals)
    for k in range(1, 5):
        C = make("monotone-disjunctions", n=4, k=k)
        assert not {tuple(int(v) for v in row) for row in C.matrix} <= tables(C.points, ors_of_literals(4, k - 1, True))


def test_which_families_state_which_facts():
    stated = {name: set(family_facts(name, p)) for name, p in CASES}
    assert stated["thresholds"] == stated["random"] == stated["rectangles"] == set()
    assert stated["parities"] == {"n"}
    assert family_facts("k-of-r", {"n": 5, "r": 3, "k": 1}) == {"n": 5, "k_of_r": (1, 3), "monotone_or": 3,
                                                                 "or_of_literals": 3}
    assert family_facts("k-of-r", {"n": 5, "r": 3, "k": 3})["monotone_and"] == 3
    assert set(FAMILIES) == {name for name, _ in CASES}


def test_implicit_and_margin_facts():
    F = ImplicitFamily("monotone-disjunctions", {"n": 32, "k": 2})
    assert dict(F.facts) == {"n": 32, "monotone_or": 2, "or_of_literals": 2}
    H = MarginHalfspaces.from_params({"d": 3, "gamma": 0.1, "R": 2})
    from fractions import Fraction
    assert dict(H.facts) == {"d": 3, "margin": (Fraction(2), Fraction(1, 10))}


def test_a_plain_matrix_class_has_no_facts():
    from solvers.classes import ConceptClass

    assert dict(ConceptClass.from_matrix([[0, 1], [1, 0]]).facts) == {}
    assert dict(make("monotone-disjunctions", n=3, k=1).restrict([0, 1]).facts) == {}
