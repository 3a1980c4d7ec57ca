"""Literal forms: a {0,1}^n family's concepts as formulas over literals, listed without the domain.

They let a class be listed by its concepts for n far beyond enumeration (:mod:`solvers.classes.implicit`)
and word a concept (``x1 v ~x3``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ._common import _k, _popcount, _words

__all__ = ["LiteralForm", "LITERAL_FAMILIES", "MAX_LITERAL_CONCEPTS", "build_form"]

#: The largest class :func:`~solvers.classes.families.literal_form` enumerates
#: (its concepts, not its domain): 2^20 concepts.
MAX_LITERAL_CONCEPTS = 2**20


@dataclass(frozen=True, eq=False)
class LiteralForm:
    """A family's concepts as formulas over literals, in ``make``'s row order, without the domain.

    For {0,1}^n families the concepts can be listed long after the domain (2^n points) cannot: an OR
    of at most 2 of 32 variables is one of 529 formulas. Concept ``c`` reads a 0/1 vector x through
    its positive literals ``P_c`` (x_i) and negative ones ``N_c`` (not x_i), and ``rule``:

    * ``"or"``: some literal of c holds (monotone-disjunctions, disjunctions);
    * ``"and"``: every literal of c holds (monotone-conjunctions, conjunctions);
    * ``"xor"``: an odd number of the variables of P_c are on (parities);
    * ``"at-least"``: at least ``k`` of the variables of P_c are on (k-of-r).

    The constant rows that ``make`` appends are formulas too: disjunctions' constant 1 is the OR of
    every x_i and every not x_i, conjunctions' constant 0 the AND of them. Row ``c`` of
    ``make(family, **params)`` is concept ``c`` here (checked in tests/solvers/classes/families/test_registry.py for
    small n), so a concept index means the same concept in both forms.

    Attributes
    ----------
    family : str
    params : dict
        Every parameter, defaults included (as ``make`` records them).
    n : int
        The number of variables.
    rule : str
    k : int
        The count of the ``"at-least"`` rule (1 otherwise).
    pos, neg : numpy.ndarray of uint64, shape (concepts, ceil(n / 64))
        The literals as bit masks: variable i is bit i % 64 of word i // 64.

    Examples
    --------
    >>> from solvers.classes.families import literal_form, make
    >>> F = literal_form("monotone-disjunctions", n=3, k=1)
    >>> len(F), [F.name(c) for c in range(len(F))]
    (4, ['false', 'x2', 'x1', 'x0'])
    >>> F.labels((0, 1, 0)).astype(int).tolist()        # the column of point (0, 1, 0)
    [0, 0, 1, 0]
    >>> bool((F.matrix([(0, 1, 0), (1, 1, 1)]) == make("monotone-disjunctions", n=3, k=1).matrix[:, [2, 7]]).all())
    True
    """

    family: str
    params: dict
    n: int
    rule: str
    k: int
    pos: np.ndarray
    neg: np.ndarray

    def __len__(self) -> int:
        return self.pos.shape[0]

    def pack(self, x) -> np.ndarray:
        """A 0/1 vector of length n as its words (uint64, variable i at bit i % 64 of word i // 64)."""
        return _pack_rows(np.asarray(x, dtype=bool).reshape(1, self.n))[0]

    def labels(self, x) -> np.ndarray:
        """The labels every concept gives the 0/1 vector ``x``: a bool array, one per concept."""
        xw = self.pack(x)
        if self.rule == "or":
            hit = (self.pos & xw) | (self.neg & (_full_words(self.n) & ~xw))
            return hit.any(axis=1)
        if self.rule == "and":
            miss = (self.pos & (_full_words(self.n) & ~xw)) | (self.neg & xw)
            return ~miss.any(axis=1)
        on = _popcount(self.pos & xw).sum(axis=1)
        return (on & 1).astype(bool) if self.rule == "xor" else on >= self.k

    def matrix(self, points) -> np.ndarray:
        """The bool matrix (concepts, points) on the given 0/1 vectors."""
        return np.stack([self.labels(x) for x in points], axis=1)

    def literals(self, c: int) -> tuple[list[int], list[int]]:
        """(P_c, N_c): the variables of concept c's positive and negative literals."""
        return _bits(self.pos[c], self.n), _bits(self.neg[c], self.n)

    def name(self, c: int) -> str:
        """Concept c as a formula over x0 .. x{n-1} (x_i is coordinate i): ``x0 v ~x3``, ``x1 ^ x2``,
        ``x0 + x4 (mod 2)``, ``at least 2 of {x0, x1, x5}``; a constant is ``true`` or ``false``."""
        P, N = self.literals(c)
        lits = [f"~x{i}" if i in N else f"x{i}" for i in sorted(P + N)]
        if self.rule == "or":
            return "true" if set(P) & set(N) else (" v ".join(lits) or "false")
        if self.rule == "and":
            return "false" if set(P) & set(N) else (" ^ ".join(lits) or "true")
        if self.rule == "xor":
            return f"{' + '.join(lits)} (mod 2)" if lits else "false"
        return f"at least {self.k} of {{{', '.join(lits)}}}"



def build_form(name: str, full: dict) -> LiteralForm:
    """The literal form of family ``name`` with the (checked, complete) parameters ``full``."""
    n = full["n"]
    rule, k, letters, most, extra = LITERAL_FAMILIES[name](full)
    words = _words(n, letters, most)
    if name == "k-of-r":
        words = words[np.count_nonzero(words, axis=1) == full["r"]]
    pos, neg = words == 1, words == 2
    if extra:  # the constant row make appends: every literal at once
        pos = np.vstack([pos, np.ones((1, n), dtype=bool)])
        neg = np.vstack([neg, np.ones((1, n), dtype=bool)])
    return LiteralForm(name, full, n, rule, k, _pack_rows(pos), _pack_rows(neg))


# family -> params -> (rule, k, letters per variable, most non-zero letters, constant row appended)
LITERAL_FAMILIES: dict[str, Callable] = {
    "monotone-disjunctions": lambda q: ("or", 1, 2, _k(q), False),
    "disjunctions": lambda q: ("or", 1, 3, _k(q), _k(q) >= 1),
    "monotone-conjunctions": lambda q: ("and", 1, 2, q["n"], False),
    "conjunctions": lambda q: ("and", 1, 3, q["n"], bool(q["false"])),
    "parities": lambda q: ("xor", 1, 2, q["n"], False),
    "k-of-r": lambda q: ("at-least", q["k"], 2, q["r"], False),
}


def _pack_rows(bits: np.ndarray) -> np.ndarray:
    """Rows of bools (m, n) as uint64 words (m, ceil(n / 64)), column i at bit i % 64 of word i // 64."""
    m, n = bits.shape
    width = max(1, -(-n // 64))
    packed = np.packbits(bits, axis=1, bitorder="little")
    out = np.zeros((m, width * 8), dtype=np.uint8)
    out[:, :packed.shape[1]] = packed
    return out.view("<u8").astype(np.uint64)


def _full_words(n: int) -> np.ndarray:
    return _pack_rows(np.ones((1, n), dtype=bool))[0]


def _bits(words: np.ndarray, n: int) -> list[int]:
    return [i for i in range(n) if int(words[i // 64]) >> (i % 64) & 1]


