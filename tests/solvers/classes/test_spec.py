"""The class spec codec (solvers/classes/spec.py): specs to classes and back, one-line errors."""

from fractions import Fraction

import pytest

from solvers.classes import ConceptClass, ImplicitFamily, MarginHalfspaces
from solvers.classes.families import make
from solvers.classes.spec import class_spec, load_class, trusted

MATRIX = {"matrix": [[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1], [0, 0, 1]]}  # last row repeats row 1
MARGIN = {"family": "margin-halfspaces", "params": {"d": 2, "gamma": 0.1, "R": 1}}


def test_class_specs():
    C = load_class(MATRIX)
    assert isinstance(C, ConceptClass) and len(C) == 4 and C.points == ((0,), (1,), (2,))
    C = load_class({"matrix": [[0, 1], [1, 1]], "points": [[3, 4], [5, 6]]})
    assert C.points == ((3, 4), (5, 6))
    H = load_class(MARGIN)
    assert isinstance(H, MarginHalfspaces) and H.d == 2 and H.gamma == Fraction(1, 10) and H.R == 1
    assert load_class({"family": "thresholds", "params": {"N": 3}}) == make("thresholds", N=3)




@pytest.mark.parametrize("spec", [
    {"family": "thresholds", "params": {"N": 5}},
    {"family": "monotone-disjunctions", "params": {"n": 13, "k": 1}},
    {"family": "margin-halfspaces", "params": {"d": 3, "gamma": "1/4", "R": 2}},
    {"matrix": [[0, 1], [1, 1]], "points": [[3, 4], [5, 6]], "names": ["a", "b"]},
])
def test_round_trip(spec):
    C = load_class(spec)
    assert load_class(class_spec(C)) == C and class_spec(load_class(class_spec(C))) == class_spec(C)
    if "matrix" in spec:
        assert ConceptClass.from_spec(spec) == C
    elif not C.finite:
        assert type(C).from_spec(spec) == C


def test_large_literal_families_load_implicitly():
    F = load_class({"family": "monotone-disjunctions", "params": {"n": 13, "k": 1}})
    assert isinstance(F, ImplicitFamily) and not F.finite and F.n_concepts == 14
    assert load_class({"family": "monotone-disjunctions", "params": {"n": 12, "k": 1}}).finite


@pytest.mark.parametrize("spec, needle", [
    ([1, 2], '"class" must be an object, got a list'),
    ({"matrix": [[0, 1]], "extra": 1}, "unexpected 'extra'"),
    ({"matrix": [[0, 2]]}, "bad class matrix: entry 2"),
    ({"params": {}}, 'needs a "family"'),
    ({"family": "thresholds", "params": {"N": 3}, "x": 1}, "unexpected 'x'"),
    ({"family": "thresholds", "params": [3]}, '"params" must be an object'),
    ({"family": "threshold"}, "unknown family 'threshold'; known families: thresholds,"),
    ({"family": "thresholds", "params": {"N": 0}}, "thresholds: N must be at least 1"),
    ({"family": "margin-halfspaces", "params": {"d": 2}}, "missing required parameter gamma"),
    ({"family": "margin-halfspaces", "params": {"d": 2, "gamma": 2}}, "is empty"),
])
def test_errors_are_one_line_value_errors(spec, needle):
    with pytest.raises(ValueError) as e:
        load_class(spec)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_trusted_keeps_a_family_claim_only_when_the_matrix_is_the_family():
    real = make("monotone-disjunctions", n=2, k=1)
    claimed = ConceptClass(real.matrix, real.points, family="monotone-disjunctions", params={"n": 2, "k": 1})
    assert not claimed.made and dict(claimed.facts) == {}
    t = trusted(claimed)
    assert t.made and dict(t.facts) == dict(real.facts) and t.to_spec() == real.to_spec()
    fake = ConceptClass(real.matrix[:2], real.points, family="monotone-disjunctions", params={"n": 2, "k": 1})
    t = trusted(fake)
    assert t.family is None and "matrix" in t.to_spec() and dict(t.facts) == {}
