"""Version spaces as bitsets of concepts, for the memoised searches of :mod:`.queries` and :mod:`.trees`: a class's
columns as bitsets (bit c: concept c is 1 there), its distinct splits, one point for each, and a look at the clock
and at Ctrl-C every 256 nodes."""

from __future__ import annotations

import time
from typing import Callable, Optional

import numpy as np

from .. import interrupts

__all__ = ["VersionSpaces", "Stop", "worst"]


class Stop(Exception):
    """The deadline passed."""


class VersionSpaces:
    """The bitsets of the class ``C``'s columns (``cols``, one a point), its distinct splits (``splits``: the columns
    not constant on C, once each), ``point[c]``: the first point whose column is c, and ``full``: every concept."""

    def __init__(self, C, deadline: Optional[float]):
        from . import column_bits

        self.M = np.asarray(C.matrix, dtype=np.uint8)
        self.m, self.n = self.M.shape
        self.full = (1 << self.m) - 1
        self.cols = column_bits(self.M)
        self.splits = list(dict.fromkeys(c for c in self.cols if c and c != self.full))
        self.point: dict = {}
        for x, c in enumerate(self.cols):
            self.point.setdefault(c, x)
        self.deadline = deadline
        self.ticks = 0

    def look(self) -> None:
        """Raise :class:`Stop` past the deadline (and KeyboardInterrupt at a Ctrl-C), every 256 calls."""
        self.ticks += 1
        if self.ticks >= 256:
            self.ticks = 0
            interrupts.check()
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise Stop

    def halves(self, V: int) -> list:
        """The distinct splits of V as (column, V_0, V_1), one per split (a column and its complement alike)."""
        out, seen = [], set()
        for c in self.splits:
            V1 = V & c
            if V1 and V1 != V and V1 not in seen:
                seen.update((V1, V & ~c))
                out.append((c, V & ~c, V1))
        return out

    def leaf(self, V: int) -> int:
        """A concept of V (its lowest)."""
        return (V & -V).bit_length() - 1


def worst(value: Callable[[int], int], replies, best: Optional[int]) -> int:
    """1 + the largest ``value`` of the ``replies`` (the largest first), stopping once it reaches ``best`` (a move
    that cannot beat the best so far)."""
    v = 0
    for r in sorted(replies, key=lambda r: -r.bit_count()):
        v = max(v, 1 + value(r))
        if best is not None and v >= best:
            break
    return v
