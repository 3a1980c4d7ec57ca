"""The referee of the mistake-bound game: replay a sequence, enforce realizability, count mistakes.

The classes, their JSON spec and their realizability checks live in :mod:`solvers.classes` (one protocol
for every kind of class); the referee reads them only through that protocol. The interactive game
(:class:`adversary.game.GameInProgress`, :func:`adversary.game.play`) is played under this referee.

The game ([Mehta], Definition 1; [OnlineAlgs],
"Online Model"): each round the adversary shows a point x_t, the learner predicts, the adversary
reveals the label y_t; the labels must be *realizable*, i.e. some concept c of the class C gives
y_t = c(x_t) for every t. A learner's mistake bound M is a claim about every such sequence, so a
single realizable sequence on which the learner makes more than M mistakes refutes it. This module
turns such a sequence into a **witness**, a JSON object anyone can re-check from scratch::

    {"kind": "witness",
     "learner": {"name": "winnow2", "params": {"n": 4}},
     "class": {"family": "monotone-disjunctions", "params": {"n": 4, "k": 2}},
     "sequence": [{"x": [0, 1, 1, 0], "y": 1}, ...],
     "target": 5,
     "mistakes": 3}

``"class"`` is one of

* ``{"family": NAME, "params": {...}}``: a finite family built by :func:`solvers.classes.families.make`;
* ``{"matrix": [[0, 1, ...], ...], "points": [[...], ...]}``: a finite class from its 0/1 matrix
  (``points`` optional: point ``j`` is then ``[j]``);
* ``{"family": "margin-halfspaces", "params": {"d": d, "gamma": g, "R": 1}}``: the implicit class of
  [Mehta], section 3 (and [OnlineAlgs], "Perceptron - Analysis"): homogeneous halfspaces x -> [<w*, x> >= 0]
  in R^d with a unit-norm w*, on points with |x| <= R that w* separates with margin gamma
  (0 < gamma <= R: with gamma > R no point has the margin, and the class is refused as empty);
* the same ``{"family": NAME, "params": {...}}`` for a {0,1}^n family with a literal form
  (monotone-disjunctions, disjunctions, monotone-conjunctions, conjunctions, parities, k-of-r) whose
  domain has more than 2^12 points: an :class:`~solvers.classes.implicit.ImplicitFamily`, listed by its
  concepts (in ``make``'s row order) and never by its 2^n points. Points are 0/1 lists of length n,
  and the witness must give the target (a concept index), which is checked on every example.

``"target"`` is, for a finite class, the index of a concept of the class *as built* (duplicate rows
merged, see :class:`~solvers.classes.finite.ConceptClass`), or null / absent ("some concept"); for
margin halfspaces it is ``{"w": [...]}``. Other keys (``"bound"``, ``"verdict"``, ``"note"``) may be
added; the replay ignores them, and :func:`adversary.claims.check_claims` (``littlestone verify``) derives each
of them again or refuses it (a key not in :data:`adversary.claims.WITNESS_KEYS` included).

``"errors": k`` (absent: 0) allows k label errors ([FHMM23]'s k-realizable sequences,
:mod:`solvers.game_rules`): the labels need only be within k errors of some concept of a finite class, and
``"target"`` is then a concept that disagrees with at most k of them. Classes whose points are not listed
(implicit, margin halfspaces) refuse k > 0.

For a randomized learner (its class declares ``randomized``) ``"mistakes"`` is the count of the replay
with the learner's own seed, and ``"expected_mistakes": "p/q"`` (optional) claims the exact expected
number of mistakes over its draws, sum_t P(prediction_t != y_t), which the referee recomputes from the
learner's ``probability(x)`` round by round (:mod:`solvers.learners.base`: the learners' distributions
depend on the examples only, never on their coins, so this is the expectation against this sequence
whatever the adversary saw).

An optional ``"cycle": {"start": s, "length": L}`` claims that the learner has *no* finite mistake
bound on the class: replaying the sequence from a fresh learner, its ``state_key()`` after example s
(s = 0: before the first) equals its state after example s + L, the version space (for a finite
class, the set of concepts consistent with the examples so far) is the same at both points, and at
least one of the examples s+1..s+L is a mistake. The adversary can then repeat those L examples for
ever, each time with the same mistakes, and every repetition stays realizable (by the same target).
With label errors the budget levels of :mod:`solvers.game_rules` must be the same at both points (then the
repetitions leave every concept's remaining errors as they were); for a randomized learner its
``distribution_key()`` must be, and the expected mistakes on the cycle must be positive.
``state_key`` is exact by the learner protocol (:mod:`solvers.learners.base`), so equal keys mean the
learner behaves the same from then on. On margin halfspaces the target w labels every example of the
cycle with the margin, so the repetitions are realizable by w itself.

The learner is always rebuilt by name from ``solvers.learners.make_learner`` and replayed from its
initial state: a witness never carries learner state, and nothing a caller passes in is trusted.

Numbers. Finite classes are checked exactly (points are integer tuples, labels 0 or 1). Margin
halfspaces are checked in floating point with the tolerances 1e-9 the witness format states:
``abs(|w| - 1) <= 1e-9``, ``|x_t| <= R + 1e-9`` and ``s_t <w, x_t> >= gamma - 1e-9`` with
``s_t = +1`` for y_t = 1 and -1 for y_t = 0 ([Mehta]'s labels in {-1, +1}). Coordinates of x and w
may be JSON numbers or strings of rationals (``"3/5"``): the learner gets ints and floats as they
are and strings as Fractions (so a learner with exact arithmetic, like the Perceptron on ints and
Fractions, replays exactly; ``make_witness`` writes Fractions back as ``"p/q"``). gamma and R are
read as the decimals they print as (0.1 is 1/10), as the learners read their parameters. With
``exact=True`` the radius and margin conditions are checked in exact rational arithmetic instead
(floats are converted exactly, and the margin of the direction w is ``s_t <w, x_t> / |w|``, checked
by squaring, so no square root is taken; |w| = 1 keeps its tolerance); use it when a claimed
violation of R^2 / gamma^2 could hinge on the last 1e-9.

Every failure is a :class:`WitnessError` (a ``ValueError``, wrapping the classes' one-line ValueErrors);
:func:`verify_witness` returns it in a :class:`VerifyResult` instead of raising.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).

Examples
--------
Halving (ties to 1) on three concepts 00, 01, 11: on point 1 two of them say 1, so it predicts 1; the
label 0 leaves only 00.

>>> w = make_witness("halving", {}, {"matrix": [[0, 0], [0, 1], [1, 1]]}, [{"x": [1], "y": 0}])
>>> w["target"], w["mistakes"]
(0, 1)
>>> print(verify_witness(w).message)
halving makes 1 mistake on 1 example of the matrix class (3 concepts x 2 points) (target concept 0)
>>> w["mistakes"] = 2
>>> print(verify_witness(w).message)
claims 2 mistakes, replay gives 1
>>> w["sequence"].append({"x": [0], "y": 1})
>>> print(verify_witness(w).message)
target concept 0 labels example 2 (x = (0,)) 0, not 1
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Optional, Sequence

import numpy as np

from solvers.jsontext import loads
from solvers.certificates import TreeError, check_made_for, made_for
from solvers.game_rules import value_text
from solvers.messages import one_line
from solvers.classes import families, spec
from solvers.classes.margin import MARGIN_FAMILY, TOLERANCE
from solvers.numbers import json_type as _type
from solvers.numbers import not_ints, num_text
from solvers.numbers import point_text as _show

from .position import IllegalMove, Position

if TYPE_CHECKING:
    from solvers.classes.protocol import ConceptClassProtocol

__all__ = [
    "witness_errors",
    "MARGIN_FAMILY",
    "TOLERANCE",
    "WitnessError",
    "Replay",
    "VerifyResult",
    "witness_class",
    "class_spec",
    "target_words",
    "parse_sequence",
    "parse_point",
    "check_realizable",
    "learner_spec",
    "build_learner",
    "full_params",
    "replay",
    "replay_parsed",
    "make_witness",
    "json_target",
    "fraction_text",
    "read_fraction",
    "verify_witness",
]

_WITNESS_KEYS = ("kind", "learner", "class", "sequence", "mistakes")


class WitnessError(ValueError):
    """A witness (or a sequence, class or learner given to the referee) is wrong; one-line message."""


# ---------------------------------------------------------------------------------------- classes
def witness_class(class_spec):
    """Build the class a witness names (:func:`solvers.classes.spec.load_class`); a class already built
    is returned as it is.

    Raises
    ------
    WitnessError
        Unknown family, bad parameters, malformed matrix, or a spec of the wrong shape.

    Examples
    --------
    >>> witness_class({"family": "thresholds", "params": {"N": 3}})
    <ConceptClass thresholds {'N': 3}: 4 concepts x 3 points>
    >>> witness_class({"family": "threshold", "params": {"N": 3}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    adversary.referee.WitnessError: unknown family 'threshold'; known families: thresholds, ..., margin-halfspaces
    """
    try:
        return spec.load_class(class_spec)
    except ValueError as e:
        raise WitnessError(one_line(e)) from None


def class_spec(cls) -> dict:
    """The JSON form of a class for a witness: the family and all its parameters, or the matrix."""
    return witness_class(cls).to_spec()


# ---------------------------------------------------------------------------------------- sequences
def parse_sequence(sequence, cls) -> list[tuple[tuple, int]]:
    """Check a sequence and return it as ``[(x, y), ...]`` with canonical points.

    Parameters
    ----------
    sequence : list
        ``[{"x": [...], "y": 0 or 1}, ...]`` (the witness form) or ``[(x, y), ...]``.
    cls : a class of :mod:`solvers.classes`

    Returns
    -------
    list of (tuple, int)
        For a finite class, ``x`` is the class's own point (an int tuple: ``3`` becomes ``(3,)``);
        for margin halfspaces, a tuple of ``Fraction`` (exact as given).

    Raises
    ------
    WitnessError
        A label that is not the integer 0 or 1, a point not in the domain of a finite class, or a
        vector of the wrong dimension or with a non-numeric coordinate. Examples are counted from 1.
    """
    if not isinstance(sequence, (list, tuple)):
        raise WitnessError(f'malformed witness: "sequence" must be a list of {{"x": [...], "y": 0 or 1}}, got {_type(sequence)}')
    out = []
    for t, item in enumerate(sequence, 1):
        if isinstance(item, dict):
            if "x" not in item or "y" not in item:
                raise WitnessError(f'malformed witness: example {t} needs "x" and "y"; write {{"x": [...], "y": 0 or 1}}')
            x, y = item["x"], item["y"]
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            x, y = item
        else:
            raise WitnessError(f'malformed witness: example {t} is not {{"x": [...], "y": 0 or 1}}')
        if isinstance(y, bool) or not isinstance(y, (int, np.integer)) or y not in (0, 1):
            raise WitnessError(f"example {t}: label {y!r} is not 0 or 1")
        out.append((parse_point(x, t, cls), int(y)))
    return out


def parse_point(x, t: int, cls) -> tuple:
    """Example ``t``'s point ``x`` in the class's own form (``cls.point``), or WitnessError naming it."""
    try:
        return cls.point(x)
    except ValueError as e:
        raise WitnessError(f"example {t}: {one_line(e)}") from None


# ---------------------------------------------------------------------------------------- realizability
def check_realizable(cls, examples, target=None, *, exact: bool = False, errors: int = 0):
    """Check that the labels are realizable by the class (and by ``target`` when given).

    Parameters
    ----------
    cls : a class of :mod:`solvers.classes`
    examples : list of (x, y)
        As returned by :func:`parse_sequence`.
    target : int, dict or None
        A finite class: a concept index (rows of the class as built) or None for "some concept".
        Margin halfspaces: ``{"w": [...]}`` (required).
    exact : bool
        Margin halfspaces only: check |x| <= R and the margin in exact rational arithmetic.
    errors : int
        k: the labels may disagree with the target k times (finite classes only).

    Returns
    -------
    int or tuple
        The target: the given index, or the lowest index of a concept consistent with every example;
        for margin halfspaces the tuple w (Fractions).

    Raises
    ------
    WitnessError
        "no concept of the class labels examples 1..t" (t the first example that leaves no concept),
        "target concept c labels example t ... 1, not 0", a target out of range, a margin violated,
        an |x| > R, or an |w| != 1.

    Examples
    --------
    >>> from solvers.classes import ConceptClass
    >>> C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]])
    >>> check_realizable(C, [((1,), 1)])
    1
    >>> check_realizable(C, [((0,), 1), ((1,), 0)])
    Traceback (most recent call last):
    ...
    adversary.referee.WitnessError: no concept of the class labels examples 1..2
    """
    try:
        if errors:
            return cls.check_target(examples, target, exact=exact, errors=errors)
        return cls.check_target(examples, target, exact=exact)
    except ValueError as e:
        raise WitnessError(one_line(e)) from None


# ---------------------------------------------------------------------------------------- learners
def _learners():
    from solvers import learners

    return learners


def learner_spec(learner) -> tuple[str, dict]:
    """``(name, params)`` from a name, a ``{"name", "params"}`` dict, a pair, or a learner instance
    (whose state is ignored: only its ``name`` and ``get_params()`` are used)."""
    if isinstance(learner, str):
        return learner, {}
    if isinstance(learner, dict):
        if "name" not in learner:
            raise WitnessError('malformed witness: "learner" must be {"name": NAME, "params": {...}}')
        params = learner.get("params", {})
        return learner["name"], ({} if params is None else params)
    if isinstance(learner, tuple) and len(learner) == 2:
        return learner[0], (learner[1] or {})
    name = getattr(type(learner), "name", None) or getattr(learner, "name", None)
    if isinstance(name, str) and hasattr(learner, "get_params"):
        return name, dict(learner.get_params())
    raise WitnessError(f"a learner is a name, {{\"name\": ..., \"params\": {{...}}}} or a learner object, got {_type(learner)}")


def build_learner(name, params: Optional[dict] = None, cls=None):
    """A fresh learner ``name`` with ``params``, for class ``cls``, from ``solvers.learners.make_learner``.

    Class-based learners (Halving, CON, SOA, randomized halving: ``LEARNERS[name].needs_class``) get the
    finite class; they cannot play on the implicit class of margin halfspaces.

    Raises
    ------
    WitnessError
        Unknown learner or bad parameters (make_learner's message), or a class-based learner on margin
        halfspaces.
    """
    L = _learners()
    params = {} if params is None else params
    if not isinstance(name, str):
        raise WitnessError(f"malformed witness: the learner name must be a string, got {_show(name)}")
    if not isinstance(params, dict):
        raise WitnessError(f'malformed witness: the learner "params" must be an object, got {_type(params)}')
    spec = L.LEARNERS.get(name)
    if spec is None:
        known = dict.fromkeys(s.name for s in L.LEARNERS.values())  # canonical names, aliases left out
        raise WitnessError(f"unknown learner {name!r}; known learners: {', '.join(known)}")
    finite = cls if cls is not None and cls.finite else None
    if cls is not None and not cls.finite and not spec.needs_class and spec.dim_param:
        dim = spec.dim_param  # the class determines n (or d), as make_learner does from a finite class's points
        size = cls.facts.get("n", cls.facts.get("d"))
        if dim not in params:
            params = dict(params, **{dim: size})
        elif str(params[dim]).strip() != str(size):
            raise WitnessError(f"{spec.name}: {dim}={params[dim]} but the points of {cls} have {size} "
                               f"coordinates; give {dim}={size}")
    if spec.needs_class and cls is not None and not cls.finite and cls.n_concepts is not None:
        raise WitnessError(f"learner {name!r} needs a class built point by point, got {cls}; "
                           f"lower n to at most 12, or attack a vector learner (e.g. winnow2)")
    if spec.needs_class and finite is None:
        where = str(cls) if cls is not None else "no class"
        raise WitnessError(f"learner {name!r} needs a finite concept class, got {where}; "
                           "use a vector learner (e.g. perceptron) on margin-halfspaces")
    try:
        return L.make_learner(name, dict(params), finite)
    except (ValueError, TypeError, KeyError) as e:
        raise WitnessError(one_line(e)) from None


def full_params(learner, given: dict) -> dict:
    """The learner's parameters with defaults, when ``get_params`` gives JSON-able ones."""
    try:
        params = dict(learner.get_params())
        json.dumps(params)
    except (AttributeError, TypeError, ValueError):
        return dict(given)
    return params


# ---------------------------------------------------------------------------------------- replay
@dataclass(frozen=True)
class Replay:
    """What a learner did on a sequence.

    Attributes
    ----------
    learner : str
        The learner's name; ``params`` its parameters (defaults included when the learner reports them).
    predictions : tuple of int
        The prediction (0 or 1) of every round.
    rounds : tuple of int
        The 0-based indices of the rounds with a mistake.
    """

    learner: str
    params: dict
    predictions: tuple
    rounds: tuple
    probabilities: Optional[tuple] = None  # a randomized learner's P(predict 1) in every round (Fractions)

    @property
    def mistakes(self) -> int:
        """The number of mistakes."""
        return len(self.rounds)

    def by_kind(self, labels) -> dict:
        """The mistakes by kind, as the notes' proofs count them: ``false_negative`` (label 1, predicted 0:
        Winnow's promotions, u) and ``false_positive`` (label 0, predicted 1: its demotions or eliminations,
        v), for the labels ``labels`` of the rounds."""
        fn = sum(1 for t in self.rounds if labels[t] == 1)
        return {"false_negative": fn, "false_positive": len(self.rounds) - fn}

    def expected_by_kind(self, labels) -> Optional[dict]:
        """A randomized learner's exact expected mistakes by kind: P(predict 0) summed over the rounds
        labelled 1, and P(predict 1) over those labelled 0 (None for a deterministic learner)."""
        if self.probabilities is None:
            return None
        fn = sum((1 - p for p, y in zip(self.probabilities, labels) if y == 1), Fraction(0))
        fp = sum((p for p, y in zip(self.probabilities, labels) if y == 0), Fraction(0))
        return {"false_negative": fn, "false_positive": fp}

    def expected(self, labels) -> Optional[Fraction]:
        """The exact expected mistakes sum_t P(prediction_t != y_t) for the labels ``labels`` of the
        rounds (None for a deterministic learner)."""
        if self.probabilities is None:
            return None
        return sum((p if y == 0 else 1 - p for p, y in zip(self.probabilities, labels)), Fraction(0))


def replay(learner, sequence, cls=None, *, errors: int = 0) -> Replay:
    """Play ``sequence`` against a *fresh* learner and record its predictions and mistakes.

    The learner is rebuilt from its name and parameters (a learner object passed in is used only for
    its ``name`` and ``get_params()``; its state is never trusted), then for each example it predicts
    ``predict_one(x)`` and is told ``learn_one(x, y)``, every round (river's protocol): the game's
    :meth:`Position.run <adversary.position.Position.run>`, which also refuses a label that leaves no
    concept of a listed class consistent. The target is *not* checked here (see :func:`check_realizable`);
    labels and points are.

    Parameters
    ----------
    learner : str, dict, (name, params) or learner object
    sequence : list
        ``[{"x": ..., "y": 0 or 1}, ...]`` or ``[(x, y), ...]``.
    cls : a class of :mod:`solvers.classes` or a class spec dict, optional
        The class: class-based learners need it; for a finite class the points are mapped to the
        class's own point tuples (and must be in its domain). Without a class, points are passed as
        given (vector learners only).
    errors : int
        k >= 1: the labels may disagree with every concept (k label errors); only the learner may refuse
        one. Whether they are within k errors of a concept is :func:`check_realizable`'s to check.

    Returns
    -------
    Replay
        With ``probabilities`` for a randomized learner (its P(predict 1) in every round).

    Raises
    ------
    WitnessError
        Bad learner, label or point; a learner that fails or predicts something other than 0 / 1.

    Examples
    --------
    >>> from solvers.classes import ConceptClass
    >>> r = replay("halving", [((1,), 1), ((0,), 0)], ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]]))
    >>> r.predictions, r.rounds, r.mistakes       # on point 0, V = {01, 11} ties and ties go to 1
    ((1, 1), (1,), 1)
    """
    name, params = learner_spec(learner)
    if cls is not None:
        cls = witness_class(cls)
        examples = parse_sequence(sequence, cls)
    else:
        examples = _raw_examples(sequence)
    return replay_parsed(name, params, examples, cls, errors=errors)


def replay_parsed(name: str, params: dict, examples, cls, *, errors: int = 0) -> Replay:
    """:func:`replay` on examples that :func:`parse_sequence` has already checked for ``cls``."""
    model = build_learner(name, params, cls)
    full = full_params(model, params)
    probabilities = _probabilities(model, name, examples) if getattr(model, "randomized", False) else None
    predictions = _run(_start(model, cls, errors), name, examples)[1]
    rounds = tuple(t for t, (p, (_, y)) in enumerate(zip(predictions, examples)) if p != y)
    return Replay(name, full, tuple(predictions), rounds, probabilities)


def _start(model, cls, errors: int) -> Position:
    """The game's first position; with label errors the learner alone (no version space to keep non-empty:
    the labels are checked against the target within k errors instead)."""
    return Position.start(model, None if errors else cls)


def _probabilities(model, name: str, examples) -> tuple:
    """A randomized learner's exact P(predict 1) in every round of ``examples`` (on a copy of ``model``)."""
    L = copy.deepcopy(model)
    out = []
    for t, (x, y) in enumerate(examples, 1):
        try:
            p = L.probability(x)
            L.learn_one(x, y)
        except (ValueError, TypeError, IndexError, KeyError, ArithmeticError) as e:
            raise WitnessError(f"learner {name} failed on example {t} (x = {_show(x)}): {one_line(e)}") from None
        if not isinstance(p, (int, Fraction)) or isinstance(p, bool) or not 0 <= p <= 1:
            raise WitnessError(f"learner {name} gave the probability {p!r} on example {t}; it must be an exact "
                               "number in [0, 1]")
        out.append(Fraction(p))
    return tuple(out)


def _raw_examples(sequence):
    if not isinstance(sequence, (list, tuple)):
        raise WitnessError(f"a sequence is a list of (x, y) pairs, got {_type(sequence)}")
    out = []
    for t, item in enumerate(sequence, 1):
        x, y = (item["x"], item["y"]) if isinstance(item, dict) else item
        if isinstance(y, bool) or not isinstance(y, (int, np.integer)) or y not in (0, 1):
            raise WitnessError(f"example {t}: label {y!r} is not 0 or 1")
        out.append((tuple(x) if isinstance(x, list) else x, int(y)))
    return out


def _run(pos: Position, name: str, examples, first: int = 0) -> tuple[Position, list]:
    """``pos.run(examples)`` (:meth:`adversary.position.Position.run`), its refusals as WitnessErrors."""
    try:
        return pos.run(examples, first=first)
    except IllegalMove as e:
        t, x = e.t + 1, e.x
        if e.kind == "failed":
            raise WitnessError(f"learner {name} failed on example {t} (x = {_show(x)}): {one_line(e.cause)}") from None
        if e.kind == "prediction":
            raise WitnessError(f"learner {name} predicted {e.cause!r} on example {t}; predictions must be 0 or 1") from None
        raise WitnessError(str(e)) from None


# ---------------------------------------------------------------------------------------- witnesses
def make_witness(learner_name: str, learner_params: dict | None, class_spec: dict | ConceptClassProtocol,
                 sequence: Sequence[dict | tuple], target: int | dict | None = None, *, extra: dict | None = None,
                 exact: bool = False, errors: int = 0) -> dict:
    """Replay ``sequence`` and return a witness with the mistakes filled in.

    Parameters
    ----------
    learner_name : str
        A key of ``solvers.learners.LEARNERS``.
    learner_params : dict
        Its parameters; the witness records them with the defaults filled in (``get_params()``).
    class_spec : dict or a class of :mod:`solvers.classes`
        The class (see :func:`witness_class`). A family class is recorded with all its parameters; any
        other finite class as its matrix and points.
    sequence : list
        ``[{"x": ..., "y": 0 or 1}, ...]`` or ``[(x, y), ...]``.
    target : int, dict or None
        A concept index; for a finite class None picks the lowest consistent concept. Margin
        halfspaces need ``{"w": [...]}``.
    extra : dict, optional
        More keys for the witness (``"bound"``, ``"verdict"``, ``"note"``); they cannot replace the
        witness's own keys.
    exact : bool
        Check the margin conditions in exact arithmetic (see the module docstring).
    errors : int
        k label errors allowed (recorded as ``"errors"`` when k > 0); the target must be within k errors.

    Returns
    -------
    dict
        The witness; ``verify_witness`` accepts it. For a randomized learner it has
        ``"expected_mistakes": "p/q"``, the exact expectation over the learner's draws.

    Raises
    ------
    WitnessError
        Whatever ``verify_witness`` would reject: bad labels or points, unrealizable labels, a target
        that mislabels an example, a bad learner.
    """
    errors = witness_errors(errors)
    cls = witness_class(class_spec)
    examples = parse_sequence(sequence, cls)
    target = check_realizable(cls, examples, target, exact=exact, errors=errors)
    name, params = learner_spec({"name": learner_name, "params": learner_params})
    r = replay_parsed(name, params, examples, cls, errors=errors)
    witness = {
        "kind": "witness",
        "learner": {"name": learner_name, "params": r.params},
        "class": cls.to_spec(),
        "made_for": made_for(cls),  # the class's fingerprint: verify_witness refuses a witness whose class was changed
        "sequence": [{"x": _json_point(x), "y": y} for x, y in examples],
        "target": json_target(cls, target),
        "mistakes": r.mistakes,
        "mistakes_by_kind": r.by_kind([y for _, y in examples]),
    }
    if errors:
        witness["errors"] = errors
    expected = r.expected([y for _, y in examples])
    if expected is not None:
        witness["expected_mistakes"] = fraction_text(expected)
        witness["expected_mistakes_by_kind"] = {k: fraction_text(v)
                                                for k, v in r.expected_by_kind([y for _, y in examples]).items()}
    for key, value in (extra or {}).items():
        if key in witness:
            raise WitnessError(f"extra key {key!r} would replace the witness's own {key!r}; choose another name")
        witness[key] = value
    return witness


def fraction_text(q) -> str:
    """An exact number as the string ``"p/q"`` (``"p"`` when whole): how witnesses write expectations."""
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def read_fraction(v, what: str) -> Fraction:
    """``"p/q"``, ``"p"`` or an int as an exact Fraction >= 0, or WitnessError naming ``what``."""
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise WitnessError(f'malformed witness: "{what}" must be an exact number "p/q", got {_show(v)}')
    try:
        q = Fraction(v)
    except (ValueError, ZeroDivisionError):
        raise WitnessError(f'malformed witness: "{what}" must be an exact number "p/q", got {_show(v)}') from None
    if q < 0:
        raise WitnessError(f'malformed witness: "{what}" must be >= 0, got {v}')
    return q


def witness_errors(v) -> int:
    """The label errors a witness allows (its ``"errors"``), a whole number >= 0, or WitnessError."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise WitnessError(f'malformed witness: "errors" must be a whole number >= 0 (the label errors allowed), '
                           f"got {_show(v)}")
    return int(v)


def _json_point(x) -> list:
    x = list(x)
    for i in not_ints(x):
        x[i] = _json_number(x[i])
    return x


def _json_number(v):
    """ints and floats as they are; a Fraction as the string "p/q", which reads back as the same
    Fraction (so a learner with exact arithmetic replays exactly as it played)."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return int(v) if isinstance(v, (int, np.integer)) else float(v)


def json_target(cls, target):
    """The target as a witness writes it: a concept index, or ``{"w": [...]}`` for a direction."""
    if cls.n_concepts is None:  # a direction w, not an index
        w = list(target)
        for i in not_ints(w):  # (in high dimension most coordinates are int zeros, written as they are)
            w[i] = _json_number(w[i])
        return {"w": w}
    return int(target)


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of :func:`verify_witness`.

    Attributes
    ----------
    ok : bool
        Whether the witness holds.
    mistakes : int or None
        The replayed number of mistakes (None when the check failed before the replay).
    message : str
        One line: ``"<learner> makes m mistakes on <k> examples of <class> (target ...)"``, or
        what is wrong.
    """

    ok: bool
    mistakes: Optional[int]
    message: str
    cycle: Optional[tuple] = None  # (start, length, mistakes on the cycle) when a cycle was verified
    expected: Optional[Fraction] = None  # a randomized learner's exact expected mistakes on the sequence

    def __bool__(self) -> bool:
        return self.ok


def verify_witness(w: dict | str, *, exact: bool = False, learner: type | None = None) -> VerifyResult:
    """Re-check a witness from scratch.

    Checks, in order: the JSON shape (an object with ``kind == "witness"``, ``learner``, ``class``,
    ``sequence``, ``mistakes``; ``target`` required for margin halfspaces); the class (built from
    its family or matrix); every label 0 or 1 and every point in the domain; realizability, and that
    the target labels every example (for margin halfspaces: |w| = 1, |x| <= R, margin >= gamma);
    the learner, rebuilt by name; that replaying the sequence on the fresh learner gives exactly the
    claimed number of mistakes; and, when the witness has a ``"cycle"``, that the cycle closes (same
    learner state and version space at both ends, at least one mistake on it: see the module docstring).

    Parameters
    ----------
    w : dict or str
        The witness, or its JSON text.
    exact : bool
        Margin halfspaces: check |x| <= R and the margin in exact rational arithmetic instead of with
        the tolerance 1e-9.
    learner : learner class, optional
        The class of a learner that is not in :data:`solvers.learners.LEARNERS` (your own, attacked
        unregistered), registered while the witness is checked. Without it, the witness of an unknown
        learner is checked as far as it can be (its class, examples, labels and target) and not accepted:
        the message says that its mistakes could not be replayed.

    Returns
    -------
    VerifyResult
        ``ok``, the replayed ``mistakes`` and a one-line ``message``; never raises for a bad witness.

    Examples
    --------
    >>> print(verify_witness('{"kind": "witness"').message)
    malformed JSON: Expecting ',' delimiter: line 1 column 19 (char 18)
    >>> print(verify_witness({"kind": "witness", "learner": {"name": "halving"}}).message)
    malformed witness: missing key "class"
    """
    try:
        if learner is None:
            return _verify(w, exact)
        with _learners().registered(learner):
            return _verify(w, exact)
    except WitnessError as e:
        return VerifyResult(False, None, one_line(e))


def _verify(w, exact: bool) -> VerifyResult:
    if isinstance(w, (str, bytes)):
        try:
            w = loads(w, "the witness", error=WitnessError, hint="a witness is nested about 5 levels")
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise WitnessError(f"malformed JSON: {e}") from None
    if not isinstance(w, dict):
        raise WitnessError(f"malformed witness: expected a JSON object, got {_type(w)}")
    if w.get("kind") != "witness":
        raise WitnessError(f'malformed witness: "kind" must be "witness", got {_show(w.get("kind"))}')
    for key in _WITNESS_KEYS:
        if key not in w:
            raise WitnessError(f'malformed witness: missing key "{key}"')
    claimed = w["mistakes"]
    if isinstance(claimed, bool) or not isinstance(claimed, int) or claimed < 0:
        raise WitnessError(f'malformed witness: "mistakes" must be a whole number >= 0, got {_show(claimed)}')
    learner = w["learner"]
    if not isinstance(learner, dict) or "name" not in learner:
        raise WitnessError('malformed witness: "learner" must be {"name": NAME, "params": {...}}')
    name, params = learner_spec(learner)
    errors = witness_errors(w.get("errors", 0))
    claimed_expected = None
    if w.get("expected_mistakes") is not None:
        claimed_expected = read_fraction(w["expected_mistakes"], "expected_mistakes")
    cls = witness_class(w["class"])
    try:
        check_made_for(w, cls, what="witness")  # False (not matched) for a witness written before it was recorded
    except TreeError as e:  # ClassMismatch: "class" was changed after the witness was made
        raise WitnessError(one_line(e)) from None
    examples = parse_sequence(w["sequence"], cls)
    target = check_realizable(cls, examples, w.get("target"), exact=exact, errors=errors)
    if name not in _learners().LEARNERS:  # the rest is checked; the learner's mistakes cannot be replayed
        source = (w.get("bound") or {}).get("source") if isinstance(w.get("bound"), dict) else None
        cited = f" (its bound cites {source})" if isinstance(source, str) and source else ""
        count = f"{len(examples)} example{'s' if len(examples) != 1 else ''}"
        known = ", ".join(dict.fromkeys(spec.name for spec in _learners().LEARNERS.values()))
        return VerifyResult(False, None, f"unknown learner {name!r}{cited}: not verified; the class, the {count} "
                                         f"and their target check, but its {claimed} mistakes were not replayed; "
                                         f"known learners: {known}; for your own, register it "
                                         "(solvers.learners.register) or pass its class: "
                                         "verify_witness(w, learner=MyLearner)")
    r = replay_parsed(name, params, examples, cls, errors=errors)
    if r.mistakes != claimed:
        return VerifyResult(False, r.mistakes, f"claims {claimed} mistakes, replay gives {r.mistakes}")
    labels = [y for _, y in examples]
    expected = r.expected(labels)
    if claimed_expected is not None:
        if expected is None:
            return VerifyResult(False, r.mistakes, f'"expected_mistakes" is for a randomized learner, and {name} '
                                                   "predicts deterministically; drop it")
        if expected != claimed_expected:
            return VerifyResult(False, r.mistakes, f"claims {fraction_text(claimed_expected)} expected mistakes, "
                                                   f"replay gives {fraction_text(expected)}")
    noun = "mistake" if r.mistakes == 1 else "mistakes"
    within = f" within {errors} label error{'s' if errors != 1 else ''}" if errors else ""
    seeded = f" with its seed, {value_text(expected)} expected over its draws," if expected is not None else ""
    count = f"{len(examples)} example{'s' if len(examples) != 1 else ''}"
    message = (f"{name} makes {r.mistakes} {noun}{seeded} on {count} of {cls}{within} "
               f"({_target_text(cls, examples, target)})")
    cycle = None
    if w.get("cycle") is not None:
        cycle = _check_cycle(w["cycle"], name, params, cls, examples, r, errors)
        start, length, m = cycle
        what = (f"{value_text(m)} expected mistakes" if expected is not None
                else f"{m} mistake{'s' if m != 1 else ''}")
        message += (f"; no finite mistake bound: the cycle of {length} example{'s' if length != 1 else ''} "
                    f"({what}), examples {start + 1}..{start + length}, can be repeated for ever")
    why = _check_kinds(w, r, labels)
    if why is not None:
        return VerifyResult(False, r.mistakes, why)
    return VerifyResult(True, r.mistakes, message, cycle, expected)


KINDS = ("false_negative", "false_positive")


def _check_kinds(w: dict, r: Replay, labels) -> Optional[str]:
    """What is wrong with a witness's ``"mistakes_by_kind"`` (and ``"expected_mistakes_by_kind"``) against the
    replay, or None (a witness written before they were recorded has neither)."""
    for key, counted, read in (("mistakes_by_kind", r.by_kind(labels), None),
                               ("expected_mistakes_by_kind", r.expected_by_kind(labels), read_fraction)):
        if key not in w:
            continue
        claimed = w[key]
        if not isinstance(claimed, dict) or set(claimed) != set(KINDS):
            raise WitnessError(f'malformed witness: "{key}" must be {{"false_negative": u, "false_positive": v}}')
        if counted is None:
            return f'"{key}" is for a randomized learner, and {r.learner} predicts deterministically; drop it'
        for kind in KINDS:
            v = claimed[kind]
            if read is None:
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    raise WitnessError(f'malformed witness: "{key}" {kind} must be a whole number >= 0, got {_show(v)}')
            else:
                v = read(v, f"{key} {kind}")
            if v != counted[kind]:
                what = "expected " if read is not None else ""
                show = fraction_text if read is not None else str
                return (f"claims {show(v)} {what}{kind.replace('_', ' ')}s, replay gives {show(counted[kind])}")
    return None


def _check_cycle(cycle, name: str, params: dict, cls, examples, r: Replay, errors: int = 0) -> tuple:
    """Check a witness's ``"cycle"`` (see the module docstring); return (start, length, mistakes on it)."""
    if not isinstance(cycle, dict) or set(cycle) != {"start", "length"}:
        raise WitnessError('malformed witness: "cycle" must be {"start": s, "length": L} '
                           "(the examples s+1..s+L bring the learner back to its state after example s)")
    s, L = cycle["start"], cycle["length"]
    for key, v, low in (("start", s, 0), ("length", L, 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
            raise WitnessError(f'malformed witness: cycle "{key}" must be a whole number >= {low}, got {_show(v)}')
    s, L = int(s), int(L)
    if s + L > len(examples):
        raise WitnessError(f"cycle: examples {s + 1}..{s + L} do not exist; the sequence has {len(examples)}")
    where = "before the first example" if s == 0 else f"after example {s}"
    before = _run(_start(build_learner(name, params, cls), cls, errors), name, examples[:s])[0]
    after = _run(before, name, examples[s:s + L], s)[0]
    randomized = r.probabilities is not None  # its coins are not part of the game: its distribution is
    keys = {}
    for t, pos in ((s, before), (s + L, after)):
        try:
            keys[t] = pos.learner.distribution_key() if randomized else pos.learner.state_key()
        except Exception as e:  # noqa: BLE001 - a learner's failure is the witness's problem
            raise WitnessError(f"cycle: learner {name} failed to report its state: {one_line(e)}") from None
    if keys[s] != keys[s + L]:
        what = "distribution" if randomized else "state"
        raise WitnessError(f"cycle: the learner's {what} {where} differs from its {what} after example {s + L}; "
                           "the cycle does not close")
    if cls.finite:
        if errors:
            if cls.levels(examples[:s], errors) != cls.levels(examples[:s + L], errors):
                raise WitnessError(f"cycle: the concepts' remaining label errors {where} differ from those after "
                                   f"example {s + L}, so the cycle cannot be repeated within {errors} errors")
        elif cls.consistent(examples[:s]) != cls.consistent(examples[:s + L]):
            raise WitnessError(f"cycle: the version space {where} differs from the one after example {s + L} "
                               "(the cycle's labels rule out concepts), so it cannot be repeated")
    if randomized:
        m = sum((p if y == 0 else 1 - p for p, (_, y) in zip(r.probabilities[s:s + L], examples[s:s + L])),
                Fraction(0))
    else:
        m = sum(1 for t in r.rounds if s <= t < s + L)
    if m == 0:
        raise WitnessError(f"cycle: no mistake among examples {s + 1}..{s + L}; repeating them gains nothing")
    return s, L, m


def _target_text(cls, examples, target) -> str:
    if cls.n_concepts is None:  # a direction w with a margin
        margin, radius = cls.margin_stats(examples, target)
        w = ", ".join(f"{float(v):.6g}" for v in target)
        if not examples:
            return f"target w = ({w}); empty sequence"
        R, gamma = cls.facts["margin"]
        return (f"target w = ({w}), smallest margin {margin:.6g} >= gamma = {num_text(gamma)}, "
                f"largest |x| {radius:.6g} <= R = {num_text(R)}")
    words = target_words(cls, target)
    name = f" ({words})" if words is not None else ""
    return f"target concept {target}{name}"


def target_words(cls, target) -> Optional[str]:
    """Concept ``target`` of a class in words (``x1 v x3``), or None when the class cannot say it.

    ``cls`` is a loaded class or a witness's class spec (``{"family": ..., "params": ...}`` or a
    matrix with optional ``"names"``): a named concept reads as its name; a family's concept as
    :func:`solvers.classes.families.concept_text` words it (a ConceptClass only when it is the family's
    own matrix, as :func:`witness_class` builds it); anything else (a margin class's w, an unnamed matrix)
    is None.

    Examples
    --------
    >>> target_words({"family": "monotone-disjunctions", "params": {"n": 4, "k": 2}}, 5)
    'x1 v x3'
    >>> target_words({"matrix": [[0, 1], [1, 1]]}, 1) is None
    True
    """
    if isinstance(cls, dict):
        if "names" in cls and cls["names"] is not None:
            names = cls["names"]
            return str(names[target]) if isinstance(target, int) and 0 <= target < len(names) else None
        family, params = cls.get("family"), cls.get("params") or {}
        if not isinstance(family, str) or family not in families.FAMILIES or isinstance(target, bool):
            return None
        if not isinstance(target, (int, np.integer)):
            return None
        try:
            return families.concept_text(family, params, int(target))
        except (ValueError, TypeError):
            return None
    if cls.n_concepts is None or isinstance(target, bool) or not isinstance(target, (int, np.integer)):
        return None
    if not 0 <= target < cls.n_concepts:
        return None
    try:
        return spec.trusted(cls).concept_text(int(target))
    except (ValueError, TypeError):
        return None


# ---------------------------------------------------------------------------------------- helpers

