"""What every OptResult must satisfy, shared by the tests of :mod:`solvers.opt`."""

from __future__ import annotations

from solvers.certificates import verify_tree
from solvers.classes import ConceptClass
from solvers.opt import OptResult

from ...oracles import tree_ok_brute


def check_result(r: OptResult, C: ConceptClass, true_opt: int | None = None) -> None:
    """The invariants every OptResult must satisfy."""
    assert isinstance(r, OptResult)
    assert r.lower <= r.upper
    assert r.solved == (r.lower == r.upper)
    if r.solved:
        assert r.value == r.lower == r.upper
    else:
        assert r.value is None
    assert 0 <= r.lower
    assert r.upper <= len(C).bit_length() - 1  # the Halving bound floor(log2 |C|)
    assert r.tree is not None
    assert r.tree.depth == r.lower
    assert verify_tree(r.tree.to_json(), C) == r.lower
    assert tree_ok_brute(r.tree.root, r.lower, C.matrix)
    if true_opt is not None:
        assert r.lower <= true_opt <= r.upper
