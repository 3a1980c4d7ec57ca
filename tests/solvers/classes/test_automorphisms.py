"""The symmetry group found by graph automorphism (solvers/classes/automorphisms.py): the group a brute
force finds, at least the group a family declares, Opt unchanged, certificates that carry the group
found and verify (a tampered one does not), and the limits (a subgroup, skipped classes)."""

import copy
import itertools
import math
import os
import signal
import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import TreeError, verify_tree, verify_upper
from solvers.classes import ConceptClass
from solvers.classes.automorphisms import detect, find_symmetry, group_limit
from solvers.classes.families import FAMILIES, make
from solvers.opt import opt
from solvers.opt.search import Solver

from .test_symmetry import SMALL


def brute_force_order(M: np.ndarray) -> int:
    """The number of (permutation of the points, complement or not) mapping the rows onto themselves."""
    M = np.asarray(M, dtype=bool)
    rows = {r.tobytes() for r in M}
    count = 0
    for perm in itertools.permutations(range(M.shape[1])):
        for flip in (False, True):
            image = np.empty_like(M)
            image[:, list(perm)] = M
            if flip:
                image = ~image
            count += {r.tobytes() for r in image} == rows
    return count


def matrices(max_points=5, max_concepts=12):
    """Random small 0/1 matrices, some with repeated or complementary columns (the cases that matter)."""
    def build(args):
        m, n, bits, extra = args
        M = np.array(bits[: m * n], dtype=bool).reshape(m, n)
        if extra == 1 and n < max_points:
            M = np.hstack([M, M[:, :1]])   # a repeated column
        elif extra == 2 and n < max_points:
            M = np.hstack([M, ~M[:, :1]])  # a complemented column
        elif extra == 3:
            M = np.vstack([M, ~M])         # closed under complement
        return M

    return st.tuples(st.integers(1, max_concepts), st.integers(1, max_points - 1),
                     st.lists(st.booleans(), min_size=max_concepts * max_points, max_size=max_concepts * max_points),
                     st.integers(0, 3)).map(build)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices())
def test_the_group_found_is_the_brute_force_group(M):
    C = ConceptClass.from_matrix(M)
    D = detect(C)
    assert D.full_order == brute_force_order(C.matrix)
    if D.group is not None:
        D.group.check(C.matrix)  # every generator maps the class onto itself
        assert D.source == "detected" and D.order == len(D.group.elements()[1]) >= 2
        assert D.full_order % D.order == 0
    else:
        assert D.source == "none" and D.order is None


def test_a_column_major_matrix_is_checked_as_any_other():
    """Complementing every label maps the halfspaces of {0,1}^4 onto themselves: said so for the matrix in either
    order (a column-major one packed column-major, which the check took for a failed map and sent to bliss)."""
    from solvers.classes.automorphisms import _is_symmetry
    from solvers.classes.symmetry import Symmetry

    M = np.asarray(make("halfspaces", n=4).matrix, dtype=bool)  # (16 points: two bytes a row)
    n = M.shape[1]
    for A in (M, np.asfortranarray(M), M[:, ::-1]):
        assert _is_symmetry((tuple(range(n)), True), A, n)
        Symmetry([(tuple(range(n)), True)], n).check(A)
    half = np.asfortranarray(M[M[:, 0]])  # (the concepts through point 0: not closed under complements)
    assert not _is_symmetry((tuple(range(n)), True), half, n)


def test_the_invariants_are_asked_once(monkeypatch):
    """A search asks for the group at every pause (``automorphisms(compute=False, cheap=True)``): invariants that do
    not settle it are computed once, and the detection proper still runs when asked."""
    from solvers.classes import automorphisms as A

    calls = []
    real = A.settled_by_invariants
    monkeypatch.setattr(A, "settled_by_invariants", lambda C: calls.append(1) or real(C))
    C = ConceptClass.from_matrix(make("halfspaces", n=3).matrix)
    assert [C.automorphisms(compute=False, cheap=True) for _ in range(5)] == [None] * 5
    assert len(calls) == 1
    assert C.automorphisms().order == 96


