"""The class protocol (solvers/classes/protocol.py): one conformance suite for every kind of class.

For a finite class, an implicit family and margin halfspaces, ``split``, ``label``, ``consistent``,
``check_target``, ``point`` and the spec round trip agree with each other and with a brute force written
from the definitions ([Rivest94]: the version space is the set of concepts consistent with the examples;
V_x^0 and V_x^1 those that label x with 0 and with 1).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
"""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from solvers.classes import (FACT_KEYS, ConceptClass, ConceptClassProtocol, ImplicitFamily, MarginHalfspaces,
                             load_class)
from solvers.classes.families import make

SETTINGS = settings(max_examples=40, deadline=None)


def finite():
    return make("monotone-disjunctions", n=3, k=2)


def implicit():
    return ImplicitFamily("monotone-disjunctions", {"n": 4, "k": 2})


def margin():
    return MarginHalfspaces.from_params({"d": 2, "gamma": "1/4", "R": 1})


KINDS = {"finite": finite, "implicit": implicit, "margin": margin}


def table(C):
    """The brute-force truth table of a listed class: (points, rows), rows[c][j] = c(points[j])."""
    if C.finite:
        return list(C.points), [tuple(int(v) for v in row) for row in C.matrix]
    n = C.facts["n"]
    points = list(itertools.product((0, 1), repeat=n))
    # the implicit family lists make's concepts in make's row order
    M = make(C.family, **C.params)
    assert list(M.points) == points
    return points, [tuple(int(v) for v in row) for row in M.matrix]


def members(V):
    return {c for c in range(V.bit_length()) if V >> c & 1}


# ------------------------------------------------------------------------------------------ every kind
@pytest.mark.parametrize("kind", KINDS)
def test_protocol_members(kind):
    C = KINDS[kind]()
    assert isinstance(C, ConceptClassProtocol)
    assert C.finite == (kind == "finite")
    assert (C.n_concepts is None) == (kind == "margin")
    assert set(C.facts) <= set(FACT_KEYS)
    with pytest.raises(TypeError):
        C.facts["n"] = 99  # read-only
    assert str(C) and "\n" not in str(C)


@pytest.mark.parametrize("kind", KINDS)
def test_spec_round_trip(kind):
    C = KINDS[kind]()
    spec = C.to_spec()
    if kind == "finite":
        assert ConceptClass.from_spec({k: v for k, v in C.to_json().items() if k != "family" and k != "params"}) == C
    else:
        assert type(C).from_spec(spec) == C
    loaded = load_class(spec)
    assert loaded.to_spec() == spec and dict(loaded.facts) == dict(C.facts)
    if kind == "implicit":  # small n loads as the finite class with the same concepts in the same order
        assert loaded.finite and all(loaded.label(c, x) == C.label(c, x) for c in range(C.n_concepts)
                                     for x in loaded.points)
        big = ImplicitFamily("monotone-disjunctions", {"n": 13, "k": 1})
        assert load_class(big.to_spec()) == big
    else:
        assert loaded == C


@pytest.mark.parametrize("kind", KINDS)
def test_bad_points_are_one_line_value_errors(kind):
    C = KINDS[kind]()
    for bad in ("x", (0, 7, 0), (0,) * 9, None):
        with pytest.raises(ValueError) as e:
            C.point(bad)
        assert "\n" not in str(e.value)


@pytest.mark.parametrize("kind", ["finite", "implicit"])
def test_listed_classes_agree_with_the_brute_force(kind):
    C = KINDS[kind]()
    points, rows = table(C)
    assert C.n_concepts == len(rows)
    for j, x in enumerate(points):
        assert C.point(list(x)) == x and C.point(C.point(x)) == x
        V0, V1 = C.split(C.full, x)
        assert members(V1) == {c for c, r in enumerate(rows) if r[j]}
        assert members(V0) == {c for c, r in enumerate(rows) if not r[j]}
        assert all(C.label(c, x) == rows[c][j] for c in range(len(rows)))


