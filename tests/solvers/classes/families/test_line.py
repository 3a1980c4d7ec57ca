"""solvers.classes.families.line against the definitions."""

import itertools

import pytest

from solvers.classes.families.line import all_functions


@pytest.mark.parametrize("n", range(0, 11))
def test_all_functions_are_the_tuples_in_product_order(n):
    """(issue 39) made by unpackbits (the int64 shifts took 6 s at n=23): row f is the f-th tuple of {0,1}^n in
    product order, the brute force."""
    m, points = all_functions(n)
    assert m.dtype == bool and m.shape == (2 ** n, n)
    assert [tuple(int(b) for b in row) for row in m] == list(itertools.product((0, 1), repeat=n))
    assert points == [(j,) for j in range(n)]