def test_equal_columns_are_not_listed_but_counted():
    # thresholds N=6, each column four times: the mirror image, times 4!^6 renamings of equal columns
    C = ConceptClass.from_matrix(np.repeat(make("thresholds", N=6).matrix, 4, axis=1))
    D = detect(C)
    assert D.order == 2 and D.full_order == 2 * math.factorial(4) ** 6
    D.group.check(C.matrix)


@pytest.mark.parametrize("name,params", SMALL, ids=lambda v: str(v))
def test_the_group_found_holds_the_declared_one(name, params):
    C = make(name, **params)
    D = detect(ConceptClass.from_matrix(C.matrix), limit=100_000)  # the matrix alone: no family, no declared group
    # (parities n=4: GL(4, 2), 20,160 elements, past the keys' limit of 10,000)
    assert D.full_order is not None and D.full_order % C.symmetry.order == 0
    # each declared generator is an element of the group found (up to renaming equal columns, which is none here)
    if D.full_order == D.order:
        found = {(p.tobytes(), bool(f)) for p, f in zip(*D.group.elements())}
        for perm, flip in C.symmetry.generators:
            assert (np.asarray(perm, dtype=np.int64).tobytes(), flip) in found


def test_a_group_too_large_for_the_keys_gives_a_subgroup():
    # the singletons over 37 points and the empty concept: the group S_37
    C = ConceptClass.from_matrix(np.vstack([np.zeros((1, 37), dtype=int), np.eye(37, dtype=int)]))
    D = detect(C)
    assert D.subgroup and D.full_order is None and 2 <= D.order <= group_limit(37)
    D.group.check(C.matrix)
    S = Solver(C, symmetry_after=0)
    assert S.symmetry_info["order"] == D.order and S.value() == 1


def test_skipped_classes_say_why():
    C = ConceptClass.from_matrix(np.eye(70, dtype=int))
    D = detect(C)
    assert D.group is None and D.source.startswith("skipped: 70 points")
    D = detect(make("halfspaces", n=3), max_entries=10)
    assert D.group is None and D.source.startswith("skipped: a 104 x 8 matrix")
    G = find_symmetry(ConceptClass.from_matrix(make("thresholds", N=5).matrix))  # the group alone
    assert G.order == 2 and G.generators == ((tuple(range(4, -1, -1)), True),)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_points=6, max_concepts=20))
def test_opt_with_the_group_found_is_opt_without(M):
    C = ConceptClass.from_matrix(M)
    S = Solver(C, symmetry_after=0, symmetry_min=2)  # keyed by orbits from the first node, all sizes
    T = Solver(ConceptClass.from_matrix(M), symmetry=False)
    assert S.value() == T.value()
    info = S.symmetry_info
    assert info["source"] in ("detected", "none")
    if info["source"] == "detected":
        proof = S.upper_proof(S.value())
        if "symmetry" in proof:
            assert verify_upper(proof, C) == S.value()


PUBLISHED = [("monotone-conjunctions", {"n": 6}), ("conjunctions", {"n": 4, "false": 1}), ("parities", {"n": 5}),
             ("all-functions", {"n": 4}), ("disjunctions", {"n": 4, "k": 4}), ("thresholds", {"N": 31}),
             ("monotone-disjunctions", {"n": 5, "k": 5})]


@pytest.mark.parametrize("name,params", PUBLISHED, ids=lambda v: str(v))
def test_opt_of_a_matrix_with_its_group_found_is_the_published_value(name, params):
    known = FAMILIES[name].opt(params)
    assert known is not None
    C = ConceptClass.from_matrix(make(name, **params).matrix)
    S = Solver(C, symmetry_after=0)
    assert S.symmetry_info["source"] == "detected"
    assert S.value() == known


