"""Reading numbers exactly: the one parser of rational parameters and coordinates, and their text.

Learners read their parameters with :func:`as_rational` (``solvers.learners.base``); the class of margin
halfspaces reads gamma and R with it and its points' coordinates with :func:`as_coordinate`. A float is
read as the decimal it prints as (0.1 is 1/10); a string of a rational (``"3/5"``, ``"0.6"``) exactly.

Examples
--------
>>> as_rational("3/5", "gamma", "margin-halfspaces"), as_rational(0.1, "beta", "wm")
(Fraction(3, 5), Fraction(1, 10))
>>> as_coordinate(2, "coordinate"), as_coordinate(0.5, "coordinate"), as_coordinate("1/3", "coordinate")
(2, 0.5, Fraction(1, 3))
>>> num_text(Fraction(1, 10)), num_text(Fraction(1, 3)), point_text([1, Fraction(1, 2)])
('0.1', '1/3', '(1, 0.5)')
"""

from __future__ import annotations

import math
import operator
import re
from fractions import Fraction
from itertools import compress, repeat
from typing import Optional

import numpy as np

__all__ = ["as_rational", "huge_exponent", "as_coordinate", "not_ints", "num_text", "point_text", "json_type",
           "bit_positions"]


def as_rational(value, name: str, who: Optional[str] = None) -> Fraction:
    """An exact rational parameter: an int, a Fraction, a string ("3/2", "0.5") or a float (read as the
    decimal it prints as, so 0.1 means 1/10). ValueError (one line, prefixed ``who: ``) otherwise."""
    at = f"{who}: " if who else ""
    v = value
    if isinstance(v, (bool, np.bool_)):
        raise ValueError(f"{at}{name} must be a number, got {value!r}; write e.g. {name}=3/2")
    if isinstance(v, (int, np.integer)):
        return _in_range(Fraction(int(v)), value, name, at)
    if isinstance(v, Fraction):
        return _in_range(v, value, name, at)
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v):
            raise ValueError(f"{at}{name} must be finite, got {value!r}")
        return _in_range(Fraction(repr(float(v))), value, name, at)
    if isinstance(v, str):
        if huge_exponent(v):
            _out_of_range(value, name, at, large=_EXPONENT.search(v).group(1) != "-")
        try:
            q = Fraction(v.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{at}{name} must be a number such as 2, 1.5 or 3/2, got {value!r}") from None
        return _in_range(q, value, name, at)
    raise ValueError(f"{at}{name} must be a number, got {value!r}; write e.g. {name}=3/2")


#: A rational parameter's size is at most 10^_DIGITS, and a nonzero one's at least 10^-_DIGITS: within a float's
#: range, so that the bounds and scores computed from it can be printed (and no number takes long to build).
_DIGITS = 300
_EXPONENT = re.compile(r"[eE]([+-]?)0*(\d+)\s*$")


def huge_exponent(text: str) -> bool:
    """Whether the number ``text`` has an exponent past what a parameter may have (10^600 either way): such a
    number is refused before it is built (``Fraction("1e999999999")`` takes hours).

    >>> huge_exponent("1e999999999"), huge_exponent("2.5e-3"), huge_exponent("3/2")
    (True, False, False)
    """
    e = _EXPONENT.search(text)
    return e is not None and (len(e.group(2)) > 6 or int(e.group(2)) > 2 * _DIGITS)


def _in_range(q: Fraction, value, name: str, at: str) -> Fraction:
    """``q`` when 0 or of size within 10^-300 .. 10^300, else a one-line ValueError."""
    if q == 0 or Fraction(1, 10**_DIGITS) <= abs(q) <= 10**_DIGITS:
        return q
    _out_of_range(value, name, at, large=abs(q) > 1, q=q)


def _out_of_range(value, name: str, at: str, *, large: bool, q: Fraction | None = None):
    if isinstance(value, str) or q is None:
        text = f"{name}={str(value).strip()}"
    else:  # a number of hundreds of digits: its size only
        text = f"{name} (about 1e{round(math.log10(abs(q.numerator)) - math.log10(q.denominator))})"
    if large:
        raise ValueError(f"{at}{text} is too large; give a number of size at most 1e{_DIGITS}")
    raise ValueError(f"{at}{text} is too small; give 0 or a number of size at least 1e-{_DIGITS}")


def as_coordinate(value, name: str, who: Optional[str] = None):
    """A coordinate as a learner reads it: ints and finite floats as they are, anything else through
    :func:`as_rational` (strings of rationals become Fractions, so exact learners stay exact)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (float, np.floating)) and math.isfinite(value):
        return float(value)
    return as_rational(value, name, who)


def num_text(q: Fraction) -> str:
    """A Fraction as the shortest text: ``1``, ``0.1`` or ``1/3``."""
    if q.denominator == 1:
        return str(q.numerator)
    f = float(q)
    return repr(f) if Fraction(repr(f)) == q or Fraction(f) == q else f"{q.numerator}/{q.denominator}"


def point_text(x) -> str:
    """A point or value in messages: lists and tuples as ``(0, 1, 1)``, Fractions as numbers."""
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (list, tuple)):
        items = [num_text(v) if isinstance(v, Fraction) else repr(v) for v in x]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def not_ints(x) -> list:
    """The indices of the coordinates of ``x`` that are not ints (bools included), found in C: a
    point of high dimension is mostly int zeros, and a Python loop over them is the bulk of a check."""
    if _INT.issuperset(map(type, x)):
        return []
    return list(compress(range(len(x)), map(operator.is_not, map(type, x), repeat(int))))


_INT = frozenset({int})


def json_type(v) -> str:
    """The JSON name of a value's type, for messages: ``an object``, ``a list``, ``null``..."""
    return {dict: "an object", list: "a list", str: "a string", type(None): "null"}.get(type(v), type(v).__name__)


#: Bits past which :func:`bit_positions` reads an int through numpy (clearing its lowest bit one at a time costs a
#: pass over the whole int each time: quadratic in a million bits).
_WIDE_BITS = 4096


def bit_positions(v: int) -> list:
    """The positions of the 1 bits of ``v`` (>= 0), in increasing order: bit by bit for a narrow int, through numpy
    past :data:`_WIDE_BITS` bits (a bitset of concepts or points as a list of their indices)."""
    if v.bit_length() <= _WIDE_BITS:
        out = []
        while v:
            low = v & -v
            out.append(low.bit_length() - 1)
            v ^= low
        return out
    raw = np.frombuffer(v.to_bytes((v.bit_length() + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little")).tolist()
