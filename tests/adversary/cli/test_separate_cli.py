"""``littlestone separate``: its JSON and text outputs, the class it writes with -o (read back by ``params
--matrix`` with the same values), and one-line errors with exit 2."""

import json

import numpy as np
import pytest

from solvers.classes import ConceptClass
from solvers.opt import opt
from solvers.params import compute

from .checks import assert_usage_error, run


def test_json(capsys):
    code, out, err = run(capsys, "separate", "threshold", "opt", "--points", "3", "--json", "--quiet")
    assert code == 0, err
    r = json.loads(out)
    assert (r["gap"], r["exhaustive"], r["method"], r["examined"], r["classes"]) == (2, True, "exhaustive", 79, 79)
    assert r["values"]["threshold"]["value"] == 3 and r["values"]["opt"]["value"] == 1
    assert r["values"]["threshold"]["check"].startswith("threshold >= 3")
    assert r["values"]["opt"]["check"] == "Opt recomputed: 1"
    assert "up to isomorphism" in r["search"]
    C = ConceptClass.from_matrix(np.array(r["matrix"], dtype=bool))
    assert compute(C, ["threshold"])["threshold"].value == 3 and opt(C).value == 1


def test_text(capsys):
    code, out, err = run(capsys, "separate", "opt", "vc", "--points", "3", "--quiet")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "opt - vc on 3 points: gap 1 (opt = 2, vc = 1)"
    assert out.count("check: OK") == 2
    assert "exhaustive over all classes on 3 points up to isomorphism" in lines[-1]
    assert "examined 79 classes" in lines[-1]


def test_local_search_text(capsys):
    code, out, err = run(capsys, "separate", "opt", "vc", "--points", "6", "--concepts", "6", "--time-limit", "0.5",
                         "--seed", "3", "--quiet")
    assert code == 0, err
    assert "local search: not exhaustive (seed 3, until the time limit)" in out
    assert out.count("check: OK") == 2
    assert "class: 6 concepts, 6 points" in out


def test_output_file_reads_back(capsys, tmp_path):
    path = tmp_path / "gap.json"
    code, out, err = run(capsys, "separate", "td", "rtd", "--points", "3", "--json", "--quiet", "-o", path)
    assert code == 0 and f"to {path}" in err
    r = json.loads(out)
    assert ConceptClass.from_file(path).matrix.astype(int).tolist() == r["matrix"]
    code, out, _ = run(capsys, "params", "--matrix", path, "--only", "td,rtd", "--json", "--quiet")
    assert code == 0
    again = json.loads(out)
    assert again["td"]["value"] == r["values"]["td"]["value"] and again["rtd"]["value"] == r["values"]["rtd"]["value"]
    assert again["td"]["value"] - again["rtd"]["value"] == r["gap"] == 2


@pytest.mark.parametrize("argv, contains", [
    (["nope", "vc", "--points", "3"], "unknown parameter 'nope'"),
    (["vc", "vc", "--points", "3"], "two different"),
    (["opt", "vc", "--points", "0"], "1 to 12"),
    (["opt", "vc", "--points", "13"], "1 to 12"),
    (["opt", "vc", "--points", "3", "--concepts", "9"], "from 1 to 8"),
    (["opt", "vc", "--points", "3", "--concepts", "0"], "from 1 to 8"),
    (["opt", "vc", "--points", "x"], "--points"),
    (["opt", "vc"], "--points"),
    (["opt", "vc", "--points", "3", "--time-limit", "-1"], "positive"),
    (["opt", "vc", "--points", "3", "-o", "out.txt"], "extension"),
])
def test_bad_input(capsys, argv, contains):
    assert_usage_error(*run(capsys, "separate", *argv), contains=contains)


def test_a_relation_that_fails_is_shown_on_a_class(capsys):
    code, out, err = run(capsys, "separate", "--relation", "worst_order<=vc", "--points", 3, "--quiet")
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("relation worst_order <= vc fails on this class: worst_order = 2 > vc = 1")
    assert "check: OK" in out


def test_a_relation_that_holds_reports_the_largest_gap_and_how_far_it_looked(capsys):
    code, out, err = run(capsys, "separate", "--relation", "path<=2*threshold_chain", "--points", 3, "--json",
                         "--quiet")
    assert code == 0, err
    data = json.loads(out)
    assert data["relation"]["fails"] is False and data["exhaustive"] and data["scale"] == "2"
    assert "holds on every class on 3 points" in data["relation"]["verdict"]
    assert data["gap"] <= 0


def test_a_lower_bound_relation_is_searched_the_other_way(capsys):
    """'A>=k*B' fails where k*B - A > 0: searched as B - A/k."""
    code, out, err = run(capsys, "separate", "--relation", "vc>=1/2*worst_order", "--points", 3, "--json", "--quiet")
    data = json.loads(out)
    assert data["a"] == "worst_order" and data["b"] == "vc" and data["scale"] == "2"


@pytest.mark.parametrize("argv, says", [
    (["--relation", "vc<<opt"], "is not of the form"),
    (["vc", "opt", "--relation", "vc<=opt"], "not both"),
    (["vc"], "give two parameters A B"),
    (["--relation", "vc<=0*opt"], "must be positive"),
])
def test_relation_errors_are_one_line(capsys, argv, says):
    code, out, err = run(capsys, "separate", *argv, "--points", 3)
    assert_usage_error(code, out, err)
    assert says in err


def test_a_factor_of_zero_denominator_is_refused(capsys):
    code, out, err = run(capsys, "separate", "--relation", "vc<=1/0*opt", "--points", 2)
    assert_usage_error(code, out, err)
    assert "must be positive" in err
