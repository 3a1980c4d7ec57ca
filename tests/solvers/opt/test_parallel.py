"""The parallel root (solvers/opt/parallel.py): joblib workers give the brute force's values, valid
bounds when stopped, and share the memo limit."""

from __future__ import annotations

import numpy as np

from solvers.classes import ConceptClass
from solvers.classes.families import make
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


def test_workers_decide_every_root_query():
    """solve_root_parallel itself (opt() first tries half a second in this process, which solves these
    small classes before any worker starts): the values of the brute force, each query recorded in
    the solver's memo, and a mistake tree rebuilt here from the recorded moves."""
    from solvers.certificates import MistakeTree, verify_tree
    from solvers.opt import Solver
    from solvers.opt.parallel import solve_root_parallel

    for rows in (sparse_rows(7, 2), sparse_rows(8, 3), np.random.default_rng(3).integers(0, 2, (12, 7)).tolist()):
        C = ConceptClass.from_matrix(rows)
        S = Solver(C)
        queries = []
        with S.limits():
            lo, hi = solve_root_parallel(S, 2, queries)
        b = opt_brute(rows)
        assert lo == hi == b == S.value()
        assert all(q["d"] >= b for q in queries)  # from the top down
        assert S.root_bounds == (b, b) and S.bounds(S.full) == (b, b)
        assert verify_tree(MistakeTree(b, S.mistake_tree(S.full, b), C).to_json(), C) == b


def test_workers_search_in_the_kernel():
    """With the kernel forced in the parent's solver, the workers decide their questions in it (their kernel
    nodes are counted here), and the values and the tree are those of the brute force."""
    import pytest

    from solvers.certificates import MistakeTree, verify_tree
    from solvers.opt import Solver
    from solvers.opt import kernel as kernel_module
    from solvers.opt.parallel import solve_root_parallel

    if not kernel_module.available():
        pytest.skip("numba is not installed")
    rows = np.random.default_rng(4).integers(0, 2, (40, 9)).tolist()
    C = ConceptClass.from_matrix(rows)
    S = Solver(C, kernel="numba")
    with S.limits():
        lo, hi = solve_root_parallel(S, 2, [])
    b = opt_brute(rows)
    assert lo == hi == b
    assert S.kernel_nodes > 0
    assert verify_tree(MistakeTree(b, S.mistake_tree(S.full, b), C).to_json(), C) == b
