"""The protocol every online learner follows, and the proven mistake bound each one states.

The protocol is river's, with the two things the adversary needs added (docs/guide/learners.md):

* ``predict_one(x) -> 0 | 1`` -- the prediction on point ``x`` (an int tuple or a 1-d array);
* ``learn_one(x, y)`` -- called every round with the true label ``y`` in {0, 1}; the learner decides
  whether to update (a *conservative* learner [OnlineAlgs] changes its hypothesis only after a mistake);
* ``state_key()`` -- a hashable, exact summary of everything that decides the learner's future
  behaviour: two learners of the same type, built with the same parameters (and class), whose keys are
  equal predict and update identically from then on. Weights are kept exact (ints, Fractions) so that
  equal keys mean equal states; randomized learners include the state of their random generator;
* ``copy.deepcopy(learner)`` -- an independent learner (caches and immutable data may be shared);
* ``mistake_bound(**target_params) -> Bound`` -- the bound proven in the lecture notes, with its formula
  and the lecture notes it comes from;
* ``get_params() -> dict`` -- the JSON-able constructor parameters (the concept class excluded), so
  that ``make_learner(learner.name, learner.get_params(), C)`` rebuilds it;
* the class attribute ``name`` -- the learner's CLI name.

Declarations, on the learner class (defaults on :class:`OnlineLearner`), let the adversary
(``adversary/``) treat every learner alike, without knowing its name; each is checked against the
learner's own behaviour by :func:`solvers.learners.check_learner` (run it on a learner you bring):

* ``randomized`` (default False) -- True when the predictions are random draws (the learner's own
  generator is part of its state): its bound bounds the *expected* mistakes, and the adversary is
  charged ``probability``'s expectation, not one run's coin flips;
* ``probability(x) -> Fraction`` -- the exact probability that ``predict_one(x)`` is 1 in the current
  state, over this round's draw (the default: the prediction itself, 0 or 1). The learners here draw
  from a distribution that depends on the examples so far and never on their own coins, so an adversary
  that knows the learner gains nothing by watching its predictions: its best is a fixed sequence, whose
  expected mistakes are sum_t P(prediction_t != y_t), computed exactly from these probabilities;
* ``distribution_key()`` -- a hashable key of everything that decides ``probability`` from now on
  (default: ``state_key()``): two learners of the same type and parameters with equal keys have equal
  probabilities on every point, and still do after the same examples. It leaves out the generator (a
  randomized learner's ``state_key`` has it), so the exact adversary's positions repeat;
* ``max_errors`` (attribute or property, default None) -- the most label errors the learner accepts:
  None when ``learn_one`` takes any labels, k when it refuses (ValueError) a label sequence that no
  concept of its class matches within k errors (0: a version-space learner, which keeps only the
  concepts consistent with every label; SOA and RandSOA built with ``errors=k``: k);
* ``conservative`` (attribute or property, default False) -- True when a correct prediction never
  changes the state ([OnlineAlgs]'s conservative algorithms): then only mistakes move the game on;
* ``symmetric_variables`` (default False) -- True when the points are length-n vectors, ``state_key()``
  is a tuple with one entry per variable (entry i belongs to x_i) and the learner treats the variables
  alike: permuting the coordinates of the state and of every point together permutes nothing else
  (Winnow's weights all start at 1, the Perceptron's at 0);
* ``predict_many(P)`` -- the predictions on many points at once (a numpy 0/1 array), equal to
  ``predict_one`` point by point; the default loops over ``predict_one``, the linear-threshold learners
  override it with one exact integer matrix product (``batch_predictions = True``);
* ``bound_on(cls, errors=0) -> Bound`` -- the proven bound on the class ``cls`` (its facts, read through
  :func:`class_facts`) when the labels may disagree with the best concept ``errors`` times (k label
  errors, :mod:`solvers.game_rules`), or ``Bound(math.inf, "no bound proven for ...: reason", source)``; for
  a randomized learner a bound on the expected mistakes;
* ``remaining_bound(V) -> number | None`` -- a bound on the (expected) mistakes still to come from the
  current state when the version space (a bitset over the concepts of the learner's class) is V, or,
  with label errors, the state is ``V = (A_0, ..., A_k)`` of :mod:`solvers.game_rules` (A_j: the concepts
  that may still disagree with j more labels); None when none is known: Halving floor(log2 |V|), CON
  |V| - 1, SOA Opt(V) (D_k), weighted majority from its weights, randomized halving H_|V| - 1, RandSOA
  RL(V) (R_k);
* ``bound_formula``, ``bound_source``, ``bound_params`` -- the proven bound as the listings show it,
  the notes it comes from, and the keyword arguments ``mistake_bound`` takes; with ``summary``,
  ``needs_class``, ``dim_param`` and ``extra`` they are the learner's row in the registry
  (:mod:`solvers.learners`, ``littlestone learners``, the table of docs/guide/learners.md), written only here.

Labels are 0/1 everywhere; anything else raises ``ValueError``.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994),
   section 2.2 (the mistake-bound model).
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake
   Bound Model", Definition 1.
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow),
   slide "Conservative Online Algorithm".
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real
from typing import TYPE_CHECKING, Any, Hashable, Protocol, Sequence, Union, runtime_checkable

import numpy as np

from ..numbers import as_rational
from ..seeds import SEEDS, Citation, check_source, cite

if TYPE_CHECKING:
    from ..classes.protocol import ConceptClassProtocol

__all__ = [
    "SEEDS",
    "cite",
    "Citation",
    "Bound",
    "Lemma",
    "KINDS",
    "Learner",
    "OnlineLearner",
    "VersionSpaceLearner",
    "class_facts",
    "errors_text",
    "check_label",
    "binary_vector",
    "real_vector",
    "as_int",
    "as_rational",
    "as_bool",
    "json_number",
    "number",
    "lg",
    "rng_key",
    "linear_signs",
    "Point",
    "Points",
    "VersionSpace",
    "IntParam",
    "RationalParam",
]

#: A point as the learners take it: a tuple (or list) of numbers, a 1-d numpy array, or an int (the point
#: ``(j,)`` of a class built from a bare matrix).
Point = Union[Sequence[Union[int, float, Fraction]], np.ndarray, int]
#: Many points at once (``predict_many``): a sequence of points, or a 2-d array with one point per row.
Points = Union[Sequence[Point], np.ndarray]
#: A version space as ``remaining_bound`` is given it: a bitset over the concepts of the learner's class, or,
#: with label errors, the levels ``(A_0, ..., A_k)`` of :mod:`solvers.game_rules` (a bitset each).
VersionSpace = Union[int, tuple[int, ...]]
#: An integer parameter: an int, or its text as the command line gives it (:func:`as_int` reads both).
IntParam = Union[int, str]
#: A rational parameter: an int, a Fraction, a float or a string such as "3/2" (:func:`as_rational`).
RationalParam = Union[int, Fraction, float, str]

# SEEDS: the five lecture notes' citations (solvers.seeds); every bound's ``source`` starts with one.


@dataclass(frozen=True)
class Bound:
    """A proven mistake bound: its value, its formula and the lecture notes that state it.

    Parameters
    ----------
    value : int, Fraction, float or math.inf
        The number the formula gives for the parameters passed to ``mistake_bound`` (an int when
        the value is a whole number; a Fraction when it is an exact expectation, e.g. H_|C| - 1).
        Mistakes are whole numbers, so a run respects the bound iff ``mistakes <= value``
        (equivalently ``mistakes <= floor(value)``); expected mistakes are compared as they are.
    formula : str
        The formula, in the seed's letters, with anything derived here (rather than quoted) said so.
    source : str or Citation
        The citation of the work that proves it, with the section where known: for the learners shipped
        here one of :data:`SEEDS`, optionally followed by ", section ..." (:func:`solvers.seeds.cite`
        builds it); for a learner you bring, your own (free text or a :class:`~solvers.seeds.Citation`,
        kept as its text). A blank source or a file name is refused.

    Examples
    --------
    >>> b = Bound(3, "floor(log2 |C|)", cite("OnlineAlgs", 'slide "HAL - halving algorithm"'))
    >>> b.holds(3), b.holds(4)
    (True, False)
    >>> b.source
    '"Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow), slide "HAL - halving algorithm"'
    >>> Bound(1, "k", Citation("my own paper (2026), Lemma 1")).source
    'my own paper (2026), Lemma 1'
    >>> Bound(1, "x", "")
    Traceback (most recent call last):
    ...
    ValueError: a bound's source is blank; cite the work that proves the bound in words (e.g. "my own paper (2026), Lemma 1"), a solvers.seeds.Citation, or the lecture notes with solvers.seeds.cite(KEY, WHERE)
    """

    value: float
    formula: str
    source: str

    def __post_init__(self):
        if isinstance(self.value, bool) or not isinstance(self.value, Real):
            raise ValueError(f"a bound's value must be a number or math.inf, not {self.value!r}")
        if not isinstance(self.formula, str) or not self.formula.strip():
            raise ValueError("a bound needs a non-empty formula")
        object.__setattr__(self, "source", check_source(self.source, "a bound's source"))

    @property
    def finite(self) -> bool:
        return not math.isinf(self.value)

    def holds(self, mistakes: int) -> bool:
        """True iff ``mistakes`` does not exceed the bound."""
        return mistakes <= self.value

    def to_json(self) -> dict:
        """``{"value", "formula", "source"}``, with an infinite value written as None (JSON has no inf);
        an exact fraction as a float ``value`` and the string ``"fraction": "p/q"`` beside it.

        >>> Bound(Fraction(5, 6), "H_3 - 1", cite("Rivest94")).to_json()["fraction"]
        '5/6'
        """
        v = self.value
        if isinstance(v, Fraction):
            if v.denominator != 1:
                return {"value": float(v), "fraction": f"{v.numerator}/{v.denominator}", "formula": self.formula,
                        "source": self.source}
            v = int(v)
        return {"value": v if self.finite else None, "formula": self.formula, "source": self.source}


#: The kinds of mistakes the notes' proofs count apart: a false negative (label 1, predicted 0; Winnow's
#: promotions, u) and a false positive (label 0, predicted 1; its demotions or eliminations, v).
KINDS = ("false_negative", "false_positive")


@dataclass(frozen=True)
class Lemma:
    """A bound the notes prove on one kind of mistake alone, as a step of a learner's mistake bound:
    ``count[kind] <= constant + per_other * count[the other kind]`` (Winnow's u <= r(1 + lg n), or its
    v <= n/Theta + u).

    Parameters
    ----------
    kind : ``"false_negative"`` or ``"false_positive"``
    constant, per_other : number
        The bound's constant and its coefficient on the other kind's count (0 when it bounds the kind alone).
    formula : str
        The lemma in the notes' letters (u: false negatives, v: false positives), with its numbers.
    source : str
        The citation (:func:`solvers.seeds.cite`).

    Examples
    --------
    >>> L = Lemma("false_positive", 2, 2, "v <= 2 + 2u", cite("15-859B", 'section "Winnow algorithm"'))
    >>> L.value({"false_negative": 3, "false_positive": 7})
    8
    >>> L.verdict({"false_negative": 3, "false_positive": 8})
    'tight'
    """

    kind: str
    constant: Real
    per_other: Real
    formula: str
    source: str

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"a lemma bounds one of {', '.join(KINDS)}, not {self.kind!r}")
        object.__setattr__(self, "source", check_source(self.source, "a lemma's source"))

    @property
    def other(self) -> str:
        return KINDS[1 - KINDS.index(self.kind)]

    def value(self, counts: dict):
        """The bound on ``counts[kind]`` given the other kind's count: exact (an int or a Fraction) when the
        constant and the coefficient are rationals, a float when the constant is one (an irrational lg n)."""
        if isinstance(self.constant, float) or isinstance(self.per_other, float):
            v = self.constant + self.per_other * counts[self.other]
            return int(v) if float(v).is_integer() else v
        v = Fraction(self.constant) + Fraction(self.per_other) * Fraction(counts[self.other])
        return int(v) if v.denominator == 1 else v

    def verdict(self, counts: dict, proven: bool = False) -> str:
        """``violated`` (the count exceeds the bound), ``tight`` (it meets floor(bound)), ``loose`` (below, and
        ``proven`` says this kind's count is the worst case; only for a lemma on its kind alone: one that also
        counts the other kind could be met by another sequence with fewer of those) or ``below``."""
        b, c = self.value(counts), counts[self.kind]
        if c > b:
            return "violated"
        if c == math.floor(b):
            return "tight"
        return "loose" if proven and self.per_other == 0 else "below"

    def to_json(self, counts: dict | None = None, proven: bool = False) -> dict:
        """``{"kind", "formula", "source"}``, with ``"bound"``, ``"count"`` and ``"verdict"`` given the counts."""
        out = {"kind": self.kind, "formula": self.formula, "source": self.source}
        if counts is not None:
            b = self.value(counts)
            out.update(bound=float(b) if isinstance(b, Fraction) else b, count=counts[self.kind],
                       verdict=self.verdict(counts, proven))
            if isinstance(b, Fraction):
                out["bound_fraction"] = f"{b.numerator}/{b.denominator}"
        return out


@runtime_checkable
class Learner(Protocol):
    """What the referee and the adversaries rely on (see the module docstring)."""

    name: str

    def predict_one(self, x: Point) -> int: ...

    def learn_one(self, x: Point, y: int) -> None: ...

    def state_key(self) -> Hashable: ...

    def mistake_bound(self, **target_params: Any) -> Bound: ...

    def get_params(self) -> dict: ...


class OnlineLearner:
    """Base class of the learners in this package, with the declarations' defaults.

    Subclasses keep their whole state in immutable values (ints, tuples, Fractions) that an update
    *replaces*, never mutates; so a deep copy only has to copy the instance dict, plus the attributes
    named in ``_deep_copied`` (a random generator). Shared read-only data (a concept class, an expert
    matrix) is never copied.
    """

    name: str = ""
    _deep_copied: tuple = ()

    # ------------------------------------------------------------------ declarations (module docstring)
    #: The predictions are random draws; the bound bounds an expectation.
    randomized: bool = False
    #: The most label errors ``learn_one`` accepts (None: any labels); see the module docstring.
    max_errors: int | None = None
    #: A correct prediction never changes the state [OnlineAlgs].
    conservative: bool = False
    #: ``state_key()`` is one entry per variable and the rule treats the variables alike.
    symmetric_variables: bool = False
    #: ``predict_many`` is one exact matrix product (not the default loop over ``predict_one``).
    batch_predictions: bool = False
    #: For a homogeneous linear learner that updates as the Perceptron (w <- w + y x): its prediction
    #: when <w, x> = 0 (the geometric adversary plays on it); None for any other learner.
    zero_score_prediction: int | None = None
    #: Built from a ConceptClass (its rows are the concepts, or the experts).
    needs_class: bool = False
    #: The dimension parameter of a vector learner ("n" or "d"), taken from the class's points when not given.
    dim_param: str | None = None
    #: The proven bound as the listings show it, and the notes it comes from (:func:`cite`).
    bound_formula: str = ""
    bound_source: str = ""
    #: The keyword arguments ``mistake_bound`` takes (the target's parameters).
    bound_params: tuple = ()
    #: One line for listings.
    summary: str = ""
    #: The pip extra whose library of the same name the learner needs (the adapters), else None.
    extra: str | None = None
    #: A ``time.monotonic()`` instant past which a learner that runs an exact search of its own (SOA,
    #: RandSOA: Opt or RL of version spaces) stops it with :class:`solvers.opt.SearchStop`; None: no limit.
    #: Set by :meth:`set_deadline` (an attack passes its own deadline); copies share it.
    deadline: float | None = None

    def predict_one(self, x: Point) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def learn_one(self, x: Point, y: int) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def state_key(self) -> Hashable:  # pragma: no cover - abstract
        raise NotImplementedError

    def mistake_bound(self, **target_params: Any) -> Bound:  # pragma: no cover - abstract
        raise NotImplementedError

    def get_params(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def probability(self, x: Point) -> Fraction:
        """P(``predict_one(x)`` = 1) in this state, exactly; a deterministic learner's is its prediction."""
        return Fraction(int(self.predict_one(x)))

    def distribution_key(self) -> Hashable:
        """What decides ``probability`` from now on (module docstring); by default ``state_key()``."""
        return self.state_key()

    def predict_many(self, P: Points) -> np.ndarray:
        """The predictions on the points ``P`` (a sequence of points, or a 2-d array of them, one per row),
        as a numpy int8 array; the default asks ``predict_one`` point by point."""
        return np.fromiter((self.predict_one(x) for x in P), dtype=np.int8, count=len(P))

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """The proven bound on the class ``cls`` (read through :func:`class_facts`) with ``errors`` label
        errors; this default proves none.

        Learners override it for the classes (and the label errors) their theorems cover and fall back on
        this method."""
        facts = class_facts(cls)
        if errors:
            return self.no_bound(cls, f"its bound ({self.bound_formula}) is proven for labels that some concept "
                                      "of the class gives", errors)
        if "margin" in facts:
            return self.no_bound(cls, "the lecture notes bound only the Perceptron on margin halfspaces")
        return self.no_bound(cls, f"its bound ({self.bound_formula}) is proven for other classes")

    def lemmas_on(self, cls: ConceptClassProtocol, errors: int = 0) -> tuple[Lemma, ...]:
        """The :class:`Lemma` s of this learner's bound on ``cls``: the notes' bounds on one kind of mistake
        alone, where its proof has them (Winnow's u and v, ELIM's single kind); none by default."""
        return ()

    def no_bound(self, cls: ConceptClassProtocol, reason: str, errors: int = 0) -> Bound:
        """``Bound(math.inf, "no bound proven for <name> on <class>[ with k label errors]: <reason>",
        bound_source)``."""
        with_errors = f" with {errors_text(errors)}" if errors else ""
        return Bound(math.inf, f"no bound proven for {self.name} on {cls}{with_errors}: {reason}", self.bound_source)

    @classmethod
    def params_from_class(cls_, cls: ConceptClassProtocol) -> dict:
        """Constructor parameters (besides the dimension) that the class ``cls`` determines; none by default."""
        return {}

    def set_deadline(self, deadline: float | None) -> None:
        """Stop the learner's own exact search (if it runs one) at ``deadline``, a ``time.monotonic()``
        instant, with :class:`solvers.opt.SearchStop` from ``predict_one``, ``mistake_bound`` and
        ``remaining_bound``; None lifts the limit. A learner without a search of its own ignores it."""
        self.deadline = deadline

    def remaining_bound(self, V: VersionSpace) -> int | float | Fraction | None:
        """An upper bound on the (expected) mistakes still to come from this state when the version space
        is V (a bitset over the concepts of the learner's class; with label errors the tuple of levels of
        :mod:`solvers.game_rules`), or None when none is known (the default)."""
        return None

    def __deepcopy__(self, memo):
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(self.__dict__)
        for attr in self._deep_copied:
            setattr(new, attr, copy.deepcopy(getattr(self, attr), memo))
        return new

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"


