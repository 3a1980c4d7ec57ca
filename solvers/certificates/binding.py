"""The class a certificate is for: what a certificate records of it (``"made_for"``), binding a certificate to it,
and matching the record against a class. Every rule of :mod:`solvers.certificates.rules` reads ``"made_for"``
through :func:`check_made_for` once, before its checker runs."""

from __future__ import annotations

import json
import re

from .._errors import ClassMismatch, TreeError
from ._reading import _show, whole

__all__ = ["made_for", "bind", "check_made_for", "MADE_FOR_KEYS"]


# ---------------------------------------------------------------------------------------- the class a certificate is for
def made_for(C, text: str | None = None) -> dict:
    """What a certificate records of the class it was made for: ``{"class": text, "fingerprint": ...,
    "family_fingerprint": ..., "concepts": |C|, "points": |X|}``. The fingerprint is the class protocol's
    ``C.fingerprint()``; ``family_fingerprint``, for a class a family built (``make``, or its implicit or
    evaluated form), is that of the family and its parameters, so that a certificate made on one form of a
    family's class matches the others (an :class:`~solvers.classes.evaluated.EvaluatedClass` and the
    matrix ``make`` lists). A class read from a file has none: the family a file names is not checked. The
    text, ``str(C)`` by default, is for people; the sizes are left out when the class has none.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> made_for(make("thresholds", N=7))  # doctest: +ELLIPSIS
    {'class': 'thresholds N=7', 'fingerprint': '...', 'family_fingerprint': '...', 'concepts': 8, 'points': 7}
    """
    out = {"class": text or str(C), "fingerprint": C.fingerprint()}
    family = _family_fingerprint(C)
    if family is not None:
        out["family_fingerprint"] = family
    for key, attr in (("concepts", "n_concepts"), ("points", "n_points")):
        value = getattr(C, attr, None)
        if isinstance(value, int):
            out[key] = value
    return out


def _family_fingerprint(C):
    """The fingerprint of the family and parameters of a class a family built, else None."""
    from ..classes.protocol import spec_fingerprint

    if getattr(C, "family", None) is None:
        return None
    if getattr(C, "finite", False) and not getattr(C, "made", False):
        return None  # a listed class not built by make (read from a file): its "family" is only a claim
    return spec_fingerprint({"family": C.family, "params": dict(C.params)})


def bind(cert: dict, C, text: str | None = None) -> dict:
    """``cert`` with ``"made_for"`` (:func:`made_for`) after its ``"kind"``: a certificate bound to its class.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> list(bind({"kind": "upper-bound", "bound": 3, "entries": []}, make("thresholds", N=7)))
    ['kind', 'made_for', 'bound', 'entries']
    """
    head = {"kind": cert["kind"]} if "kind" in cert else {}
    return {**head, "made_for": made_for(C, text), **{k: v for k, v in cert.items() if k not in ("kind", "made_for")}}


def _class_words(info: dict) -> str:
    """``thresholds N=7 (8 concepts, 7 points)`` (the sizes left out when the words already say them)."""
    text = str(info.get("class"))
    sizes = [f"{info[k]} {k if info[k] != 1 else k[:-1]}" for k in ("concepts", "points") if isinstance(info.get(k), int)]
    return text + (f" ({', '.join(sizes)})" if sizes and " concept" not in text else "")


