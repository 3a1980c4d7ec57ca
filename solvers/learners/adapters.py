"""Learners from other libraries behind this package's protocol, so the adversaries can attack them.

Two optional extras; importing this module imports neither library, and building an adapter without
its library raises ``ValueError`` saying which extra to install: ``sklearn-perceptron``
(:class:`SklearnPerceptron`, extra ``sklearn``) and ``river`` (:class:`RiverClassifier`, extra ``river``);
``littlestone learners`` lists their parameters and bounds.

**scikit-learn's Perceptron** (``sklearn.linear_model.Perceptron(fit_intercept=False)``) is
``SGDClassifier(loss="perceptron", eta0=1, learning_rate="constant", penalty=None)``: its loss is the
hinge loss with threshold 0, whose gradient is -y x when y <w, x> <= 0 (y in {-1, +1}) and 0
otherwise (``sklearn/linear_model/_sgd_fast.pyx.tp``, ``Hinge.cy_gradient``). So, trained by
``partial_fit([x], [y], classes=[0, 1])`` every round, it

* predicts class 1 iff <w, x> > 0 (``decision_function > 0``), so <w, x> = 0 predicts **0** ([Mehta]'s
  Perceptron predicts 1 there: sgn(0) = +1); before its first update w = 0 and it predicts 0;
* updates w <- w + y x iff y <w, x> <= 0: on every mistake, and also on a correct 0 with <w, x> = 0.

[Mehta]'s proof of Theorem 2 goes through for this rule unchanged, counting *updates*: at an update
y <w, x> <= 0, so |w_{t+1}|^2 <= |w_t|^2 + R^2 (claim 1), and <w*, w> grows by y <w*, x> >= gamma
(claim 2). Hence at most R^2/gamma^2 updates, and so at most R^2/gamma^2 mistakes. (Derived here from
[Mehta]'s proof; arithmetic is float64, as scikit-learn's.)

**river** (``river.<module>.<Class>``, e.g. ``linear_model.Perceptron``, which has an intercept and
so is not [Mehta]'s homogeneous Perceptron): features are passed as the dict {i: x_i}, labels as the
bools False / True, and a prediction of True or 1 is 1, anything falsy (False, 0, None before the
model has seen a label) is 0. No bound is stated for an arbitrary river model.

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"

Examples
--------
>>> import pytest; _ = pytest.importorskip("sklearn")
>>> L = SklearnPerceptron(2)
>>> L.predict_one((1, 0))            # w = 0: decision 0, class 0
0
>>> L.learn_one((1, 0), 1); L.state_key()
(True, (1.0, 0.0))
>>> L.predict_one((0, 1)), L.predict_one((1, 1))     # <w, x> = 0 predicts 0
(0, 1)
>>> L.mistake_bound(R=1, gamma="1/2").value
4
"""

from __future__ import annotations

import collections
import collections.abc
import hashlib
import importlib
import json
import math
import types
from fractions import Fraction

import numpy as np

from .base import Bound, cite, OnlineLearner, as_int, as_rational, check_label, number, real_vector, rng_key
from .perceptron import margin_bound_on

__all__ = ["SklearnPerceptron", "RiverClassifier", "EXTRAS"]



def _need(module: str, who: str):
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ValueError(f"{who} needs the {module} library; install the extra: "
                         f"pip install 'littlestone[{module}]'") from None


def _positive(value, name: str, who: str) -> Fraction:
    if value is None:
        raise ValueError(f"{who}: the mistake bound needs {name}=; give R= (max |x|) and gamma= (the margin)")
    q = as_rational(value, name, who)
    if q <= 0:
        raise ValueError(f"{who}: {name} must be positive, got {q}; give {name} > 0")
    return q


