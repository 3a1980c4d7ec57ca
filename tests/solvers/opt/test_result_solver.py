"""OptResult.solver made on first use where the engine left a recipe (a shattered set settles Opt(C) without a
search): the same solver, SOA and certificate as before, picklable, and a result copied into an OptRun keeps it."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from solvers.certificates import verify_upper
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.learners import SOA
from solvers.opt import Solver, opt


def shuffled_parities(n: int) -> ConceptClass:
    M = np.asarray(make("parities", n=n).matrix, dtype=bool)
    rng = np.random.default_rng(n)
    return ConceptClass.from_matrix(M[rng.permutation(M.shape[0])][:, rng.permutation(M.shape[1])])


def test_a_settled_result_makes_its_solver_once_on_use():
    C = shuffled_parities(12)  # (4,096 concepts: the shattered set is tried from Tuning.shattered_from)
    r = opt(C)
    assert r.stats["engine"] == "shattered set" and r.value == 12
    assert r.__dict__["_solver"] is None  # not made yet
    S = r.solver
    assert isinstance(S, Solver) and S.C is C and r.solver is S
    assert verify_upper(r.upper_certificate(), C) == 12
    assert SOA(C, solver=r.solver).predict_one(C.points[0]) in (0, 1)


def test_pickled_and_replaced_results_keep_the_recipe():
    C = shuffled_parities(12)
    r = opt(C)
    back = pickle.loads(pickle.dumps(r))
    assert back.__dict__["_solver"] is None and isinstance(back.solver, Solver) and back.value == 12
    assert dataclasses.replace(r, value=12).solver is r.solver


def test_the_field_stays_frozen():
    r = opt(shuffled_parities(4))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.solver = None


def test_the_workspace_run_keeps_the_recipe(tmp_path):
    from adversary.workspace import Workspace

    C = shuffled_parities(12)
    run = Workspace().opt(C)  # (no store: a stored result's certificate is written, which makes the solver)
    assert run.value == 12 and run.__dict__["_solver"] is None and isinstance(run.solver, Solver)
    stored = Workspace(tmp_path / "s.db").opt(C)
    assert stored.value == 12 and verify_upper(stored.upper_certificate(), C) == 12