def check_made_for(cert, C, text: str | None = None, *, what: str = "certificate") -> bool:
    """Check that ``cert`` was made for class ``C``: True when its ``"made_for"`` names C's fingerprint,
    False when it names none (a file written before certificates recorded their class: it is still
    checked, but its class could not be matched).

    Every field of ``"made_for"`` is derived again from C (:func:`_check_record`): the sizes must be C's, the
    fingerprint C's (or, matched by the family fingerprint, that of another form of C's family: its listed
    matrix, or its evaluated / implicit form), the family fingerprint that of C's family or of the family
    its words name, and the words those of C (``text``, ``str(C)`` or its family and parameters; a class
    read from a file may have been named by another path, ``matrix PATH``, which is not checked). A key it
    does not know is an error. A top-level ``"concepts"`` (the solver's certificates record |C|) must be
    C's too.

    Raises
    ------
    ClassMismatch
        One line, "this certificate was made for <its class>, not <C>" (``text``, default ``str(C)``,
        names C), when the fingerprints differ, or a field of ``"made_for"`` does not describe C;
        TreeError when ``"made_for"`` is malformed.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> cert = bind({"depth": 0, "root": None}, make("thresholds", N=15))
    >>> check_made_for(cert, make("thresholds", N=15)), check_made_for({"depth": 0, "root": None}, make("thresholds", N=7))
    (True, False)
    >>> check_made_for(cert, make("thresholds", N=7))
    Traceback (most recent call last):
    ...
    solvers._errors.ClassMismatch: this certificate was made for thresholds N=15 (16 concepts, 15 points), not thresholds N=7 (8 concepts, 7 points)
    >>> check_made_for({"kind": "upper-bound", "bound": 5, "concepts": 58, "entries": []}, make("thresholds", N=7))
    Traceback (most recent call last):
    ...
    solvers._errors.ClassMismatch: this certificate was made for a class of 58 concepts, not thresholds N=7 (8 concepts, 7 points)
    """
    if not isinstance(cert, dict):
        return False
    if "made_for" not in cert:  # an older file: its "concepts" may still tell
        _check_concepts(cert, C, text, what)
        return False
    info = cert["made_for"]
    if not isinstance(info, dict) or not isinstance(info.get("fingerprint"), str):
        raise TreeError(f'"made_for" must be {{"class": text, "fingerprint": hex digits, ...}}, got {_show(info)}')
    here = made_for(C, text)
    same = info["fingerprint"] == here["fingerprint"]
    if not same and not (info.get("family_fingerprint") is not None
                         and info.get("family_fingerprint") == here.get("family_fingerprint")):
        mine, theirs = _class_words(info), _class_words(here)
        if mine == theirs:  # the same words for two classes (a changed file): tell them apart by their fingerprints
            mine += f" [fingerprint {info['fingerprint'][:12]}]"
            theirs += f" [fingerprint {here['fingerprint'][:12]}]"
        raise ClassMismatch(f"this {what} was made for {mine}, not {theirs}")
    _check_record(info, C, text, here, same, what)
    _check_concepts(cert, C, text, what)
    return True


def _check_concepts(cert: dict, C, text, what: str) -> None:
    """A certificate's top-level ``"concepts"`` (the solver's certificates record |C|), when C is counted, must be
    |C|: ClassMismatch otherwise."""
    m, here = cert.get("concepts"), getattr(C, "n_concepts", None)
    if isinstance(m, int) and not isinstance(m, bool) and isinstance(here, int) and m != here:
        raise ClassMismatch(f"this {what} was made for a class of {m} concept{'s' if m != 1 else ''}, not "
                            f"{_class_words(made_for(C, text))}")


#: The fields of ``"made_for"`` (:func:`made_for`).
MADE_FOR_KEYS = ("class", "fingerprint", "family_fingerprint", "concepts", "points")
#: The most matrix entries listed to find the fingerprint of a family's listed form (:func:`_check_record`).
_LIST_AT_MOST = 1 << 22