class VersionSpaceLearner(OnlineLearner):
    """A learner over a finite class that keeps the version space V ([Rivest94], section 2.3.1).

    ``V`` is a bitset over the concepts of ``C`` (bit c set while concept c agrees with every example
    so far); ``learn_one`` keeps the concepts that agree with the label. A label that no concept of
    ``C`` can give (the sequence is not realizable) raises ``ValueError`` and leaves the learner as it
    was. The state key is ``V``: these learners' predictions depend on nothing else (randomized ones add
    their generator's state). Halving, CON, randomized halving and SOA are built on it; their bound on
    any class is their bound on their own class.
    """

    needs_class = True
    max_errors = 0  # a label no concept of C gives empties V: refused

    def __init__(self, C):
        from ..classes.finite import ConceptClass

        if not isinstance(C, ConceptClass):
            raise ValueError(f"{self.name} is built from a ConceptClass, not {type(C).__name__}; pass a class")
        self.C = C
        self.V = C.full

    def _column(self, x) -> int:
        return self.C.index_of(x)

    def learn_one(self, x: Point, y: int) -> None:
        y = check_label(y)
        V0, V1 = self.C.split_index(self.V, self._column(x))
        V = V1 if y else V0
        if not V:
            raise ValueError(
                f"no concept of the class labels the examples so far and ({x}, {y}); the sequence is not realizable"
            )
        self.V = V
        self._after_update()

    def _after_update(self) -> None:
        """Hook run after every accepted example (randomized halving draws its next hypothesis)."""

    def state_key(self) -> Hashable:
        return self.V

    def get_params(self) -> dict:
        return {}

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """The bound on the learner's own class (``mistake_bound()``; for a randomized one, on the
        expected mistakes); none with label errors, which these learners refuse."""
        if errors:
            return super().bound_on(cls, errors)
        return self.mistake_bound()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<{len(self.C)} concepts x {self.C.n_points} points>)"


