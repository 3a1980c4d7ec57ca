"""The brute-force oracles under their old import path: they live in :mod:`tests.oracles`."""

from ..oracles import (  # noqa: F401
    FirstConsistentBrute,
    HalvingBrute,
    Unbounded,
    __all__,
    adversary_brute,
    log2_floor,
    matrices,
    opt_brute,
    opt_of,
    rows_of,
    sparse_rows,
    split_rows,
    tree_ok_brute,
    vc_brute,
)