class SklearnPerceptron(OnlineLearner):
    """scikit-learn's ``Perceptron(fit_intercept=False)``, one ``partial_fit`` per round.

    Rule (read from scikit-learn's source, see the module docstring): predict 1 iff <w, x> > 0, so
    w = 0 (before the first update) predicts 0; update w <- w + y x (y in {-1, +1}) iff y <w, x> <= 0.
    Bound: R^2/gamma^2, [Mehta]'s Theorem 2 whose proof bounds the updates of this rule.

    Points are converted to float64 (a Fraction that is not a binary float is rounded, as scikit-learn
    would); ``state_key()`` is ``(fitted, coef_ as a tuple of floats)``, exact since the weights are
    the floats scikit-learn holds and its constant learning rate makes them the whole state.

    Source: [Mehta] (Algorithm 2, Theorem 2); scikit-learn's ``Perceptron``.

    Parameters
    ----------
    d : int
        The dimension.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("sklearn")
    >>> L = SklearnPerceptron(2)
    >>> L.learn_one((1, 0), 0)          # correct (it predicted 0) but <w, x> = 0: it still updates
    >>> L.state_key(), L.predict_one((-1, 0))
    ((True, (-1.0, 0.0)), 1)
    """

    name = "sklearn-perceptron"
    dim_param = "d"
    zero_score_prediction = 0  # decision_function > 0 for class 1
    extra = "sklearn"
    bound_formula = ("R^2 / gamma^2 (R = max |x|, gamma = the margin of a unit w*; derived here: the Perceptron's "
                     "proof bounds scikit-learn's updates, made iff y <w, x> <= 0)")
    bound_source = cite("Mehta", "section 3, Theorem 2")
    bound_params = ("R", "gamma")
    summary = ("scikit-learn's Perceptron(fit_intercept=False), partial_fit each round; w = 0 and "
               "<w, x> = 0 predict 0 (needs pip install 'littlestone[sklearn]')")
    _deep_copied = ("model",)

    def __init__(self, d):
        who = self.name
        self.d = as_int(d, "d", who, low=1)
        _need("sklearn", who)
        from sklearn.linear_model import Perceptron

        self.model = Perceptron(fit_intercept=False, shuffle=False)
        self.fitted = False

    def _row(self, x) -> np.ndarray:
        return np.array([[float(v) for v in real_vector(x, self.d, self.name)]], dtype=np.float64)

    def predict_one(self, x) -> int:
        row = self._row(x)
        if not self.fitted:
            return 0  # w = 0, and decision 0 is class 0
        return int(self.model.predict(row)[0])

    def learn_one(self, x, y) -> None:
        y = check_label(y)
        self.model.partial_fit(self._row(x), [y], classes=[0, 1])
        self.fitted = True

    def state_key(self):
        if not self.fitted:
            return (False, (0.0,) * self.d)
        return (True, tuple(float(v) for v in self.model.coef_.ravel()))

    def get_params(self) -> dict:
        return {"d": self.d}

    def mistake_bound(self, R=None, gamma=None) -> Bound:
        """R^2/gamma^2 for |x| <= R and a unit w* with y <w*, x> >= gamma (see the class)."""
        who = self.name
        R, gamma = _positive(R, "R", who), _positive(gamma, "gamma", who)
        return Bound(number(R * R / (gamma * gamma)),
                     "R^2/gamma^2 (|x| <= R, a unit w* with y <w*, x> >= gamma; derived here: the proof of "
                     "Mehta's Theorem 2 bounds "
                     "scikit-learn's updates, made iff y <w, x> <= 0, hence its mistakes)",
                     self.bound_source)

    def bound_on(self, cls, errors: int = 0) -> Bound:
        """R^2/gamma^2 on margin halfspaces (the Perceptron's theorem); no bound on other classes."""
        return margin_bound_on(self, cls, errors)

    def __repr__(self) -> str:
        return f"SklearnPerceptron(d={self.d})"


# ---------------------------------------------------------------------------------------- river
class _Unfrozen(Exception):
    """The model's state holds something with no exact, hashable form."""


def _freeze(obj, path: frozenset, depth: int = 0):
    """A hashable, exact image of ``obj``'s state (numbers kept as they are, NaN as a string)."""
    if depth > 40:
        raise _Unfrozen("too deep")
    if obj is None or isinstance(obj, (bool, int, str, bytes, Fraction)):
        return obj
    if isinstance(obj, float):
        return "nan" if math.isnan(obj) else obj
    if isinstance(obj, np.generic):
        return _freeze(obj.item(), path, depth + 1)
    if isinstance(obj, np.ndarray):
        return ("ndarray", obj.shape, tuple(_freeze(v, path, depth + 1) for v in obj.ravel().tolist()))
    if isinstance(obj, np.random.Generator):
        return ("Generator", rng_key(obj))
    if isinstance(obj, type):
        return ("type", obj.__module__, obj.__qualname__)
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
        return ("function", getattr(obj, "__module__", ""), obj.__qualname__)
    if id(obj) in path:
        raise _Unfrozen("a cycle")
    inner = path | {id(obj)}
    if isinstance(obj, (list, tuple, collections.deque)):
        return (type(obj).__name__, tuple(_freeze(v, inner, depth + 1) for v in obj))
    if isinstance(obj, (set, frozenset)):
        return ("set", tuple(sorted((_freeze(v, inner, depth + 1) for v in obj), key=repr)))
    if isinstance(obj, collections.abc.Mapping) or (hasattr(obj, "items") and hasattr(obj, "keys")):
        items = [(_freeze(k, inner, depth + 1), _freeze(v, inner, depth + 1)) for k, v in obj.items()]
        return (type(obj).__name__, tuple(sorted(items, key=repr)))
    if hasattr(obj, "getstate") and type(obj).__name__ == "Random":
        return ("Random", _freeze(obj.getstate(), inner, depth + 1))
    if hasattr(obj, "__dict__") and not isinstance(obj, types.MethodType):
        return (type(obj).__module__, type(obj).__qualname__, _freeze(vars(obj), inner, depth + 1))
    raise _Unfrozen(type(obj).__name__)


def _kwargs(value, who: str) -> dict:
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise ValueError(f"{who}: kwargs must be a JSON object such as '{{\"l2\": 0.1}}', got {value!r}") from None
    if not isinstance(value, dict):
        raise ValueError(f"{who}: kwargs must be a JSON object such as '{{\"l2\": 0.1}}', got {value!r}")
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        raise ValueError(f"{who}: kwargs must be JSON values (numbers, strings, true/false, null, lists); "
                         "build anything else into a model of your own") from None
    return dict(value)


