"""Facts of a class read from a matrix: an OR (AND) of at most r coordinates found from the points, against a
brute force over every set of coordinates; declared facts checked (a wrong r or margin refused in one line);
and the bounds they open: Winnow's and the Perceptron's on a matrix file, as on the family."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversary.attack import attack
from adversary.referee import verify_witness
from solvers.classes import ConceptClass
from solvers.classes.facts import declare, derived_facts, or_size
from solvers.classes.families import make

from ...adversary.cli.checks import assert_usage_error, run


def brute_or_size(labels, X):
    """The fewest coordinates whose OR labels the rows of X as ``labels``, by trying every set; None if none."""
    n = X.shape[1]
    for k in range(n + 1):
        for S in itertools.combinations(range(n), k):
            if (X[:, list(S)].any(axis=1) == labels).all():
                return k
    return None


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 4), st.data())
def test_or_size_matches_brute_force(n, data):
    X = np.array(list(itertools.product((0, 1), repeat=n)), dtype=bool)
    keep = data.draw(st.lists(st.booleans(), min_size=len(X), max_size=len(X)))
    X = X[np.array(keep)] if any(keep) else X
    labels = np.array(data.draw(st.lists(st.booleans(), min_size=len(X), max_size=len(X))))
    assert or_size(labels, X) == brute_or_size(labels, X)


@pytest.mark.parametrize("family, params, key, value", [
    ("monotone-disjunctions", {"n": 4, "k": 2}, "monotone_or", 2),
    ("monotone-conjunctions", {"n": 3}, "monotone_and", 3),
    ("k-of-r", {"n": 4, "r": 3, "k": 1}, "monotone_or", 3),
])
def test_a_matrix_class_gets_the_facts_of_its_family(family, params, key, value):
    C = make(family, **params)
    raw = ConceptClass.from_matrix(C.matrix, C.points)
    assert dict(C.facts)[key] == value and derived_facts(raw)[key] == value


def test_no_facts_where_the_points_are_not_boolean():
    assert derived_facts(make("thresholds", N=4)) == {}


def test_declared_facts_are_checked(tmp_path):
    C = make("monotone-disjunctions", n=3, k=2)
    raw = ConceptClass.from_matrix(C.matrix, C.points)
    assert dict(declare(raw, {"r": "2"}).facts)["monotone_or"] == 2
    with pytest.raises(ValueError, match="concept .* no fewer than 2 coordinates; give r=2"):
        declare(raw, {"r": "1"})
    with pytest.raises(ValueError, match="unknown fact"):
        declare(raw, {"k": "1"})
    with pytest.raises(ValueError, match="not 0/1 vectors"):
        declare(ConceptClass.from_matrix([[0, 1], [1, 1]], [(0,), (2,)]), {"r": "1"})
    # a Perceptron with the bias: the declared margin is checked against the exact one (1/3 for an OR of two)
    ok = attack("perceptron", declare(raw, {"margin": "1/3"}), learner_params={"bias": True}, strategy="exact")
    assert ok.bound.finite and verify_witness(ok.witness).ok and ok.witness["class"]["facts"] == {"margin": "1/3"}
    with pytest.raises(ValueError, match="does not hold"):
        attack("perceptron", declare(raw, {"margin": "1/2"}), learner_params={"bias": True}, strategy="exact")


def test_winnow_on_a_matrix_file_as_on_its_family(capsys, tmp_path):
    C = make("monotone-disjunctions", n=4, k=2)
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"matrix": C.matrix.astype(int).tolist(), "points": [list(p) for p in C.points]}))
    code, out, err = run(capsys, "attack", "winnow2", "--matrix", path, "--json", "--no-store", "--quiet")
    assert code == 0, err
    on_matrix = json.loads(out)
    code, out, err = run(capsys, "attack", "winnow2", "--class", "monotone-disjunctions", "n=4", "k=2", "--json",
                         "--no-store", "--quiet")
    on_family = json.loads(out)
    assert on_matrix["bound"]["value"] == on_family["bound"]["value"] == 20
    assert on_matrix["mistakes"] == on_family["mistakes"] == 7
    code, out, err = run(capsys, "attack", "winnow2", "--matrix", path, "--fact", "r=1", "--no-store", "--quiet")
    assert_usage_error(code, out, err)
    assert "give r=2" in err
    code, out, err = run(capsys, "attack", "winnow2", "--class", "thresholds", "N=3", "--fact", "r=1", "--no-store")
    assert_usage_error(code, out, err)
