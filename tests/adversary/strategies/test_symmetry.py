"""The renamings behind the exact adversary's targets search (adversary/strategies/_symmetry.py),
each against its definition checked by brute force over all permutations of the variables."""

import itertools

import numpy as np
from hypothesis import given, settings, strategies as st

from adversary.strategies import _symmetry
from adversary.strategies._symmetry import Domain, canonical


def cube(n):
    return list(itertools.product((0, 1), repeat=n))


def rename(x, v):
    """Variable i of x moves to position v[i]."""
    out = [0] * len(x)
    for i, b in enumerate(x):
        out[v[i]] = b
    return tuple(out)


def test_domain_of_refuses_what_it_cannot_rename():
    assert Domain.of([(0, 2), (1, 0)]) is None          # not 0/1
    assert Domain.of([(0,), (1,)]).closed
    assert not Domain.of([(0, 0), (1, 0)]).closed       # swapping the variables leaves X
    assert Domain.of(cube(3)).closed


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 4), data=st.data())
def test_blocks_are_the_swaps_that_fix_the_target(n, data):
    pts = data.draw(st.sampled_from([cube(n), [x for x in cube(n) if sum(x) != 1]]))
    labels = np.array(data.draw(st.lists(st.integers(0, 1), min_size=len(pts), max_size=len(pts))), dtype=np.int8)
    D = Domain.of(pts)
    index = {x: j for j, x in enumerate(pts)}
    blocks = D.blocks(labels)
    block_of = {i: b for b, B in enumerate(blocks) for i in B}
    for i, j in itertools.combinations(range(n), 2):
        v = list(range(n))
        v[i], v[j] = j, i
        valid = all(rename(x, v) in index and labels[index[rename(x, v)]] == labels[index[x]] for x in pts)
        if valid:  # a valid swap joins its variables (the converse need not hold: products of swaps)
            assert block_of[i] == block_of[j]
    # every renaming within the blocks maps X onto X and fixes the target
    for B in blocks:
        for perm in itertools.permutations(B):
            v = list(range(n))
            for a, b in zip(B, perm):
                v[a] = b
            assert all(rename(x, v) in index and labels[index[rename(x, v)]] == labels[index[x]] for x in pts)


def test_target_keys_of_monotone_disjunctions():
    n = 4
    pts = cube(n)
    D = Domain.of(pts)
    keys = {}
    for r in range(n + 1):
        for S in itertools.combinations(range(n), r):
            labels = np.array([int(any(x[i] for i in S)) for x in pts], dtype=np.int8)
            keys.setdefault(r, set()).add(D.target_key(labels))
    assert all(len(k) == 1 for k in keys.values())            # one key per orbit (the size r)
    assert len(set().union(*keys.values())) == n + 1           # and different orbits differ


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 4), data=st.data())
def test_equal_target_keys_mean_renamed_targets(n, data):
    pts = cube(n)
    D = Domain.of(pts)
    a = np.array(data.draw(st.lists(st.integers(0, 1), min_size=len(pts), max_size=len(pts))), dtype=np.int8)
    b = np.array(data.draw(st.lists(st.integers(0, 1), min_size=len(pts), max_size=len(pts))), dtype=np.int8)
    if D.target_key(a) == D.target_key(b):
        index = {x: j for j, x in enumerate(pts)}
        assert any(all(a[index[x]] == b[index[rename(x, v)]] for x in pts)
                   for v in itertools.permutations(range(n)))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 5), packed=st.booleans(), data=st.data())
def test_representatives_one_per_class_of_alike_points(n, packed, data):
    pts = cube(n)
    D = Domain.of(pts)
    key = tuple(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    cut = data.draw(st.integers(0, n))
    blocks = [B for B in (list(range(cut)), list(range(cut, n))) if B]
    cand = np.array(sorted(data.draw(st.sets(st.integers(0, len(pts) - 1), min_size=1))), dtype=np.int64)
    old = _symmetry.PACK_BITS
    _symmetry.PACK_BITS = 62 if packed else 0
    try:
        reps = D.representatives(cand, blocks, key)
    finally:
        _symmetry.PACK_BITS = old

    def alike(x, y):  # a renaming within the blocks that fixes the state maps x to y
        for perms in itertools.product(*(itertools.permutations(B) for B in blocks)):
            v = list(range(n))
            for B, p in zip(blocks, perms):
                for a, b in zip(B, p):
                    v[a] = b
            if all(key[v[i]] == key[i] for i in range(n)) and rename(x, v) == y:
                return True
        return False

    chosen = [pts[j] for j in reps]
    assert set(reps.tolist()) <= set(cand.tolist())
    for j in cand:  # every candidate is alike to exactly one representative
        assert sum(alike(pts[j], r) for r in chosen) == 1


def test_point_map_carries_a_state_to_its_renamed_copy():
    pts = cube(3)
    D = Domain.of(pts)
    blocks = [[0, 1], [2]]
    src, dst = (5, 7, 1), (7, 5, 1)
    assert canonical(src, blocks) == canonical(dst, blocks)
    pm = D.point_map(blocks, src, dst)
    for j, x in enumerate(pts):  # x's weight in src is the renamed point's weight in dst
        y = pts[pm[j]]
        assert sorted(w for w, b in zip(src, x) if b) == sorted(w for w, b in zip(dst, y) if b)
        assert y[2] == x[2]
