"""Attacking a learner you bring: a class or an instance, registered or not, with its own citation in the
report and the witness; verifying such a witness says what it could and could not check.

References
----------
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import pytest

from adversary.attack import attack
from adversary.referee import verify_witness
from solvers.classes.families import make
from solvers.learners import LEARNERS, Citation, check_learner
from solvers.learners.base import Bound, VersionSpaceLearner
from solvers.opt import opt

SOURCE = "my own paper (2026), Lemma 1"


class MajorityTiesToZero(VersionSpaceLearner):
    """The majority vote of the version space with ties to 0: each mistake halves V, as for HAL
    ([OnlineAlgs], slide "HAL - halving algorithm"), so floor(log2 |C|) mistakes."""

    name = "majority-ties-to-zero"
    bound_formula = "floor(log2 |C|)"
    bound_source = SOURCE

    def predict_one(self, x) -> int:
        V1 = self.V & self.C.columns[self._column(x)]
        return int(2 * V1.bit_count() > self.V.bit_count())

    def mistake_bound(self) -> Bound:
        return Bound(self.C.log2_size(), self.bound_formula, self.bound_source)


C = make("monotone-disjunctions", n=3, k=1)  # 4 concepts: floor(log2 4) = 2 = Opt(C)


def test_an_unregistered_class_is_attacked_with_its_own_citation_and_left_unregistered():
    assert check_learner(MajorityTiesToZero, C).source == SOURCE
    r = attack(MajorityTiesToZero, C, strategy="exact")
    assert MajorityTiesToZero.name not in LEARNERS
    assert r.exact and r.mistakes == 2 == opt(C).value and r.verdict == "tight"
    assert r.bound.source == SOURCE and r.witness["bound"]["source"] == SOURCE
    assert SOURCE in repr(r) and SOURCE in r._repr_html_() and len(repr(r)) < 400
    short = r._repr_html_(rows=1)  # the witness table truncated, saying how much is left out
    assert short.count("<tr>") == 1 + 1 + 1 and f"{len(r.sequence) - 1} more examples" in short
    assert r.witness["learner"]["name"] == "majority-ties-to-zero"


def test_an_instance_is_attacked_alike_and_never_played():
    L = MajorityTiesToZero(C)
    r = attack(L, C, strategy="exact")
    assert r.mistakes == 2 and r.bound.source == SOURCE and L.V == C.full


def test_a_citation_object_reaches_the_witness():
    class Cited(MajorityTiesToZero):
        name = "majority-ties-to-zero-cited"
        bound_source = Citation(SOURCE, url="arXiv:2601.00001")

    r = attack(Cited, C, strategy="exact")
    assert r.witness["bound"]["source"] == f"{SOURCE} <arXiv:2601.00001>"


def test_workers_cannot_build_an_unregistered_learner_and_names_do_not_collide():
    with pytest.raises(ValueError, match="give jobs=1"):
        attack(MajorityTiesToZero, C, jobs=2)
    Other = type("Other", (MajorityTiesToZero,), {"name": "halving"})
    with pytest.raises(ValueError, match="taken by Halving"):
        attack(Other, C)
    assert LEARNERS["halving"].cls.__name__ == "Halving" and MajorityTiesToZero.name not in LEARNERS


def test_its_witness_is_verified_as_far_as_it_can_be():
    r = attack(MajorityTiesToZero, C, strategy="exact")
    v = verify_witness(r.witness)
    assert not v.ok and v.mistakes is None
    assert "not verified" in v.message and "unknown learner" in v.message and SOURCE in v.message
    v = verify_witness(r.witness, learner=MajorityTiesToZero)
    assert v.ok and v.mistakes == 2
    assert MajorityTiesToZero.name not in LEARNERS
    bad = dict(r.witness, mistakes=5)  # a false count is caught once the learner is given
    assert not verify_witness(bad, learner=MajorityTiesToZero).ok
    worse = dict(r.witness, sequence=[{"x": [0, 0, 0], "y": 1}, {"x": [0, 0, 0], "y": 0}])
    assert "not verified" not in verify_witness(worse).message  # what can be checked still is
