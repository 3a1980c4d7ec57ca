"""The parallel root (solvers/opt/parallel.py): joblib workers give the brute force's values, valid
bounds when stopped, and share the memo limit."""

from __future__ import annotations

import numpy as np

from solvers.concept_class import ConceptClass
from solvers.families import make
from solvers.opt import opt

from ...oracles import opt_brute, sparse_rows
from .checks import check_result


def test_jobs_two_gives_the_same_values():
    """The parallel root (joblib workers): the same values as the brute force, and valid bounds when
    stopped early."""
    rng = np.random.default_rng(11)
    classes = [sparse_rows(7, 2), sparse_rows(9, 3)] + [rng.integers(0, 2, (10, 7)).tolist() for _ in range(3)]
    for rows in classes:
        C = ConceptClass.from_matrix(rows)
        r = opt(C, engine="search", jobs=2)
        b = opt_brute(rows)
        assert r.value == b
        check_result(r, C, b)
    C = ConceptClass.from_matrix(sparse_rows(16, 4))
    r = opt(C, engine="search", jobs=2, time_limit=0.05)
    check_result(r, C, 4)


def test_memo_limit_with_workers():
    C = make("intervals", N=60)
    r = opt(C, jobs=2, memo_bytes=2**20)
    assert r.value == opt(C).value and r.stats["memo_bytes"] == 2**20
