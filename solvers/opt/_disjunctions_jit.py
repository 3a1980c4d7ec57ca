"""The compiled twin of :func:`solvers.opt.disjunctions._balanced_points` (numba), imported only when it is used.

It enumerates the same points, one per orbit of the swaps within the blocks (the lowest-numbered variables of
each block), keeps those whose two sides both hold at least ``need`` concepts, and returns them in the same
order: by the smaller side, then by the point's mask, both decreasing (Python's sort of ``(side, mask)`` tuples,
which never tie: the masks differ). The Python function stays the reference: the tests compare the two on random
states (``tests/solvers/opt/test_disjunctions.py``), and ``LITTLESTONE_KERNEL=python`` runs it alone.

The walk is depth first over the blocks, with one buffer per depth for the concepts that avoid the partial point
(the side labelled 0) and those that meet its completion by every later block (an upper bound on the side labelled
1); a partial point is dropped as soon as either is below ``need``, as in Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def balanced_points(variables, starts, V, N, need):  # pragma: no cover (compiled; its Python twin is the oracle)
    """``variables[starts[b]:starts[b + 1]]`` are block b's variables, increasing; ``V`` the concepts (uint32
    masks), ``N`` their number. Returns (sides, masks): int64 arrays, the points' smaller sides and masks."""
    B = starts.size - 1
    one = np.uint32(1)
    rest = np.zeros(B + 1, np.uint32)
    for b in range(B - 1, -1, -1):
        m = np.uint32(0)
        for j in range(starts[b], starts[b + 1]):
            m |= one << np.uint32(variables[j])
        rest[b] = rest[b + 1] | m
    size = V.size
    buf0 = np.empty((B + 1, size), np.uint32)
    buf1 = np.empty((B + 1, size), np.uint32)
    len0 = np.zeros(B + 1, np.int64)
    len1 = np.zeros(B + 1, np.int64)
    point = np.zeros(B + 1, np.uint32)  # the partial point at each depth
    prefix = np.zeros(B + 1, np.uint32)  # the prefix of block b tried last
    nxt = np.zeros(B + 1, np.int64)  # the next count to try in block b
    buf0[0, :size] = V
    buf1[0, :size] = V
    len0[0] = size
    len1[0] = size
    cap = 64
    keys = np.empty(cap, np.int64)
    count = 0
    b = 0
    while b >= 0:
        if b == B:
            n0 = len0[B]
            side = min(n0, N - n0)
            if count == cap:
                cap *= 2
                grown = np.empty(cap, np.int64)
                grown[:count] = keys[:count]
                keys = grown
            keys[count] = (side << 32) | np.int64(point[B])
            count += 1
            b -= 1
            continue
        c = nxt[b]
        m_b = starts[b + 1] - starts[b]
        if c > m_b:
            b -= 1
            continue
        nxt[b] = c + 1
        if c == 0:
            P = np.uint32(0)
        else:
            P = prefix[b] | (one << np.uint32(variables[starts[b] + c - 1]))
        prefix[b] = P
        k0 = 0
        if c == 0:
            for i in range(len0[b]):
                buf0[b + 1, i] = buf0[b, i]
            k0 = len0[b]
        else:
            for i in range(len0[b]):
                x = buf0[b, i]
                if x & P == 0:
                    buf0[b + 1, k0] = x
                    k0 += 1
        if k0 < need:
            nxt[b] = m_b + 1  # a larger count leaves fewer
            continue
        A = point[b] | P
        meet = A | rest[b + 1]
        k1 = 0
        for i in range(len1[b]):
            x = buf1[b, i]
            if x & meet != 0:
                buf1[b + 1, k1] = x
                k1 += 1
        if k1 >= need:
            len0[b + 1] = k0
            len1[b + 1] = k1
            point[b + 1] = A
            b += 1
            nxt[b] = 0
            prefix[b] = 0
    keys = np.sort(keys[:count])[::-1]
    return keys >> 32, keys & np.int64(0xFFFFFFFF)
