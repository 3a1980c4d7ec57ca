"""Each concept's margin, exactly (Wolfe's nearest point of the hull, in Fractions), against a brute force over
the faces of the hull in floats; its certificate (<p, z_i> >= |p|^2) and a tampered one; and the Perceptron with
a bias term on Boolean classes: a finite bound R^2/gamma^2 that its exact worst case respects."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversary.attack import attack
from adversary.referee import verify_witness
from solvers.classes.families import make
from solvers.classes.separation import check_margin, class_margins, concept_margin, min_norm_point
from solvers.learners import make_learner


def brute_min_norm(Z: np.ndarray) -> float:
    """The distance from 0 to the hull of the rows of Z: the smallest norm over the affine-hull nearest points of
    every subset of at most d + 1 rows that lie inside their own hull (weights >= 0), in floats."""
    m, d = Z.shape
    best = np.inf
    for k in range(1, min(m, d + 1) + 1):
        for S in itertools.combinations(range(m), k):
            A = Z[list(S)].astype(float)
            G = A @ A.T
            K = np.block([[G, np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
            try:
                sol = np.linalg.solve(K, np.r_[np.zeros(k), 1.0])
            except np.linalg.LinAlgError:
                continue
            a = sol[:k]
            if (a >= -1e-9).all():
                best = min(best, float(np.linalg.norm(a @ A)))
    return best


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 3), st.data())
def test_min_norm_point_matches_brute_force(m, d, data):
    Z = np.array(data.draw(st.lists(st.lists(st.integers(-3, 3), min_size=d, max_size=d), min_size=m, max_size=m)))
    p = min_norm_point(Z)
    norm2 = sum(v * v for v in p)
    assert float(norm2) ** 0.5 == pytest.approx(brute_min_norm(Z), abs=1e-7)
    if norm2 > 0:  # the certificate: every point at least |p|^2 along p
        assert all(sum(Fraction(a) * int(b) for a, b in zip(p, z)) >= norm2 for z in Z)


def test_margin_certificates_and_a_tampered_one():
    C = make("monotone-disjunctions", n=4, k=2)
    m = class_margins(C, bias=True)
    assert m["R2"] == 5 and min(m["gamma2"]) == Fraction(1, 9)  # an OR of two variables: w = (-1, 2, 2) / 3
    for c in range(C.n_concepts):
        assert check_margin(C.points, C.matrix[c], m["witness"][c], bias=True)
    p = list(m["witness"][3])
    p[0] += Fraction(1, 100)
    assert not check_margin(C.points, C.matrix[3], p, bias=True)
    # the plain Perceptron has no margin on a class with the point 0 labelled 0 (sgn(0) = +1)
    assert concept_margin(C.points, C.matrix[3], bias=False)[0] == 0


def test_perceptron_bias_predicts_with_the_constant_coordinate():
    L = make_learner("perceptron", {"d": 2, "bias": "true"})
    assert L.predict_one((0, 0)) == 1  # <0, (1, 0, 0)> = 0: sgn(0) = +1
    L.learn_one((0, 0), 0)
    assert L.w == (-1, 0, 0) and L.predict_one((1, 1)) == 0
    L.learn_one((1, 1), 1)
    assert L.w == (0, 1, 1)
    assert L.predict_many(np.array([[0, 0], [1, 0]])).tolist() == [L.predict_one((0, 0)), L.predict_one((1, 0))]
    assert L.get_params() == {"d": 2, "margin": 0, "bias": True}
    assert make_learner("perceptron", {"d": 2}).get_params() == {"d": 2, "margin": 0}


@pytest.mark.parametrize("n, k", [(2, 1), (3, 1), (3, 2)])
def test_perceptron_bias_gets_a_finite_bound_that_holds(n, k):
    C = make("monotone-disjunctions", n=n, k=k)
    r = attack("perceptron", C, learner_params={"bias": True}, strategy="exact")
    assert r.bound.finite and r.exact and r.verdict in ("below", "tight")
    m = class_margins(C, bias=True)
    assert r.bound.value == pytest.approx(float(m["R2"] / min(m["gamma2"])))
    assert r.mistakes <= r.bound.value and verify_witness(r.witness).ok
    plain = attack("perceptron", C, strategy="exact")
    assert plain.verdict == "unbounded"  # without the bias: the point 0 labelled 0, for ever


def test_large_coordinates_are_exact():
    """Coordinates past int64's comfort: the margin and R^2 in Python ints (an int64 version wrapped to a
    negative bound)."""
    from solvers.classes import ConceptClass

    C = ConceptClass.from_matrix([[1, 0]], [(4 * 10**9, 4 * 10**9), (-4 * 10**9, -4 * 10**9 + 1)])
    b = make_learner("perceptron", {"d": 2}, C).bound_on(C)
    m = class_margins(C, bias=False)
    assert m["R2"] == 32 * 10**18 and b.value >= 1
    assert check_margin(C.points, C.matrix[0], m["witness"][0], bias=False)