def test_certificates_carry_the_group_found_and_a_tampered_one_fails():
    C = ConceptClass.from_matrix(make("halfspaces", n=4).matrix)
    r = opt(C, solver=Solver(C, symmetry_after=0))
    assert r.value == 9 and r.stats["symmetry"]["source"] == "detected" and r.stats["symmetry"]["order"] == 768
    proof = r.upper_certificate()
    assert verify_upper(proof, C) == 9 and verify_tree(r.tree.to_json(), C) == 9
    assert proof["symmetry"] == r.solver.group.to_json()  # the group the search used is the one written
    bad = copy.deepcopy(proof)
    perm = bad["symmetry"]["generators"][0]["permutation"]
    perm[0], perm[1] = perm[1], perm[0]
    with pytest.raises(TreeError, match="does not map the class onto itself"):
        verify_upper(bad, C)
    bad = copy.deepcopy(proof)
    bad["symmetry"]["generators"][-1]["complement"] = not bad["symmetry"]["generators"][-1]["complement"]
    with pytest.raises(TreeError):
        verify_upper(bad, C)


def test_a_declared_group_is_kept_and_switching_off_uses_none():
    C = make("halfspaces", n=4)
    S = Solver(C, symmetry_after=0)
    assert S.symmetry_info == {"order": 768, "source": "declared", "seconds": None}
    assert S.group is C.symmetry
    S = Solver(ConceptClass.from_matrix(C.matrix), symmetry=False, symmetry_after=0)
    assert S.symmetry_info["source"] == "skipped: switched off" and S.canonical is None


def test_a_small_search_never_asks_for_the_group():
    C = ConceptClass.from_matrix(make("thresholds", N=20).matrix)
    r = opt(C)
    assert r.value == 4 and r.stats["symmetry"]["source"].startswith("skipped: the search ended")
    assert C.automorphisms(compute=False) is None  # not computed


def test_a_worker_gets_the_group_with_the_pickled_class():
    import pickle

    from solvers.opt import parallel

    C = ConceptClass.from_matrix(make("halfspaces", n=4).matrix)
    found = C.automorphisms()
    copy_ = pickle.loads(pickle.dumps(C))  # what a worker process receives
    got = copy_.automorphisms(compute=False)
    assert got.group.to_json() == found.group.to_json() and (got.source, got.order) == (found.source, found.order)
    S = Solver(C)
    moves = list(S.root_points)
    try:
        assert parallel._worker(copy_, "test", 10, moves, None, 2**28, True)[0] == "no"
        W = parallel._WORKER_SOLVERS["test"]
        assert W.symmetry_info["source"] == "detected" and W.group.to_json() == found.group.to_json()
        assert parallel._worker(copy_, "test", 9, moves, None, 2**28, True)[0] == "yes"
    finally:
        parallel._WORKER_SOLVERS.clear()


@pytest.mark.slow
def test_workers_and_the_certificate_verifies():
    C = ConceptClass.from_matrix(make("decision-lists", n=5).matrix)
    r = opt(C, jobs=2)
    assert r.value == 12
    proof = r.upper_certificate()
    assert verify_upper(proof, C) == 12 and verify_tree(r.tree.to_json(), C) == 12
    if "symmetry" in proof:
        assert proof["symmetry"] == C.automorphisms().group.to_json()


def test_the_horizon_game_uses_the_group_found_and_its_certificate_verifies():
    from solvers.certificates.games import verify_game_upper

    C = ConceptClass.from_matrix(make("halfspaces", n=4).matrix)
    r = opt(C, horizon=12, solver=Solver(C, symmetry_after=0))
    assert r.value == 9 and r.stats["symmetry"]["source"] == "detected"
    proof = r.upper_certificate()
    assert "symmetry" in proof
    assert verify_game_upper(proof, C) == 9
    bad = copy.deepcopy(proof)
    perm = bad["symmetry"]["generators"][0]["permutation"]
    perm[0], perm[1] = perm[1], perm[0]
    with pytest.raises(TreeError):
        verify_game_upper(bad, C)


# ---------------------------------------------------------------------------------------- bliss in a child process
def _spin_forever():
    while True:
        pass


def _fails():
    raise ValueError("no graph")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_ctrl_c_kills_the_detection_at_once():
    """bliss holds the interpreter: a large detection runs in a child process, and a Ctrl-C (here SIGINT sent
    to this process while the child spins forever) raises here at once and kills the child."""
    from solvers.classes import automorphisms as A

    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        A._in_child(_spin_forever)
    timer.join()
    (pid,) = A._last_child
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # killed and reaped
    with pytest.raises(RuntimeError, match="ValueError: no graph"):
        A._in_child(_fails)