# ---------------------------------------------------------------------------------------- class facts
def class_facts(cls) -> dict:
    """What the concepts of ``cls`` are, in the terms the learners' theorems need (the one place the
    learners read a class's facts; keys in ``bound_on`` of each learner):

    ``n`` (variables of {0,1}^n), ``d`` (dimension of R^d), ``monotone_or`` k (every concept an OR of at
    most k variables), ``or_of_literals`` k (an OR of at most k literals), ``monotone_and`` k (an AND of
    at most k variables), ``k_of_r`` (k, r) ("at least k of some r variables"), ``margin`` (R, gamma),
    ``declared_margin`` gamma (declared by the user for a class read from a file). A class read from a file
    gets what its points show (:func:`solvers.classes.facts.derived_facts`) and what the user declared.

    >>> from solvers.classes.families import make
    >>> class_facts(make("k-of-r", n=4, r=2, k=1))["monotone_or"]
    2
    """
    derived = getattr(cls, "derived_facts", None)
    if callable(derived):  # a class read from a file: what its points show (solvers.classes.facts)
        return derived()
    return dict(getattr(cls, "facts", None) or {})


# ---------------------------------------------------------------------------------------- helpers
def errors_text(k: int) -> str:
    """``1 label error``, ``2 label errors``."""
    return f"{k} label error{'s' if k != 1 else ''}"