@pytest.mark.parametrize("kind", ["finite", "implicit"])
@SETTINGS
@given(data=st.data())
def test_consistent_split_and_check_target_agree(kind, data):
    C = KINDS[kind]()
    points, rows = table(C)
    c_star = data.draw(st.integers(0, len(rows) - 1), label="target")
    js = data.draw(st.lists(st.integers(0, len(points) - 1), max_size=6), label="points")
    flips = data.draw(st.lists(st.booleans(), min_size=len(js), max_size=len(js)), label="flips")
    examples = [(points[j], rows[c_star][j] ^ int(f)) for j, f in zip(js, flips)]
    expected = {c for c, r in enumerate(rows) if all(r[points.index(x)] == y for x, y in examples)}
    V = C.consistent(examples)
    assert members(V) == expected
    W = C.full
    for x, y in examples:  # consistent is the split, example by example
        W = C.split(W, x)[y]
    assert W == V
    V_sub = data.draw(st.integers(0, C.full), label="V")
    assert C.consistent(examples, V_sub) == V & V_sub
    for c in (c_star, 0, len(rows) - 1):
        if c in expected:
            assert C.check_target(examples, c) == c
        else:
            with pytest.raises(ValueError, match=f"target concept {c} "):
                C.check_target(examples, c)
    if kind == "finite":  # "some concept": the lowest consistent one
        if expected:
            assert C.check_target(examples) == min(expected)
        else:
            with pytest.raises(ValueError, match="no concept of the class labels"):
                C.check_target(examples)
    else:  # an implicit class's witness must name its target
        with pytest.raises(ValueError, match='needs "target"'):
            C.check_target(examples)


@pytest.mark.parametrize("kind", ["finite", "implicit"])
def test_concept_text_names_the_concept(kind):
    C = KINDS[kind]()
    words = [C.concept_text(c) for c in range(C.n_concepts)]
    assert all(isinstance(w, str) and w for w in words) and len(set(words)) == len(words)


def test_implicit_proposals_are_points():
    F = implicit()
    rng = np.random.default_rng(0)
    xs = F.proposals(rng, count=20)
    assert xs and all(F.point(x) == x for x in xs)


# ------------------------------------------------------------------------------------------ margin halfspaces
unit = st.floats(0, 2 * math.pi, allow_nan=False)


@SETTINGS
@given(a=unit, b=unit, r=st.floats(0, 1.2), data=st.data())
def test_margin_label_and_check_target_agree(a, b, r, data):
    H = margin()
    w = (math.cos(a), math.sin(a))
    x = H.point((r * math.cos(b), r * math.sin(b)))
    y = H.label(w, x)
    dot = w[0] * x[0] + w[1] * x[1]
    assert y == int(dot >= 0)
    fits = abs(dot) >= 0.25 - 1e-9 and math.hypot(*x) <= 1 + 1e-9  # the brute force: margin and radius
    for label in (0, 1):
        try:
            H.check_target([(x, label)], {"w": list(w)})
            ok = True
        except ValueError:
            ok = False
        assert ok == (fits and label == y) or (abs(abs(dot) - 0.25) < 1e-7 or abs(math.hypot(*x) - 1) < 1e-7)


def test_margin_split_and_consistent_are_the_examples():
    H = margin()
    V0, V1 = H.split(H.full, (1, 0))
    assert V0 == (((1, 0), 0),) and V1 == (((1, 0), 1),)
    assert H.consistent([((1, 0), 1), ((0, "1/2"), 0)]) == (((1, 0), 1), ((0, Fraction(1, 2)), 0))
    assert H.consistent([((0, 1), 1)], V1) == V1 + (((0, 1), 1),)
    xs = H.proposals(np.random.default_rng(1), count=10)
    assert len(xs) >= 4 and all(math.hypot(*x) <= 1 + 1e-9 for x in xs)