def test_the_child_finds_the_group_found_here(monkeypatch):
    from solvers.classes import automorphisms as A

    C = ConceptClass.from_matrix(make("halfspaces", n=3).matrix)
    monkeypatch.setattr(A, "IN_CHILD_FROM", 1e9)
    here = A.detect(C)
    monkeypatch.setattr(A, "IN_CHILD_FROM", -1.0)
    there = A.detect(C)
    assert there.order == here.order == 96 and there.group.to_json() == here.group.to_json()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_detection_alongside_finds_the_group_and_a_cancel_kills_it():
    """detect_async: the child's answer, polled, is the group found here; a detection cancelled while its child
    still runs kills and reaps the child."""
    from solvers.classes import automorphisms as A

    C = ConceptClass.from_matrix(make("halfspaces", n=3).matrix)
    here = A.detect(C)
    pending = A.detect_async(C)
    assert isinstance(pending, A.Pending)
    found = None
    while found is None:  # (polled as the search's ticks do, until the child answers)
        found = pending.poll()
        time.sleep(0.001)
    assert found.order == here.order == 96 and found.group.to_json() == here.group.to_json()
    (pid,) = A._last_child
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped once it answered
    spinning = A.Pending(A._spawn(_spin_forever))
    (pid,) = A._last_child
    assert spinning.poll() is None
    spinning.cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # killed and reaped
    with pytest.raises(RuntimeError, match="cancelled"):
        spinning.poll()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
@pytest.mark.parametrize("kernel", ["python", "numba"])
def test_a_search_takes_the_group_found_alongside(kernel):
    """The search starts the detection in a child and goes on; it takes the group at a later look (the same
    value, the group detected), and a search that ends first kills the child (no process left)."""
    from solvers.classes import automorphisms as A
    from solvers.opt import Solver, kernel as kernel_module, opt

    if kernel == "numba" and not kernel_module.available():
        pytest.skip("numba is not installed")
    M = np.asarray(make("decision-lists", n=4).matrix, dtype=bool)
    C = ConceptClass.from_matrix(M)
    S = Solver(C, kernel=kernel, symmetry_after=100)
    r = opt(C, solver=S, engine="search", anytime=False)
    assert r.value == 9
    info = S.symmetry_info
    assert info["source"] == "detected" or info["source"].startswith("skipped: the search ended")
    if S._detection_started:
        (pid,) = A._last_child
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # answered or killed: reaped either way
    C = ConceptClass.from_matrix(make("decision-lists", n=5).matrix)
    S = Solver(C, kernel=kernel, symmetry_after=100)
    r = opt(C, solver=S, engine="search", anytime=False)
    assert r.value == 12 and S.symmetry_info["source"] == "detected" and S._detection_started


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 12), st.integers(1, 6), st.integers(0, 2**31 - 1))
def test_invariants_settle_only_trivial_groups(m, n, seed):
    """When the columns' invariants settle the group (settled_by_invariants), the brute force finds only the
    renamings of equal columns: the whole group is their product of factorials, as the Detection says."""
    from solvers.classes.automorphisms import settled_by_invariants

    M = np.random.default_rng(seed).integers(0, 2, size=(m, n)).astype(bool)
    C = ConceptClass.from_matrix(M)
    d = settled_by_invariants(C)
    if d is not None:
        assert d.group is None and d.source == "none"
        assert brute_force_order(C.matrix) == d.full_order


def test_a_random_class_is_settled_without_bliss_and_a_symmetric_one_is_not():
    from solvers.classes.automorphisms import settled_by_invariants

    R = ConceptClass.from_matrix(make("random", m=1000, N=12, seed=0).matrix)
    d = settled_by_invariants(R)
    assert d is not None and d.group is None and detect(R).source == "none"
    assert R.automorphisms(compute=False, cheap=True) is not None  # the search's cheap question settles it
    for name, params in (("decision-lists", {"n": 3}), ("thresholds", {"N": 6}), ("halfspaces", {"n": 3})):
        assert settled_by_invariants(ConceptClass.from_matrix(make(name, **params).matrix)) is None, name
