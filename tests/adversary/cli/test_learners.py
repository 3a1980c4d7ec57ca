"""``littlestone learners``: every learner with its parameters, proven bound and source, printed as text
(bounds as formulas in words, sources as titles)."""

import json
import re

import pytest

from adversary.cli import main
from solvers.seeds import REFERENCES, cite, is_citation

from .checks import assert_usage_error, run


def test_learners_lists_every_learner(capsys):
    from solvers.learners import LEARNERS

    code, out, err = run(capsys, "learners")
    assert code == 0 and err == ""
    blocks = out.strip().split("\n\n")
    names = list(dict.fromkeys(s.name for s in LEARNERS.values()))
    assert [b.split()[0] for b in blocks] == names  # one block per learner, aliases folded in
    winnow2 = blocks[names.index("winnow2")]
    assert winnow2.splitlines()[0].split() == ["winnow2", "n"]
    assert "bound: 2 + 3r(1 + lg n)" in winnow2 and "source: " + cite("15-859B", 'section "Winnow algorithm"') in winnow2
    assert "bound arguments (the target's parameters): r" in winnow2
    perceptron = blocks[names.index("perceptron")]
    assert "margin=0" in perceptron and "R^2 / gamma^2" in perceptron and cite("Mehta", "section 3, Theorem 2") in perceptron
    assert "(also: hal)" in blocks[names.index("halving")]
    for b in blocks:
        assert "    bound: " in b
        assert is_citation(next(line for line in b.splitlines() if line.startswith("    source: "))[12:])


def test_learners_json(capsys):
    from solvers.learners import LEARNERS

    code, out, err = run(capsys, "learners", "--json")
    assert code == 0 and err == ""
    assert len(out.strip().splitlines()) == 1
    rows = json.loads(out)["learners"]
    assert [r["name"] for r in rows] == list(dict.fromkeys(s.name for s in LEARNERS.values()))
    by_name = {r["name"]: r for r in rows}
    assert {"name", "params", "needs_class", "bound", "bound_params", "source", "aliases"} <= set(by_name["winnow2"])
    assert by_name["halving"]["needs_class"] is True and by_name["perceptron"]["needs_class"] is False
    assert by_name["perceptron"]["params"][0] == {"name": "d", "default": None, "doc": "the dimension"}
    assert {"name": "margin", "default": 0} .items() <= by_name["perceptron"]["params"][1].items()
    assert by_name["winnow1"]["bound_params"] == ["k"] and by_name["winnow1"]["source"].startswith(cite("Rivest94"))


ARTEFACTS = [
    (re.compile(r"[^\x20-\x7e]"), "a non-ASCII character"),
    (re.compile(r"\$|\\[a-z]+"), "LaTeX"),
    (re.compile(r"\b(Fraction|Bound|np|numpy|array)\(|\{'|<[a-z_.]+ object"), "a Python repr"),
    (re.compile(r"\b\w+=(\s|\)|;|,|$)"), "a dangling keyword argument"),
    (re.compile(r"->"), "an arrow"),
    (re.compile(r"\b00[0-4]\b"), "a seed's number"),
    (re.compile(r"\[(" + "|".join(map(re.escape, REFERENCES)) + r")\]"), "a docstring citation key"),
]


def test_learners_bound_lines_read_as_text(capsys):
    assert main(["learners"]) == 0
    out = capsys.readouterr().out
    bounds = [line.split("bound: ", 1)[1] for line in out.splitlines() if line.startswith("    bound: ")]
    sources = [line.split("source: ", 1)[1] for line in out.splitlines() if line.startswith("    source: ")]
    assert len(bounds) == len(sources) >= 15
    for text in bounds:
        for pattern, what in ARTEFACTS:
            assert not pattern.search(text), f"bound line has {what}: {text!r}"
    assert all(is_citation(s) for s in sources)
    perceptron = out.split("\nperceptron ", 1)[1].split("\n\n", 1)[0]
    assert "bound: R^2 / gamma^2 (R = max |x|, gamma = the margin" in perceptron


BAD = {
    "learners unknown option": ["learners", "--xml"],
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_input_is_one_line(capsys, bad_files, case):
    assert_usage_error(*run(capsys, *[a.format(d=bad_files) for a in BAD[case]]))


@pytest.mark.parametrize("param", ["alpha=1e400", "theta=1e-400", "alpha=1e9999999999", "theta=1e-9999999999"])
def test_learner_parameter_out_of_range_is_one_line(capsys, param, tmp_path):
    """Issue 39: 'attack winnow alpha=1e400 ...' was an internal error (OverflowError, exit 1), and alpha=1e9999999999
    ran for hours (the store's key built the number before the learner refused it)."""
    for store in (["--no-store"], ["--store", tmp_path / "s.db"]):
        line = assert_usage_error(*run(capsys, "attack", "winnow", param, "--class", "monotone-disjunctions", "n=3",
                                       "k=1", *store))
        assert param.split("=")[0] in line
