"""The upper-bound certificate: Solver.upper_proof writes it, verify_upper checks it from the matrix.

Soundness is what matters: verify_upper must never accept a claim Opt(C) <= u with u below the true
Opt(C) (computed by the brute force in brute.py, independent of the solver), whatever the entries say.
"""

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers import ConceptClass, opt
from solvers.certificates import ProofTooLarge, TreeError, verify_upper
from solvers.classes.families import make

from tests.oracles import matrices, opt_brute

SETTINGS = settings(max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(matrices(max_rows=12, max_cols=7), st.sampled_from(["search", "table"]))
def test_certificate_of_the_value_verifies(m, engine):
    C = ConceptClass.from_matrix(m)
    r = opt(C, engine=engine)
    proof = r.solver.upper_proof(r.value)
    assert verify_upper(json.loads(json.dumps(proof)), C) == r.value == opt_brute(m)


@SETTINGS
@given(matrices(max_rows=12, max_cols=7))
def test_no_certificate_below_the_value(m):
    C = ConceptClass.from_matrix(m)
    r = opt(C, engine="search")
    if r.value >= 1 and len(C) >= 2**r.value:
        with pytest.raises(RuntimeError):
            r.solver.upper_proof(r.value - 1)


@SETTINGS
@given(matrices(max_rows=10, max_cols=6, min_rows=2), st.data())
def test_false_claims_are_rejected(m, data):
    """Random certificates (random paths, random bounds) claiming less than Opt never verify."""
    C = ConceptClass.from_matrix(m)
    true = opt_brute(m)
    if true == 0:
        return
    u = data.draw(st.integers(0, true - 1))
    n_points = C.n_points
    step = st.lists(st.tuples(st.integers(0, n_points - 1), st.integers(0, 1)).map(list), max_size=4)
    entries = data.draw(st.lists(st.fixed_dictionaries({"path": step, "bound": st.integers(0, 4)}), max_size=30))
    entries.append({"path": [], "bound": u})
    with pytest.raises(TreeError):
        verify_upper({"kind": "upper-bound", "bound": u, "entries": entries}, C)


def test_tampered_certificate_is_rejected():
    C = make("intervals", N=100)
    r = opt(C)
    proof = r.solver.upper_proof(r.value)
    assert verify_upper(proof, C) == 11
    lowered = {**proof, "bound": 10, "entries": [{**e, "bound": max(0, e["bound"] - 1)} for e in proof["entries"]]}
    with pytest.raises(TreeError, match="neither side"):
        verify_upper(lowered, C)
    dropped = {**proof, "entries": proof["entries"][:-1]}
    with pytest.raises(TreeError):
        verify_upper(dropped, C)


@pytest.mark.parametrize("bad", [
    {"kind": "upper-bound", "bound": -1, "entries": []},
    {"kind": "upper-bound", "bound": 1, "entries": "x"},
    {"kind": "upper-bound", "bound": 1, "entries": [{"path": [[99, 0]], "bound": 0}, {"path": [], "bound": 1}]},
    {"kind": "upper-bound", "bound": 1, "entries": [{"path": [[0, 2]], "bound": 0}]},
    {"kind": "tree", "bound": 1},
])
def test_malformed_certificates(bad):
    C = ConceptClass.from_matrix(np.eye(6, dtype=int).tolist() + [[0] * 6])
    with pytest.raises(TreeError):
        verify_upper(bad, C)


def test_halving_bound_needs_no_entries():
    C = make("thresholds", N=7)  # 8 concepts: Opt <= floor(log2 8) = 3 by cardinality alone
    assert verify_upper({"kind": "upper-bound", "bound": 3, "entries": []}, C) == 3


def test_size_limit_is_a_clean_error():
    C = make("intervals", N=100)
    r = opt(C)
    with pytest.raises(ProofTooLarge, match="entries"):
        r.solver.upper_proof(r.value, limit=10)


def test_deeply_nested_path_step_is_named_in_a_short_line():
    C = ConceptClass.from_matrix(np.eye(6, dtype=int).tolist() + [[0] * 6])
    step = []
    for _ in range(150):  # parseable (see solvers.jsontext.MAX_NESTING), but no [point, label]
        step = [step]
    with pytest.raises(TreeError) as ei:
        verify_upper({"kind": "upper-bound", "bound": 1, "entries": [{"path": [step], "bound": 1}]}, C)
    assert "path step [[[[" in str(ei.value) and len(str(ei.value)) < 200


def test_huge_claimed_bounds_are_checked_without_computing_2_to_the_bound():
    C = ConceptClass.from_matrix(np.eye(6, dtype=int).tolist() + [[0] * 6])
    assert verify_upper({"kind": "upper-bound", "bound": 10**15, "entries": []}, C) == 10**15
    proof = {"kind": "upper-bound", "bound": 1, "entries": [{"path": [], "bound": 1}, {"path": [[0, 0]], "bound": 10**15}]}
    assert verify_upper(proof, C) == 1
