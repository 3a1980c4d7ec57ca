"""``littlestone verify WITNESS.json --learner MODULE:CLASS``: the witness of a learner attacked without being
registered (``adversary.attack(MyLearner, ...)``) replayed in full from the command line, the class imported from
a module file in the current directory; every way the import can fail is one line, exit 2."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from solvers.learners import LEARNERS

from .checks import assert_usage_error, run

MODULE = "verify_learner_module_for_tests"  # a name no other test imports

SOURCE = '''
from solvers.learners.base import Bound, VersionSpaceLearner


class MajorityTiesToZero(VersionSpaceLearner):
    """The majority vote of the version space, ties to 0: each mistake halves V (floor(log2 |C|) mistakes)."""

    name = "majority-ties-to-zero-cli"
    bound_formula = "floor(log2 |C|)"
    bound_source = "my own paper (2026), Lemma 1"

    def predict_one(self, x) -> int:
        V1 = self.V & self.C.columns[self._column(x)]
        return int(2 * V1.bit_count() > self.V.bit_count())

    def mistake_bound(self) -> Bound:
        return Bound(self.C.log2_size(), self.bound_formula, self.bound_source)


class Renamed(MajorityTiesToZero):
    name = "another-name"


class NotALearner:
    name = "majority-ties-to-zero-cli"


NUMBER = 3
'''


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A directory holding the learner's module and a witness of an attack on it, made current."""
    from adversary.attack import attack
    from solvers.classes.families import make

    (tmp_path / f"{MODULE}.py").write_text(SOURCE)
    (tmp_path / "broken_learner_module_for_tests.py").write_text("raise RuntimeError('no config file')\n")
    spec = importlib.util.spec_from_file_location("_witness_maker", tmp_path / f"{MODULE}.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)  # (another module object: the command imports its own)
    r = attack(maker.MajorityTiesToZero, make("monotone-disjunctions", n=3, k=1), strategy="exact")
    assert r.mistakes == 2
    (tmp_path / "w.json").write_text(json.dumps(r.witness))
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for name in (MODULE, "broken_learner_module_for_tests"):
        sys.modules.pop(name, None)


def test_the_witness_replays_in_full_with_its_learner(capsys, here):
    code, out, err = run(capsys, "verify", "w.json")
    assert code == 1 and "were not replayed" in out and "--learner MODULE:CLASS" in out
    code, out, err = run(capsys, "verify", "w.json", "--learner", f"{MODULE}:MajorityTiesToZero")
    assert code == 0, out + err
    assert out.startswith("OK: majority-ties-to-zero-cli makes 2 mistakes on 2 examples")
    assert "verdict tight" in out and "Opt(C) = 2, computed again" in out
    assert "majority-ties-to-zero-cli" not in LEARNERS  # registered for the replay only
    assert str(here) not in sys.path


def test_a_false_count_is_caught_once_the_learner_is_given(capsys, here):
    w = json.loads((here / "w.json").read_text())
    (here / "bad.json").write_text(json.dumps(dict(w, mistakes=5)))
    code, out, err = run(capsys, "verify", "bad.json", "--learner", f"{MODULE}:MajorityTiesToZero")
    assert code == 1 and out.startswith("FAILED: claims 5 mistakes, replay gives 2")


@pytest.mark.parametrize("learner, words", [
    ("no_such_module_anywhere:X", "no module 'no_such_module_anywhere' in the current directory"),
    (MODULE, "give MODULE:CLASS"),
    (f"{MODULE}:", "give MODULE:CLASS"),
    (f"{MODULE}:Nope", f"the module {MODULE} has no 'Nope'"),
    (f"{MODULE}:NUMBER", "is an object of type int, not an OnlineLearner subclass"),
    (f"{MODULE}:NotALearner", "is the class NotALearner, not an OnlineLearner subclass"),
    (f"{MODULE}:Renamed", "is a witness of the learner 'majority-ties-to-zero-cli'"),
    ("broken_learner_module_for_tests:X", "importing broken_learner_module_for_tests failed: RuntimeError: no config"),
])
def test_a_learner_that_cannot_be_used_is_one_line(capsys, here, learner, words):
    code, out, err = run(capsys, "verify", "w.json", "--learner", learner)
    assert words in assert_usage_error(code, out, err)


def test_learner_is_for_witnesses_only(capsys, here):
    assert run(capsys, "opt", "thresholds", "N=3", "--tree", "t.json", "--no-store", "--quiet")[0] == 0
    code, out, err = run(capsys, "verify", "t.json", "thresholds", "N=3", "--learner", f"{MODULE}:MajorityTiesToZero")
    assert "--learner is for witnesses" in assert_usage_error(code, out, err)