def check_label(y) -> int:
    """``y`` as the int 0 or 1; anything else (2, -1, 0.5, "1", True, None) raises ``ValueError``.

    A numpy integer or numpy bool (an entry of a class's matrix) counts as its 0/1 value; Python's
    True and False do not.
    """
    if isinstance(y, bool) or not isinstance(y, (int, np.integer, np.bool_)) or y not in (0, 1):
        raise ValueError(f"label {y!r} is not 0 or 1; labels are the ints 0 and 1")
    return int(y)


def _items(x, who: str) -> list:
    if isinstance(x, np.ndarray):
        if x.ndim != 1:
            raise ValueError(f"{who}: a point must be 1-d, got an array of shape {x.shape}")
        return x.tolist()
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        return [int(x)]
    try:
        return list(x)
    except TypeError:
        raise ValueError(f"{who}: point {x!r} is not a tuple of numbers") from None


def binary_vector(x, n: int, who: str) -> tuple[int, ...]:
    """``x`` as a tuple of n ints in {0, 1} (from a tuple, a list or a 1-d array)."""
    items = _items(x, who)
    if len(items) != n:
        raise ValueError(f"{who}: point {tuple(items)} has {len(items)} coordinates; this learner takes n = {n}")
    out = []
    for v in items:
        if isinstance(v, (str, bytes)) or v is None or not (v == 0 or v == 1):
            raise ValueError(f"{who}: point {tuple(items)} has the coordinate {v!r}; coordinates must be 0 or 1")
        out.append(1 if v == 1 else 0)
    return tuple(out)


