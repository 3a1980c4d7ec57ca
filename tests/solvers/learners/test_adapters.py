"""The adapters of solvers.learners.adapters: scikit-learn's Perceptron and any river classifier behind
the learner protocol. Each library is optional: its tests skip without it.

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
"""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from solvers.learners import LEARNERS, Bound, Learner, SEEDS, make_learner
from solvers.seeds import is_citation
from solvers.learners import adapters
from solvers.learners.adapters import RiverClassifier, SklearnPerceptron


def random_stream(seed, d=3, length=60, gamma=0.1):
    """Points in the unit ball labelled by a random unit w* with margin >= gamma (0/1 labels)."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    out = []
    while len(out) < length:
        x = rng.uniform(-1, 1, size=d)
        if np.linalg.norm(x) <= 1 and abs(x @ w) >= gamma:
            out.append((tuple(float(v) for v in x), int(x @ w >= 0)))
    return out


def play(L, stream):
    preds = []
    for x, y in stream:
        preds.append(L.predict_one(x))
        L.learn_one(x, y)
    return preds


# ---------------------------------------------------------------------------------------- without the libraries
def test_importing_the_registry_imports_neither_library():
    code = "import sys, solvers.learners, adversary.referee, adversary.game; print('sklearn' in sys.modules, 'river' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@pytest.mark.parametrize("name, module", [("sklearn-perceptron", "sklearn"), ("river", "river")])
def test_missing_library_is_one_line(monkeypatch, name, module):
    monkeypatch.setitem(sys.modules, module, None)  # import now fails
    with pytest.raises(ValueError) as info:
        make_learner(name, {"d": 2})
    text = str(info.value)
    assert f"install the extra: pip install 'littlestone[{module}]'" in text and "\n" not in text
    assert LEARNERS[name].extra == module == adapters.EXTRAS[name]


def test_registered_as_vector_learners():
    for name in ("sklearn-perceptron", "river"):
        spec = LEARNERS[name]
        assert not spec.needs_class and spec.dim_param == "d" and is_citation(spec.source)
    assert LEARNERS["sklearn-perceptron"].bound_params == ("R", "gamma")


# ---------------------------------------------------------------------------------------- scikit-learn
@pytest.fixture
def sklearn():
    return pytest.importorskip("sklearn")


def reference(stream, d):
    """scikit-learn's rule written out: predict 1 iff <w, x> > 0; w += y x iff y <w, x> <= 0."""
    w = np.zeros(d)
    preds = []
    for x, y in stream:
        x = np.array(x)
        m = float(w @ x)
        preds.append(int(m > 0))
        s = 1 if y else -1
        if s * m <= 0:
            w = w + s * x
    return preds, tuple(float(v) for v in w)


def test_sklearn_rule_is_the_documented_one(sklearn):
    for seed in range(5):
        stream = random_stream(seed)
        L = SklearnPerceptron(3)
        assert play(L, stream) == reference(stream, 3)[0]
        assert L.state_key() == (True, reference(stream, 3)[1])


def test_sklearn_ties_and_first_prediction(sklearn):
    L = SklearnPerceptron(2)
    assert L.state_key() == (False, (0.0, 0.0)) and L.predict_one((1, 1)) == 0
    L.learn_one((1, 0), 0)            # predicted 0 = the label, but y <w, x> = 0: an update all the same
    assert L.state_key() == (True, (-1.0, 0.0))
    assert L.predict_one((0, 1)) == 0  # <w, x> = 0 predicts 0 ([Mehta]'s Perceptron predicts 1)
    assert make_learner("perceptron", {"d": 2}).predict_one((0, 1)) == 1


