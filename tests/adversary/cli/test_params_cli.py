"""``littlestone params`` when its searches stop: what is proven is printed (the trivial bounds at least), with what
it rests on, never a Python None, and the parameters not computed are named with why."""

from __future__ import annotations

import json
import re

from .checks import run


def _stopped(monkeypatch):
    import solvers.params as sp

    monkeypatch.setattr(sp, "compute", lambda C, keys, time_limit=None: {k: sp.ParamResult(k, 0, 99) for k in keys})


def test_stopped_parameters_print_their_proven_bounds_and_no_none(capsys, monkeypatch):
    _stopped(monkeypatch)
    code, out, err = run(capsys, "params", "thresholds", "N=9", "--only", "td,rtd,star", "--no-store", "--quiet")
    assert code == 3, err
    assert not re.search(r"\bNone\b", out), out  # it printed 'concept None needs 0 points, e.g. None'
    td = next(line for line in out.splitlines() if line.split()[:1] == ["td"])
    assert "1..9 (stopped: time limit)" in td and "two concepts disagree" in td, td
    star = next(line for line in out.splitlines() if line.split()[:1] == ["star"])
    assert "0..99" in star and "no witness found" in star, star
    assert "check: nothing to replay" in out and "not computed" not in out


def test_the_json_names_the_parameters_not_computed(capsys, monkeypatch):
    """A Ctrl-C between two parameters: the JSON's 'missing' names each key left out, with why."""
    import adversary.workspace.params as wp
    from solvers import interrupts

    calls = []

    def look(*a, **k):  # the first parameter's look-up takes a Ctrl-C
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr("adversary.workspace.storage.lookup", look)
    monkeypatch.setattr(interrupts, "requested", lambda: bool(calls))
    code, out, err = run(capsys, "params", "thresholds", "N=5", "--only", "vc,td", "--no-store", "--json", "--quiet")
    r = json.loads(out)
    assert r["missing"] == {"vc": "not computed (interrupted)", "td": "not computed (interrupted)"}, r
    assert code == 130, err
    assert wp.ParamsRun(["vc", "td"], {"vc": {"value": 1}}).missing == ["td"]


def test_a_stopped_bound_says_what_it_rests_on():
    """A stopped parameter without a witness: a lower bound of 0 holds for every class; a larger one (td, rtd: what
    the search refuted before it stopped) is said to be the search's, not every class's."""
    from adversary.cli.params import _stopped_text

    assert "holds for every class" in _stopped_text("td", {"lower": 0, "upper": 6, "witness": {}})
    text = _stopped_text("rtd", {"lower": 4, "upper": 7, "witness": {}})
    assert "proven by the search" in text and "every class" not in text
    assert _stopped_text("vc", {"lower": 3, "upper": 5, "bounds": "b"}) == "b"
