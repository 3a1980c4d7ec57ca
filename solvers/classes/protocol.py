"""The class protocol: what every concept class offers the solvers, the learners and the referee.

A concept class C is a set of 0/1 functions on a domain X ([Rivest94], section 2.1). The mistake-bound
game ([Mehta], Definition 1) needs of it only: the points an adversary may show, the version space
(the concepts consistent with the examples so far) and how a point splits it, ``split(V, x) = (V_x^0,
V_x^1)`` ([Rivest94]'s xi_0 and xi_1), and whether a sequence of labels is realizable. Three kinds implement
it:

* :class:`~solvers.classes.finite.ConceptClass`: finite, points and concepts listed (a 0/1 matrix);
* :class:`~solvers.classes.implicit.ImplicitFamily`: concepts listed, the 2^n points of {0,1}^n not;
* :class:`~solvers.classes.margin.MarginHalfspaces`: neither listed (directions w in R^d with a margin).

A version space is an int bitset over the concepts for the first two (bit c set while concept c is
consistent), and the tuple of examples so far for margin halfspaces.

Facts
-----
``facts`` is a read-only mapping saying what the concepts are, in the terms the learners' theorems need
(:func:`solvers.learners.base.class_facts` reads it); a plain matrix class has none:

==================  ==========================================================================
key                 meaning
==================  ==========================================================================
``"n"``             the number of boolean variables, for classes over {0,1}^n
``"d"``             the dimension, for classes over R^d
``"monotone_or"``   k: every concept is an OR of at most k of the n variables
``"or_of_literals"`` k: every concept is an OR of at most k literals
``"monotone_and"``  k: every concept is an AND of at most k of the variables
``"k_of_r"``        (k, r): every concept is "at least k of some r variables"
``"margin"``        (R, gamma): points have |x| <= R, the target has margin >= gamma (Fractions)
==================  ==========================================================================

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"

Examples
--------
>>> from solvers.classes import ConceptClass, ImplicitFamily, MarginHalfspaces, load_class
>>> from solvers.classes.families import make
>>> kinds = [make("monotone-disjunctions", n=3, k=1), ImplicitFamily("monotone-disjunctions", {"n": 13, "k": 1}),
...          MarginHalfspaces.from_params({"d": 2, "gamma": "1/2"})]
>>> all(isinstance(C, ConceptClassProtocol) for C in kinds)
True
>>> [(C.finite, C.n_concepts) for C in kinds]
[(True, 4), (False, 14), (False, None)]
>>> [load_class(C.to_spec()) == C for C in kinds]
[True, True, True]
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable, Mapping, Optional, Protocol, runtime_checkable

__all__ = ["ConceptClassProtocol", "FACT_KEYS", "spec_fingerprint"]

#: The keys a class's ``facts`` may have (see the module docstring).
FACT_KEYS = ("n", "d", "monotone_or", "or_of_literals", "monotone_and", "k_of_r", "margin")


@runtime_checkable
class ConceptClassProtocol(Protocol):
    """The protocol every concept class implements.

    Attributes
    ----------
    family : str or None
        The family the class was made from (None for a plain matrix class).
    params : dict
        The family's parameters, defaults included.
    facts : Mapping
        What the concepts are (keys :data:`FACT_KEYS`), read-only; empty when nothing is stated.
    finite : bool
        True when the points are listed (``points``); False for implicit and infinite classes, which
        offer ``proposals`` instead.
    n_concepts : int or None
        |C|, None when infinite.
    full : object
        The version space before any example (the bitset of all concepts for a listed class).

    Methods
    -------
    point(x)
        The canonical form of point ``x``; ValueError (one line) saying what is wrong with it.
    points
        (finite classes) Every point, in column order.
    proposals(rng, V=None, count=64)
        (implicit and infinite classes) About ``count`` informative points for version space V.
    split(V, x)
        (V_x^0, V_x^1): the version spaces the labels 0 and 1 of point ``x`` leave.
    label(c, x)
        The label concept ``c`` (an index; a direction w for margin halfspaces) gives ``x``.
    consistent(examples, V=None)
        The version space after the labelled examples (from V, default ``full``).
    check_target(examples, target=None, *, exact=False, errors=0)
        Check that the labels are realizable (by ``target`` when given) and return the target;
        ValueError (one line) naming the first example that breaks it. With ``errors=k`` the target may
        disagree with k labels (finite classes; the others refuse k > 0 in one line).
    concept_text(c)
        Concept ``c`` in words, or None.
    to_spec() / from_spec(spec)
        The JSON class spec of witnesses: ``{"family", "params"}`` or ``{"matrix", "points", "names"}``.
    fingerprint()
        The class's fingerprint, 32 hex digits: what result stores, certificates and witnesses name the
        class by. For a listed class, a hash of its points and of its concepts as a set (the sorted,
        deduplicated rows of its matrix), so that two listings of one class agree; for a class whose
        points or concepts are not listed, :func:`spec_fingerprint` of its family and parameters.
    __str__
        The class in messages: ``monotone-disjunctions n=4 k=2``.
    """

    family: Optional[str]
    params: dict
    finite: bool

    @property
    def facts(self) -> Mapping[str, Any]: ...

    @property
    def n_concepts(self) -> Optional[int]: ...

    @property
    def full(self) -> Any: ...

    def point(self, x) -> tuple: ...

    def split(self, V, x) -> tuple: ...

    def label(self, c, x) -> int: ...

    def consistent(self, examples: Iterable, V=None): ...

    def check_target(self, examples, target=None, *, exact: bool = False, errors: int = 0): ...

    def concept_text(self, c) -> Optional[str]: ...

    def to_spec(self) -> dict: ...

    def fingerprint(self) -> str: ...


def spec_fingerprint(spec: dict) -> str:
    """The fingerprint of a class known by its family and parameters (``to_spec()``): 32 hex digits of
    the SHA-256 of the spec as canonical JSON (keys sorted; numbers JSON does not know, as Fractions,
    as their text).

    Examples
    --------
    >>> a = spec_fingerprint({"family": "monotone-disjunctions", "params": {"n": 20, "k": 2}})
    >>> a == spec_fingerprint({"params": {"k": 2, "n": 20}, "family": "monotone-disjunctions"}), len(a)
    (True, 32)
    """
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]
