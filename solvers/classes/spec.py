"""The class spec codec: the JSON ``"class"`` of a witness to a class object and back.

A class spec is one of (formats of the witness, unchanged):

* ``{"family": NAME, "params": {...}}``: a family of :mod:`solvers.classes.families` built by ``make``;
  a {0,1}^n family with a literal form whose domain has more than 2^12 points is loaded as an
  :class:`~solvers.classes.implicit.ImplicitFamily` (``prefers_implicit``), listing the same concepts in
  the same order;
* ``{"family": "margin-halfspaces", "params": {"d": d, "gamma": g, "R": 1}}``: the implicit class
  :class:`~solvers.classes.margin.MarginHalfspaces`;
* ``{"matrix": [[0, 1, ...], ...], "points": [[...], ...], "names": [...]}``: a finite class from its 0/1
  matrix (``points`` and ``names`` optional).

Every error is a one-line ``ValueError``.

Examples
--------
>>> load_class({"family": "thresholds", "params": {"N": 3}})
<ConceptClass thresholds {'N': 3}: 4 concepts x 3 points>
>>> class_spec(load_class({"matrix": [[0, 1], [1, 1]]}))
{'matrix': [[0, 1], [1, 1]], 'points': [[0], [1]]}
>>> load_class({"family": "threshold", "params": {"N": 3}})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown family 'threshold'; known families: thresholds, ..., margin-halfspaces
"""

from __future__ import annotations

from ..messages import one_line
from ..numbers import json_type
from . import families
from .finite import ConceptClass
from .implicit import ImplicitFamily, prefers_implicit
from .protocol import ConceptClassProtocol

__all__ = ["load_class", "class_spec", "trusted"]


def load_class(spec: dict | ConceptClassProtocol) -> ConceptClassProtocol:
    """Build the class a spec names; a class object already built is returned as it is.

    Raises
    ------
    ValueError
        Unknown family, bad parameters, malformed matrix, or a spec of the wrong shape (one line).
    """
    if isinstance(spec, ConceptClassProtocol):
        return spec
    if not isinstance(spec, dict):
        raise ValueError(f'malformed witness: "class" must be an object, got {json_type(spec)}; '
                         'give {"family": NAME, "params": {...}} or {"matrix": [[...]], "points": [[...]]}')
    if "matrix" in spec:
        try:
            return ConceptClass.from_spec(spec)
        except TypeError as e:
            raise ValueError(f"bad class matrix: {one_line(e)}") from None
        except ValueError as e:
            text = one_line(e)
            raise ValueError(text if text.startswith("malformed witness") else f"bad class matrix: {text}") from None
    if "family" not in spec:
        raise ValueError('malformed witness: "class" needs a "family" (with "params") or a "matrix"')
    extra = sorted(set(spec) - {"family", "params"})
    if extra:
        raise ValueError(f'malformed witness: a family class has the keys "family" and "params"; '
                         f"unexpected {', '.join(map(repr, extra))}")
    name, params = spec["family"], spec.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ValueError(f'malformed witness: the class "params" must be an object, got {json_type(params)}')
    if isinstance(name, str) and name in families.ATTACK_ONLY:  # an infinite class: its module builds it
        return families.attack_only(name).CLASS.from_params(params)
    if not isinstance(name, str) or name not in families.FAMILIES:
        raise ValueError(f"unknown family {name!r}; known families: {', '.join(families.all_families())}")
    try:
        if prefers_implicit(name, params):  # {0,1}^n with n > 12: listed by its concepts only
            return ImplicitFamily(name, params)
        return families.make(name, **params)
    except (ValueError, TypeError) as e:
        raise ValueError(one_line(e)) from None


def class_spec(cls) -> dict:
    """The JSON class spec of a class for a witness: the family and all its parameters, or the matrix."""
    return load_class(cls).to_spec()


def trusted(cls):
    """A finite class whose family claim is checked: the family's own class (with its facts and words)
    when its matrix is that family's, else the plain matrix class (a matrix file can claim any family; a
    bound or a witness must not rest on the claim). Other classes are returned as they are."""
    if not isinstance(cls, ConceptClass) or cls.family is None or cls.made:
        return cls
    if cls.family in families.FAMILIES:
        try:
            made = families.make(cls.family, **dict(cls.params or {}))
        except (ValueError, TypeError, KeyError, OverflowError, MemoryError):
            made = None
        if made is not None and made == cls:
            return made if cls.names is None else ConceptClass(
                made.matrix, made.points, names=cls.names, family=made.family, params=made.params, facts=made.facts,
                words=made.words)
    return ConceptClass(cls.matrix, cls.points, names=cls.names)
