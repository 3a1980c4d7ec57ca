"""The subcube table (solvers/opt/subcube.py): its values against the brute force, a stopped fill, and
opt(engine="table")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.opt import MAX_TABLE_POINTS, Solver, SubcubeTable, TableStop, opt

from ...oracles import matrices, opt_brute, opt_of, rows_of, sparse_rows, split_rows
from .checks import check_result


def test_table_engine_is_really_used():
    """On a class the cheap bounds do not settle, engine="table" answers from the table."""
    rows = sparse_rows(6, 2)  # Opt 2 < floor(log2 22) = 4
    C = ConceptClass.from_matrix(rows)
    r = opt(C, engine="table")
    assert r.stats["engine"] == "table"
    assert r.value == 2 == opt_brute(rows)
    check_result(r, C, 2)
    s = opt(C, engine="search")
    assert s.stats["engine"] == "search" and s.value == 2


def test_table_engine_refuses_too_many_points():
    N = MAX_TABLE_POINTS + 1
    C = ConceptClass.from_matrix([[int(i == j) for j in range(N)] for i in range(N)])
    with pytest.raises(ValueError):
        opt(C, engine="table")
    # duplicate and complementary columns count once: this one has 2 effective points
    D = ConceptClass.from_matrix(np.array([[0, 0], [0, 1], [1, 0], [1, 1]])[:, [0, 1] * 10])
    E = ConceptClass.from_matrix(np.hstack([D.matrix, ~D.matrix]))
    assert opt(E, engine="table").value == 2


@settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(), st.data())
def test_table_values_equal_the_brute_force(rows, data):
    """Opt of the class and of the version space after a few labelled points, read from the table."""
    C = ConceptClass.from_matrix(rows)
    points = Solver(C).root_points
    T = SubcubeTable(C, points).fill()
    assert T.complete and T.value() == opt_brute(rows)
    V, p = rows_of(rows), T.root
    for j in data.draw(st.lists(st.sampled_from(range(len(points))), unique=True, max_size=3)) if points else []:
        b = data.draw(st.integers(0, 1))
        V, p = split_rows(V, points[j])[b], T.child(p, j, b)
        assert T.value(p) == opt_of(V, C.n_points)


def test_stopped_fill_leaves_lower_bounds():
    C = ConceptClass.from_matrix(sparse_rows(12, 3))
    T = SubcubeTable(C, Solver(C).root_points)
    with pytest.raises(TableStop):
        T.fill(deadline=0.0)
    assert not T.complete and 0 <= T.value() <= 3
    assert T.fill().value() == 3