_EXACT_TYPES = frozenset({int, Fraction})


def real_vector(x, d: int, who: str) -> tuple:
    """``x`` as a tuple of d exact numbers: ints and Fractions stay exact, floats stay floats."""
    if type(x) is tuple and len(x) == d and _EXACT_TYPES.issuperset(map(type, x)):
        return x  # hot path of the Perceptron in high dimension: already a tuple of ints and Fractions
    items = _items(x, who)
    if len(items) != d:
        raise ValueError(f"{who}: point {tuple(items)} has {len(items)} coordinates; this learner takes d = {d}")
    out = []
    for v in items:
        if isinstance(v, (bool, np.bool_)):
            v = int(v)
        elif isinstance(v, np.integer):
            v = int(v)
        elif isinstance(v, np.floating):
            v = float(v)
        if not isinstance(v, (int, Fraction, float)) or (isinstance(v, float) and not math.isfinite(v)):
            raise ValueError(f"{who}: point {tuple(items)} has the coordinate {v!r}; coordinates must be finite numbers")
        out.append(v)
    return tuple(out)


def as_int(value, name: str, who: str, *, low: int | None = None, high: int | None = None) -> int:
    """An integer parameter (an int, or a string of one, as the CLI gives it), checked against a range."""
    v = value
    if isinstance(v, str):
        try:
            v = int(v.strip())
        except ValueError:
            raise ValueError(f"{who}: {name} must be an integer, got {value!r}; write e.g. {name}=4") from None
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        else:
            raise ValueError(f"{who}: {name} must be an integer, got {value!r}; write e.g. {name}=4")
    v = int(v)
    if low is not None and v < low:
        raise ValueError(f"{who}: {name} must be at least {low}, got {v}; give {name} >= {low}")
    if high is not None and v > high:
        raise ValueError(f"{who}: {name} must be at most {high}, got {v}; give {name} <= {high}")
    return v