def test_sklearn_protocol(sklearn):
    L = make_learner("sklearn-perceptron", {"d": 3})
    assert isinstance(L, Learner) and L.name == "sklearn-perceptron"
    stream = random_stream(1, length=20)
    play(L, stream[:5])
    key = L.state_key()
    hash(key)
    M = copy.deepcopy(L)
    assert M.state_key() == key
    play(M, stream[5:])
    assert L.state_key() == key and M.state_key() != key
    play(L, stream[5:])                      # the original, independent, reaches the same state
    assert L.state_key() == M.state_key()
    params = json.loads(json.dumps(L.get_params()))
    assert params == {"d": 3} and make_learner("sklearn-perceptron", params).state_key() == (False, (0.0,) * 3)
    for y in (2, -1, 0.5, "1", None, True):
        with pytest.raises(ValueError):
            L.learn_one(stream[0][0], y)
    with pytest.raises(ValueError, match="has 2 coordinates"):
        L.predict_one((1, 2))
    # exact inputs are read as the floats scikit-learn computes with
    assert SklearnPerceptron(1).predict_one((Fraction(1, 3),)) == 0


def test_sklearn_bound_holds_on_random_separable_streams(sklearn):
    b = SklearnPerceptron(3).mistake_bound(R=1, gamma="1/10")
    assert isinstance(b, Bound) and b.value == 100 and b.source.startswith(SEEDS[1]) and "updates" in b.formula
    for seed in range(5):
        stream = random_stream(seed, gamma=0.1, length=80)
        L = SklearnPerceptron(3)
        mistakes = sum(p != y for p, (_, y) in zip(play(L, stream), stream))
        assert mistakes <= b.value
    with pytest.raises(ValueError, match="needs gamma="):
        SklearnPerceptron(2).mistake_bound(R=1)


# ---------------------------------------------------------------------------------------- river
@pytest.fixture
def river():
    return pytest.importorskip("river")


def test_river_protocol(river):
    L = make_learner("river", {"d": 3})
    assert isinstance(L, Learner) and L.get_params() == {"d": 3, "model": "linear_model.Perceptron", "kwargs": {}}
    stream = random_stream(2, length=30)
    A, B = make_learner("river", {"d": 3}), make_learner("river", {"d": 3})
    assert A.state_key() == B.state_key()
    pa, pb = play(A, stream), play(B, stream)
    assert pa == pb and set(pa) <= {0, 1} and all(type(p) is int for p in pa)
    assert A.state_key() == B.state_key() and A.state_key()[0] == "state"
    hash(A.state_key())
    C = copy.deepcopy(A)
    key = A.state_key()
    play(C, random_stream(3, length=10))
    assert C.state_key() != key and A.state_key() == key
    b = A.mistake_bound()
    assert b.value == math.inf and "no bound stated for an arbitrary river model" in b.formula
    again = make_learner("river", json.loads(json.dumps(A.get_params())))
    assert again.state_key() == make_learner("river", {"d": 3}).state_key()
    for y in (2, -1, None, True):
        with pytest.raises(ValueError):
            A.learn_one(stream[0][0], y)


def test_river_models_and_kwargs(river):
    L = make_learner("river", {"d": 2, "model": "linear_model.LogisticRegression", "kwargs": '{"l2": 0.1}'})
    assert L.get_params()["kwargs"] == {"l2": 0.1} and L.model.l2 == 0.1
    M = RiverClassifier(2, "naive_bayes.GaussianNB")
    assert M.predict_one((0.5, 0.5)) == 0            # None before any label maps to 0
    play(M, random_stream(4, d=2, length=10))
    hash(M.state_key())
    for model, message in [("linear_model.NoSuchModel", "river has no model"), ("Perceptron", "dotted name"),
                           ("os.system", "river has no model")]:
        with pytest.raises(ValueError, match=message) as info:
            make_learner("river", {"d": 2, "model": model})
        assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="kwargs must be a JSON object"):
        make_learner("river", {"d": 2, "kwargs": "l2=0.1"})
    with pytest.raises(ValueError, match="failed"):
        make_learner("river", {"d": 2, "kwargs": {"no_such_argument": 1}})


def test_river_state_key_falls_back_to_the_history(river, monkeypatch):
    def refuse(obj, path, depth=0):
        raise adapters._Unfrozen("no")

    monkeypatch.setattr(adapters, "_freeze", refuse)
    A, B = RiverClassifier(2), RiverClassifier(2)
    assert A.state_key()[0] == "history" and A.state_key() == B.state_key()
    A.learn_one((1.0, 0.0), 1)
    assert A.state_key() != B.state_key()
    B.learn_one((1.0, 0.0), 1)
    assert A.state_key() == B.state_key() and A.state_key()[1] == 1
