"""Symmetry groups: every family's declared generators map its class onto itself, the groups have the
orders the theory gives, and a wrong generator is refused."""

import itertools
import math

import numpy as np
import pytest

from solvers.classes import ConceptClass
from solvers.classes.families import FAMILIES, make
from solvers.classes.symmetry import MAX_ORDER, Symmetry, cube_generators, grid_generators, line_generators

SMALL = [
    ("monotone-conjunctions", {"n": 4}), ("conjunctions", {"n": 3}), ("conjunctions", {"n": 3, "false": 0}),
    ("monotone-disjunctions", {"n": 5, "k": 2}), ("disjunctions", {"n": 4, "k": 2}), ("parities", {"n": 4}),
    ("halfspaces", {"n": 3}), ("halfspaces", {"n": 4}), ("k-of-r", {"n": 5, "r": 3, "k": 2}),
    ("decision-lists", {"n": 3}), ("thresholds", {"N": 9}), ("intervals", {"N": 7}),
    ("intervals", {"N": 7, "empty": 0}), ("singletons", {"N": 5}), ("singletons", {"N": 5, "empty": 0}),
    ("all-functions", {"n": 4}), ("rectangles", {"N": 4}), ("qr-tournament", {"p": 7}), ("qr-tournament", {"p": 31}),
]


@pytest.mark.parametrize("name,params", SMALL, ids=lambda v: str(v))
def test_declared_symmetries_map_the_class_onto_itself(name, params):
    C = make(name, **params)
    G = C.checked_symmetry()
    assert G is not None and G.order >= 2
    # the check by brute force, element by element (not only the generators)
    rows = {tuple(r) for r in C.matrix.astype(int).tolist()}
    perms, flips = G.elements()
    for p, f in zip(perms[:50], flips[:50]):
        image = set()
        for r in rows:
            new = [0] * len(r)
            for x, v in enumerate(r):
                new[p[x]] = v ^ int(f)
            image.add(tuple(new))
        assert image == rows


def test_every_family_but_random_declares_a_group():
    declared = {f.name for f in FAMILIES.values() if f.symmetry({"n": 3, "N": 3, "k": 1, "r": 2, "false": 1,
                                                               "empty": 1, "p": 7, "d": 2})}
    assert declared >= {"halfspaces", "thresholds", "intervals", "rectangles", "monotone-disjunctions"}


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_group_orders(n):
    hyper = Symmetry(cube_generators(n, negate=True), 2**n)
    assert hyper.order == 2**n * math.factorial(n)
    assert Symmetry(cube_generators(n, negate=False), 2**n).order == math.factorial(n)
    assert Symmetry(cube_generators(n, negate=True, complement=True), 2**n).order == 2 * 2**n * math.factorial(n)
    assert Symmetry(line_generators(5), 5).order == 2
    assert Symmetry(grid_generators(n + 1), (n + 1) ** 2).order == (8 if n >= 1 else 1)


def test_a_wrong_generator_is_refused():
    C = make("thresholds", N=5)
    bad = Symmetry(line_generators(5, complement=False), 5)  # a mirrored threshold is not a threshold
    with pytest.raises(ValueError, match="does not map the class onto itself"):
        bad.check(C.matrix)
    D = ConceptClass(C.matrix, C.points, symmetry=bad)
    with pytest.raises(ValueError, match="does not map"):
        D.checked_symmetry()


def test_malformed_symmetries():
    with pytest.raises(ValueError, match="each of the 3 point indices once"):
        Symmetry([((0, 0, 1), False)], 3)
    with pytest.raises(ValueError, match="acts on 3 points"):
        ConceptClass([[0, 1]], symmetry=Symmetry([((1, 0, 2), False)], 3))
    with pytest.raises(ValueError, match="a symmetry is"):
        Symmetry.from_json({"points": 3})
    G = Symmetry(cube_generators(2, negate=True), 4)
    assert Symmetry.from_json(G.to_json()).order == G.order


def test_groups_too_large_to_list():
    G = Symmetry([(tuple(range(1, 12)) + (0,), False), ((1, 0) + tuple(range(2, 12)), False)], 12)  # 12! elements
    assert math.factorial(12) > MAX_ORDER
    with pytest.raises(ValueError, match="more than"):
        G.elements()


def test_identity_generators_are_dropped():
    G = Symmetry([((0, 1, 2), False)] + list(itertools.repeat(((1, 0, 2), False), 2)), 3)
    assert len(G.generators) == 1 and G.order == 2
    assert np.array_equal(G.elements()[0][0], [0, 1, 2])
