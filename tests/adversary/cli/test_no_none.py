"""No Python ``None`` in any command's text output, finished or stopped (a stopped params printed 'concept None needs
0 points, e.g. None'). Each case stops or not within its small limit: either way its text must say what is proven."""

from __future__ import annotations

import re

import pytest

from .checks import run

CASES = {
    "params": ["params", "random", "m=200", "N=14", "--time-limit", "0.3"],
    "opt": ["opt", "monotone-disjunctions", "n=12", "k=3", "--time-limit", "0.2"],
    "opt --errors": ["opt", "random", "m=300", "N=20", "--errors", "1", "--time-limit", "0.2"],
    "table --columns": ["table", "random", "N=12", "--grid", "m=50,100", "--cell-time-limit", "0.05", "--columns",
                        "td,rtd,star,proper,dual_vc,threshold,best_order,worst_order"],
    "table latex --randomized": ["table", "monotone-disjunctions", "--grid", "n=9", "k=3", "--randomized",
                                 "--time-limit", "0.2", "--format", "latex"],
    "multiclass": ["multiclass", "random-multiclass", "m=500", "N=20", "k=4", "--time-limit", "0.2"],
    "experts": ["experts", "n=2..4", "k=1", "--randomized", "--cell-time-limit", "0.2"],
    "attack": ["attack", "winnow2", "--class", "monotone-disjunctions", "n=8", "k=2", "--time-limit", "0.3"],
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_no_python_none_in_the_text(capsys, case):
    quiet = [] if case == "multiclass" else ["--quiet"]
    code, out, err = run(capsys, *CASES[case], "--no-store", *quiet)
    assert code in (0, 3), err
    assert out.strip()
    assert not re.search(r"\bNone\b", out + err), out + err
