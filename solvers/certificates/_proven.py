"""What a checked certificate proved: the number a checker returns, with the claim it proves.

:class:`ProvenInt` and :class:`ProvenFraction` are the int and the Fraction the checkers of
:mod:`solvers.certificates` return (so that every caller's comparisons, arithmetic and JSON read the number as
before), carrying ``claim`` (``"Opt(C) >= 3"``, ``"RL(C) <= 11/8"``), ``rule`` and ``ok``.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["ProvenInt", "ProvenFraction"]


class ProvenInt(int):
    """A checked bound: the int a certificate proves, with what it proves (``claim``, e.g. ``"D_1(C) >= 2"``),
    the ``rule`` it was checked by and ``ok`` (always True: a failed check raises :class:`solvers.certificates.TreeError`). Returned
    by :func:`solvers.certificates.verify` and the checkers built on it; an int for every caller's arithmetic.

    Examples
    --------
    >>> p = ProvenInt(2, "D_1(C) >= 2", "error-tree")
    >>> p, p + 1, p.claim
    (ProvenInt(2, claim='D_1(C) >= 2', rule='error-tree'), 3, 'D_1(C) >= 2')
    """

    _relation = ""

    def __new__(cls, value=0, claim: str | None = None, rule: str | None = None):
        obj = super().__new__(cls, value)
        obj.claim = claim if claim is not None else f"Opt(C) {cls._relation} {int(value)}"
        obj.rule = rule
        return obj

    def __getnewargs__(self):
        return (int(self), self.claim, self.rule)

    def __repr__(self) -> str:
        return f"ProvenInt({int(self)}, claim={self.claim!r}, rule={self.rule!r})"

    ok = property(lambda self: True, doc="Always True: a certificate that fails raises TreeError instead.")

    def __str__(self) -> str:
        return str(int(self))

    def _repr_html_(self) -> str:
        from html import escape

        return f"<span>checked: <b>{escape(self.claim)}</b></span>"


class ProvenFraction(Fraction):
    """A checked value that is a fraction (the randomized game's RL(C), R_k(C)): the Fraction, with ``claim``,
    ``rule`` and ``ok`` as :class:`ProvenInt`.

    >>> ProvenFraction(Fraction(7, 4), "RL(C) >= 7/4", "randomized-tree") + 1
    Fraction(11, 4)
    """

    def __new__(cls, value=0, claim: str | None = None, rule: str | None = None):
        obj = super().__new__(cls, value)
        obj.claim = claim if claim is not None else str(value)
        obj.rule = rule
        return obj

    def __reduce__(self):
        return (type(self), (Fraction(self), self.claim, self.rule))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    ok = property(lambda self: True, doc="Always True: a certificate that fails raises TreeError instead.")

    def __repr__(self) -> str:
        return f"ProvenFraction({Fraction(self)!r}, claim={self.claim!r}, rule={self.rule!r})"