def _check_record(info: dict, C, text, here: dict, same: bool, what: str) -> None:
    """Every field of a ``"made_for"`` that matched C (``same``: by its fingerprint, else by its family
    fingerprint), derived again from C; ClassMismatch (TreeError for a malformed field) naming the first
    that does not describe C."""
    from ..classes.protocol import spec_fingerprint

    unknown = [k for k in info if k not in MADE_FOR_KEYS]
    if unknown:
        raise TreeError(f'"made_for" has the field {json.dumps(unknown[0])[:60]}, which littlestone does not write; it '
                        f"records {', '.join(MADE_FOR_KEYS)}")
    for key in ("class", "family_fingerprint"):
        if key in info and not isinstance(info[key], str):
            raise TreeError(f'"made_for" {key} must be a string, got {_show(info[key])}')
    words = _class_words(here)
    for key in ("concepts", "points"):
        if key in info:
            n = whole(info[key], f'"made_for" {key}')
            if n != here.get(key):
                has = f"has {here[key]}" if key in here else "is not counted"
                raise ClassMismatch(f"this {what} records {n} {key} in \"made_for\", and {words} {has}")
    family = info.get("family_fingerprint")
    if family is not None and family != here.get("family_fingerprint"):
        # matched by the fingerprint itself: the family its words name (a class file's family, a parameter spelt
        # another way, as gamma=0.1 for "1/10") may stand for the family's own
        if not same or family != _words_fingerprint(info.get("class")):
            raise ClassMismatch(f"this {what} records the family fingerprint {family[:12]}, which is neither that "
                                f"of {words} nor of the family its words name ({_show(info.get('class'))})")
    if not same and info["fingerprint"] not in _forms(C, spec_fingerprint):
        raise ClassMismatch(f"this {what} records the fingerprint {info['fingerprint'][:12]}, which is that of no "
                            f"form of {words} (its listed matrix, its evaluated or implicit form)")
    if "class" in info and not _names(info["class"], C, text, family):
        raise ClassMismatch(f"this {what} names the class {json.dumps(info['class'])[:80]} in \"made_for\", not "
                            f"{words}")


def _family_words(C):
    """``FAMILY k=v ...`` for a class that names a family, else None."""
    family = getattr(C, "family", None)
    if family is None:
        return None
    return f"{family} {' '.join(f'{k}={v}' for k, v in dict(getattr(C, 'params', {}) or {}).items())}".strip()


def _words_fingerprint(words):
    """The family fingerprint of the class ``FAMILY k=v ...`` names (the values read as JSON numbers where
    they are ones), or None for other words."""
    from ..classes.protocol import spec_fingerprint

    if not isinstance(words, str) or not words.split():
        return None
    implicit = re.search(r" \(implicit: \d+ concepts on \{0,1\}\^\d+\)$", words)  # str() of an ImplicitFamily
    name, *items = (words[:implicit.start()] if implicit else words).split()
    params = {}
    for item in items:
        k, eq, v = item.partition("=")
        if not eq or not k:
            return None
        try:
            params[k] = json.loads(v) if v[:1] not in ("N", "I") else v  # NaN / Infinity are not values
        except ValueError:
            params[k] = v
    return spec_fingerprint({"family": name, "params": params})


def _implicit_count(words: str):
    """The concept count an ImplicitFamily's words say (``... (implicit: 11 concepts on {0,1}^4)``), else None."""
    found = re.search(r" \(implicit: (\d+) concepts on \{0,1\}\^\d+\)$", words)
    return int(found.group(1)) if found else None


def _names(words: str, C, text, family) -> bool:
    """Whether ``words`` (a "made_for" class) can name C: C's own words (``text``, ``str(C)``, its family and
    parameters); the words of the family a checked family fingerprint names; or, in a record without a family
    fingerprint (a class not built by a family), how a class read from a file is named (``matrix PATH``: the
    path is not checked, the fingerprint is) or a matrix class of C's sizes."""
    if words in (text, str(C), _family_words(C)):
        return True
    if family is not None:
        return _words_fingerprint(words) == family and _implicit_count(words) in (None, getattr(C, "n_concepts", None))
    plain = f"the matrix class ({getattr(C, 'n_concepts', None)} concepts x {getattr(C, 'n_points', None)} points)"
    return words.startswith("matrix ") or words == plain


def _forms(C, spec_fingerprint) -> set:
    """The fingerprints of the forms of C's family: its evaluated or implicit form (the fingerprint of the family
    and its parameters) and its listed matrix (``make``'s, when it has at most :data:`_LIST_AT_MOST` entries)."""
    family = getattr(C, "family", None)
    if family is None:
        return {C.fingerprint()}
    params = dict(C.params)
    out = {C.fingerprint(), spec_fingerprint({"family": family, "params": params})}
    m, n = getattr(C, "n_concepts", None), getattr(C, "n_points", None)
    if not getattr(C, "made", False) and isinstance(m, int) and isinstance(n, int) and m * n <= _LIST_AT_MOST:
        from ..classes.families import make

        try:
            out.add(make(family, **params).fingerprint())
        except (ValueError, TypeError, MemoryError):
            pass
    return out
