"""What the CLI prints reads as text: bounds as formulas in words, sources as titles, targets in words."""

import json
import re

from adversary.cli import main
from solvers.seeds import REFERENCES, is_citation

# Artefacts that make a printed bound unreadable: Python reprs, LaTeX, a keyword argument left
# dangling ("with TD= (..."), an arrow for "is replaced by", a seed's number or a docstring key.
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


def _field(out: str, key: str) -> str:
    return next(line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith(key + ":"))


def test_attack_names_the_target_in_words(capsys):
    assert main(["attack", "winnow2", "--class", "monotone-disjunctions", "n=4", "k=2", "--strategy", "exact",
                 "--quiet"]) == 0
    target = _field(capsys.readouterr().out, "target")
    m = re.fullmatch(r"concept (\d+): (x\d( v x\d)?|false)", target)
    assert m, target
    assert main(["attack", "winnow2", "--class", "monotone-disjunctions", "n=4", "k=2", "--strategy", "exact",
                 "--quiet", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["witness"]["target"] == int(m.group(1)) and r["target_text"] == m.group(2)


def test_attack_on_an_unnamed_matrix_prints_only_the_index(capsys, tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"matrix": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}')
    assert main(["attack", "halving", "--matrix", str(path), "--quiet", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["target_text"] is None and isinstance(r["witness"]["target"], int)
    assert main(["attack", "halving", "--matrix", str(path), "--quiet"]) == 0
    assert re.fullmatch(r"concept \d", _field(capsys.readouterr().out, "target"))


def test_attack_on_an_implicit_class_names_the_target(capsys):
    assert main(["attack", "winnow2", "--class", "monotone-disjunctions", "n=13", "k=1", "--strategy", "beam",
                 "--time-limit", "2", "--quiet"]) == 0
    target = _field(capsys.readouterr().out, "target")
    assert re.fullmatch(r"concept \d+: (x\d+|false)", target), target