class RiverClassifier(OnlineLearner):
    """Any river classifier, by dotted name under ``river``, behind this package's protocol.

    Each round: ``model.predict_one({i: x_i})`` mapped to 0/1 (True or 1 is 1; False, 0 and None are
    0), then ``model.learn_one({i: x_i}, bool(y))``.

    ``state_key()`` is an exact image of the model's attributes (weights, optimizer counters, ...),
    walked recursively; when some attribute has no exact hashable form, it falls back to the number of
    ``learn_one`` calls and a SHA-256 of the labelled history. The fallback is exact too for a
    deterministic model (the same history from the same start gives the same state) but coarser: two
    histories that lead to one state get different keys, so exact search merges fewer positions.

    No mistake bound is stated for an arbitrary river model (``mistake_bound`` gives inf).

    Parameters
    ----------
    d : int
        The dimension (points are tuples of d numbers, passed as {0: x_0, ..., d-1: x_{d-1}}).
    model : str, default "linear_model.Perceptron"
        ``module.Class`` under ``river``.
    kwargs : dict or JSON text, optional
        Keyword arguments of the model's constructor (JSON values, so ``get_params`` round-trips).
    **more
        More keyword arguments of the model (Python API), merged into ``kwargs``.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("river")
    >>> L = RiverClassifier(2)
    >>> L.predict_one((1, 0))           # river's Perceptron before any label: False
    0
    >>> L.learn_one((1, 0), 1); L.predict_one((1, 0))
    1
    >>> L.get_params()
    {'d': 2, 'model': 'linear_model.Perceptron', 'kwargs': {}}
    """

    name = "river"
    dim_param = "d"
    extra = "river"
    bound_formula = "none stated for an arbitrary river model (inf)"
    bound_source = cite("Mehta", "section 3")
    summary = ("any river classifier by name, predict_one / learn_one on {i: x_i} "
               "(needs pip install 'littlestone[river]')")
    _deep_copied = ("model",)

    def __init__(self, d, model="linear_model.Perceptron", kwargs=None, **more):
        who = self.name
        self.d = as_int(d, "d", who, low=1)
        if not isinstance(model, str) or "." not in model.strip(".") or not model.replace(".", "").replace("_", "").isalnum():
            raise ValueError(f"{who}: model must be a dotted name under river such as linear_model.Perceptron, got {model!r}")
        self.kwargs = {**_kwargs(kwargs, who), **_kwargs(more, who)}
        _need("river", who)
        module_name, _, cls_name = model.rpartition(".")
        try:
            module = importlib.import_module(f"river.{module_name}")
            factory = getattr(module, cls_name)
        except (ImportError, AttributeError):
            raise ValueError(f"{who}: river has no model {model!r}; give a dotted name under river such as "
                             "linear_model.Perceptron or tree.HoeffdingTreeClassifier") from None
        try:
            self.model = factory(**self.kwargs)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{who}: river.{model}({', '.join(f'{k}={v!r}' for k, v in self.kwargs.items())}) "
                             f"failed: {' '.join(str(e).split())}") from None
        self.model_name = model
        self.updates = 0
        self.history = hashlib.sha256().hexdigest()

    def _features(self, x) -> dict:
        return {i: float(v) for i, v in enumerate(real_vector(x, self.d, self.name))}

    def predict_one(self, x) -> int:
        p = self.model.predict_one(self._features(x))
        if p is None or p is False:
            return 0
        if p is True:
            return 1
        if isinstance(p, (int, np.integer, float, np.floating)) and p in (0, 1):
            return int(p)
        raise ValueError(f"{self.name}: river.{self.model_name} predicted {p!r}; a binary classifier must predict "
                         "True/False (or 1/0)")

    def learn_one(self, x, y) -> None:
        y = check_label(y)
        features = self._features(x)
        self.model.learn_one(features, bool(y))
        self.updates += 1
        step = f"{self.history}|{sorted(features.items())!r}|{y}".encode()
        self.history = hashlib.sha256(step).hexdigest()

    def state_key(self):
        try:
            return ("state", _freeze(self.model, frozenset()))
        except (_Unfrozen, TypeError):
            return ("history", self.updates, self.history)

    def get_params(self) -> dict:
        return {"d": self.d, "model": self.model_name, "kwargs": dict(self.kwargs)}

    def mistake_bound(self, **target_params) -> Bound:
        """inf: no bound is stated for an arbitrary river model."""
        return Bound(math.inf, "no bound stated for an arbitrary river model (inf)", self.bound_source)

    def __repr__(self) -> str:
        return f"RiverClassifier(d={self.d}, model={self.model_name!r}, kwargs={self.kwargs!r})"


#: The pip extra of each adapter (the extra and the module it installs have the same name).
EXTRAS = {L.name: L.extra for L in (SklearnPerceptron, RiverClassifier)}
