"""A family's concept in words means what its row of the matrix says, checked by reading the words here.

The reader below is independent of solvers.classes.families: it parses the words and evaluates them on every
point of the class, and the result must be the concept's row.
"""

import re

import numpy as np
import pytest

from adversary.referee import witness_class, target_words
from solvers.classes.implicit import ImplicitFamily
from solvers.classes import ConceptClass
from solvers.classes.families import concept_text, make


def _literal(text: str, x) -> int:
    m = re.fullmatch(r"(~?)x(\d+)", text.strip())
    assert m, f"not a literal: {text!r}"
    v = int(x[int(m.group(2))])
    return 1 - v if m.group(1) else v


def meaning(words: str, x) -> int:
    """The label the words give point x (a tuple of ints)."""
    if words in ("true", "false"):
        return int(words == "true")
    if m := re.fullmatch(r"x >= (\d+)", words):
        return int(x[0] >= int(m.group(1)))
    if m := re.fullmatch(r"(\d+) <= x <= (\d+)", words):
        return int(int(m.group(1)) <= x[0] <= int(m.group(2)))
    if m := re.fullmatch(r"x = (\d+)", words):
        return int(x[0] == int(m.group(1)))
    if m := re.fullmatch(r"x in \{([\d, ]+)\}", words):
        return int(x[0] in {int(v) for v in m.group(1).split(",")})
    if m := re.fullmatch(r"\[(\d+), (\d+)\] x \[(\d+), (\d+)\]", words):
        a1, b1, a2, b2 = map(int, m.groups())
        return int(a1 <= x[0] <= b1 and a2 <= x[1] <= b2)
    if m := re.fullmatch(r"at least (\d+) of \{(.+)\}", words):
        return int(sum(_literal(t, x) for t in m.group(2).split(",")) >= int(m.group(1)))
    if m := re.fullmatch(r"(.+) \(mod 2\)", words):
        return sum(_literal(t, x) for t in m.group(1).split(" + ")) % 2
    if " ^ " in words:
        return int(all(_literal(t, x) for t in words.split(" ^ ")))
    return int(any(_literal(t, x) for t in words.split(" v ")))  # an OR, or a single literal


CASES = [
    ("thresholds", {"N": 5}),
    ("intervals", {"N": 4}),
    ("intervals", {"N": 3, "empty": 0}),
    ("singletons", {"N": 4}),
    ("singletons", {"N": 3, "empty": 0}),
    ("all-functions", {"n": 3}),
    ("rectangles", {"N": 3}),
    ("monotone-conjunctions", {"n": 3}),
    ("conjunctions", {"n": 2}),
    ("conjunctions", {"n": 2, "false": 0}),
    ("monotone-disjunctions", {"n": 4, "k": 2}),
    ("monotone-disjunctions", {"n": 3}),
    ("disjunctions", {"n": 3, "k": 2}),
    ("disjunctions", {"n": 2}),
    ("parities", {"n": 3}),
    ("k-of-r", {"n": 4, "r": 2, "k": 1}),
    ("k-of-r", {"n": 5, "r": 3, "k": 2}),
]


@pytest.mark.parametrize("family,params", CASES)
def test_words_match_the_matrix(family, params):
    C = make(family, **params)
    texts = [concept_text(family, params, c) for c in range(len(C))]
    assert len(set(texts)) == len(C)  # different concepts, different words
    for c, words in enumerate(texts):
        row = [meaning(words, x) for x in C.points]
        assert row == C.matrix[c].astype(int).tolist(), f"concept {c}: {words!r}"


def test_examples_in_words():
    assert concept_text("monotone-disjunctions", {"n": 4, "k": 2}, 0) == "false"
    assert concept_text("monotone-conjunctions", {"n": 3}, 0) == "true"
    assert concept_text("disjunctions", {"n": 2}, 3**2) == "true"
    assert concept_text("conjunctions", {"n": 2}, 3**2) == "false"
    assert "x0 ^ x1" in {concept_text("monotone-conjunctions", {"n": 2}, c) for c in range(4)}
    assert "x0 + x2 (mod 2)" in {concept_text("parities", {"n": 3}, c) for c in range(8)}
    assert concept_text("halfspaces", {"n": 2}, 0) is None and concept_text("decision-lists", {"n": 2}, 0) is None
    with pytest.raises(ValueError, match="not an index"):
        concept_text("thresholds", {"N": 3}, 4)


def test_implicit_family_words_match_its_labels():
    F = ImplicitFamily("disjunctions", {"n": 14, "k": 2})
    rng = np.random.default_rng(0)
    points = [tuple(int(v) for v in rng.integers(0, 2, size=14)) for _ in range(40)]
    for c in rng.choice(F.n_concepts, size=60, replace=False).tolist() + [0, F.n_concepts - 1]:
        words = F.names[c]
        assert words == target_words({"family": "disjunctions", "params": {"n": 14, "k": 2}}, c)
        assert [meaning(words, x) for x in points] == [F.label(c, x) for x in points], words


def test_target_words_trusts_only_a_family_s_own_matrix():
    C = witness_class({"family": "thresholds", "params": {"N": 4}})
    assert target_words(C, 1) == "x >= 2"
    claimed = ConceptClass(C.matrix[::-1], C.points, family="thresholds", params={"N": 4})
    assert target_words(claimed, 1) is None
    named = ConceptClass([[0, 1], [1, 1]], names=["b", "a"])
    assert target_words(named, 1) == "a" and target_words(ConceptClass([[0, 1], [1, 1]]), 1) is None