def as_bool(value, name: str, who: str) -> bool:
    """A flag: a bool, 0/1, or the strings true/false/1/0/yes/no."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.strip().lower() in ("true", "1", "yes")
    raise ValueError(f"{who}: {name} must be true or false, got {value!r}; write {name}=true or {name}=false")


def json_number(q):
    """A rational parameter as JSON: an int when whole, else the string "p/q" (``as_rational`` reads it back)."""
    q = Fraction(q)
    return int(q) if q.denominator == 1 else str(q)


def number(q):
    """A bound's value: an int when whole, else a float (math.inf stays math.inf); a fraction too large for a
    float is its floor, exactly (a count of mistakes is whole, so the floor bounds it as the fraction does)."""
    if isinstance(q, float):
        return int(q) if q.is_integer() else q
    q = Fraction(q)
    if q.denominator == 1:
        return int(q)
    try:
        return float(q)
    except OverflowError:
        return math.floor(q)


def lg(n: int):
    """log2(n): an exact int when n is a power of two, else a float."""
    if n > 0 and n & (n - 1) == 0:
        return n.bit_length() - 1
    return math.log2(n)


def _freeze(v):
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(w)) for k, w in v.items()))
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(w) for w in v)
    if isinstance(v, np.ndarray):
        return tuple(v.ravel().tolist())
    if isinstance(v, np.generic):
        return v.item()
    return v


def rng_key(rng: np.random.Generator):
    """The exact state of a numpy Generator as a hashable value."""
    return _freeze(rng.bit_generator.state)


def linear_signs(w, P, theta=0) -> np.ndarray:
    """sign(<w, x> - theta) for every row x of the integer matrix ``P``, computed exactly.

    ``w`` and ``theta`` are rationals (ints or Fractions): they are scaled to integers by their common
    denominator, and the products are taken in int64 when they cannot overflow, in Python ints
    otherwise. Used by the ``predict_many`` of linear-threshold learners (Winnow, Perceptron).

    >>> from fractions import Fraction as F
    >>> linear_signs((F(1, 2), 2), [[1, 0], [1, 1], [0, 1]], theta=2).tolist()
    [-1, 1, 0]
    """
    vals = [Fraction(v) for v in w]
    th = Fraction(theta)
    den = math.lcm(th.denominator, *(v.denominator for v in vals))
    ints = [v.numerator * (den // v.denominator) for v in vals]
    t = th.numerator * (den // th.denominator)
    P = np.asarray(P)
    if P.dtype.kind not in "iub":
        raise TypeError("linear_signs needs an integer matrix of points")
    if P.ndim != 2 or P.shape[1] != len(ints):
        raise ValueError(f"points must be rows of length {len(ints)}")
    top = max([abs(t), *map(abs, ints)])
    big = int(np.abs(P).max()) if P.size else 0
    if top * (big * len(ints) + 1) < 2**62:
        s = P.astype(np.int64) @ np.asarray(ints, dtype=np.int64) - t
    else:
        s = P.astype(object) @ np.asarray(ints, dtype=object) - t
    return np.sign(s).astype(np.int8)
