"""``littlestone attack``: the verdict against the proven bound, the sequence and the target in words,
the witness file, one-line errors (auto fails as the named strategy does), time limits and Ctrl-C."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from adversary.cli import main
from solvers.seeds import cite

from .checks import Watched, assert_usage_error, field, run


def test_attack_human_output(capsys, tmp_path):
    wfile = tmp_path / "w.json"
    code, out, err = run(capsys, "attack", "winnow2", "--class", "monotone-disjunctions", "n=4", "k=2",
                         "--strategy", "exact", "--witness", wfile, "--quiet")
    assert code == 0, err
    assert field(out, "learner") == "winnow2 n=4"
    assert field(out, "mistakes") == "7  (u = 4 false negatives, v = 3 false positives)"
    assert field(out, "bound").startswith("20  (2 + 3r(1 + lg n)") and cite("15-859B") in field(out, "bound")
    assert field(out, "Opt(C)") == "3"
    assert field(out, "verdict") == "below: 7 mistakes < the bound 20"
    assert field(out, "strategy").startswith("exact (the exact worst case")
    lines = [l for l in out.splitlines() if l.lstrip()[:1].isdigit() and " -> " in l]
    assert len(lines) == 7 and all("*  predicted" in l for l in lines)
    assert code == main(["verify", str(wfile)]) == 0
    assert "OK: winnow2 makes 7 mistakes" in capsys.readouterr().out


def test_attack_json(capsys):
    code, out, err = run(capsys, "attack", "halving", "--class", "thresholds", "N=7", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert {"mistakes", "bound", "verdict", "opt", "witness"} <= set(r)
    assert (r["mistakes"], r["opt"], r["verdict"], r["strategy"], r["exact"]) == (3, 3, "tight", "exact", True)
    assert r["bound"] == {"value": 3, "formula": "floor(log2 |C|)", "source": cite("OnlineAlgs", 'slide "HAL - halving algorithm"')}
    from adversary.referee import verify_witness

    assert verify_witness(r["witness"]).ok


def test_attack_unbounded_perceptron_and_verify(capsys, tmp_path):
    wfile = tmp_path / "cycle.json"
    code, out, err = run(capsys, "attack", "perceptron", "--class", "monotone-disjunctions", "n=2", "k=1",
                         "--witness", wfile, "--quiet")
    assert code == 0, err
    assert field(out, "verdict").startswith("unbounded: no finite mistake bound")
    assert field(out, "bound").startswith("none  (no bound proven for perceptron")
    assert "(0, 0) -> 0  *  predicted 1" in out
    code, out, err = run(capsys, "verify", wfile)
    assert code == 0 and "can be repeated for ever" in out
    w = json.loads(wfile.read_text())
    w["sequence"].insert(0, {"x": [1, 0], "y": 0})  # w becomes (-1, 0) first: the cycle no longer starts at 0
    w["mistakes"] = 2
    wfile.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", wfile)
    assert code == 1 and out.startswith("FAILED: cycle:")


def test_attack_matrix_file(capsys, tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"matrix": [[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]]}))
    code, out, err = run(capsys, "attack", "con", "--matrix", path, "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["mistakes"] == 3 and r["verdict"] == "tight" and r["witness"]["class"]["matrix"]


def test_attack_margin_halfspaces_parses(capsys):
    """The class is parsed and attacked to the end. No --time-limit: under one (3 s here before) whether the
    strategy's random rollouts (a fixed number, a fraction of a second's work) ran out before their share of it
    depended on the machine's load (exit 0 or 3); auto's own budget (60 s) is hundreds of times their work."""
    import importlib.util

    code, out, err = run(capsys, "attack", "perceptron", "--class", "margin-halfspaces", "d=2", "gamma=0.5",
                         "--json", "--quiet")
    if importlib.util.find_spec("adversary.strategies.geometric") is None:
        assert_usage_error(code, out, err, contains="geometric")
        return
    r = json.loads(out)
    assert code == 0 and r["stopped"] is None and r["strategy"] == "geometric", err
    assert r["class"] == {"family": "margin-halfspaces", "params": {"d": 2, "gamma": 0.5, "R": 1}}
    assert r["bound"]["value"] == 4 and r["learner"]["params"]["d"] == 2 and r["opt"] is None


# ------------------------------------------------------------------------------------------ the target in words
def test_attack_names_the_target_in_words(capsys):
    assert main(["attack", "winnow2", "--class", "monotone-disjunctions", "n=4", "k=2", "--strategy", "exact",
                 "--quiet"]) == 0
    target = field(capsys.readouterr().out, "target")
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
    assert re.fullmatch(r"concept \d", field(capsys.readouterr().out, "target"))


@pytest.mark.slow
def test_attack_on_an_implicit_class_names_the_target(capsys):
    assert main(["attack", "winnow2", "--class", "monotone-disjunctions", "n=13", "k=1", "--strategy", "beam",
                 "--time-limit", "2", "--quiet"]) == 3  # beam runs until the time limit: a lower bound
    target = field(capsys.readouterr().out, "target")
    assert re.fullmatch(r"concept \d+: (x\d+|false)", target), target


def test_attack_exact_on_an_implicit_class_counts(capsys, tmp_path):
    # Winnow on a class whose 2^13 points are not listed: exact plays its count search (no point listed)
    wfile = tmp_path / "w.json"
    code, out, err = run(capsys, "attack", "winnow1", "--class", "monotone-disjunctions", "n=13", "k=2",
                         "--strategy", "exact", "--json", "--witness", wfile, "--quiet")
    assert code == 0, err
    r = json.loads(out)
    assert r["exact"] and r["strategy"] == "exact" and r["stats"]["runs"][0]["stats"]["mode"] == "counts"
    assert r["mistakes"] == 10 and r["opt"] == 6 and r["verdict"] == "below"  # Opt by opt's search, no point listed
    assert [v["worst"] for v in r["stats"]["runs"][0]["stats"]["target_values"]] == [10, 6, 1]
    assert main(["verify", str(wfile)]) == 0
    assert "OK: winnow1 makes 10 mistakes" in capsys.readouterr().out


def test_attack_exact_stopped_is_a_lower_bound(capsys):
    code, out, err = run(capsys, "attack", "winnow2", "--class", "monotone-disjunctions", "n=14", "k=2",
                         "--strategy", "exact", "--time-limit", "1", "--quiet")
    assert code == 3, err  # not solved in the limits, as opt
    assert field(out, "strategy").endswith(" (the best sequence found, not proven worst: a lower bound; "
                                           "stopped by the time limit of 1 s)")
    assert re.fullmatch(r"at least \d+ mistakes \(stopped by the time limit\): a lower bound on the worst case; "
                        r"the bound [\d.]+ is neither met nor refuted", field(out, "verdict"))


# ------------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize("argv,needle", [
    (["attack", "winnow3", "--class", "thresholds", "N=3"], "unknown learner 'winnow3'"),
    (["attack", "halving", "--class", "thresholds", "N=3", "--strategy", "brute"], "unknown strategy 'brute'"),
    (["attack", "winnow2", "n=4", "--class", "monotone-disjunctions", "n=3"], "give n=3"),
    (["attack", "winnow2", "n", "--class", "monotone-disjunctions", "n=3"], "not name=value"),
    (["attack", "halving", "--class", "thresholds", "N=0"], "N"),
    (["attack", "halving", "--class", "threshold", "N=3"], "did you mean 'thresholds'"),
    (["attack", "halving"], "give a class"),
    (["attack", "perceptron", "--class", "margin-halfspaces", "d=2", "gamma=-1"], "gamma must be > 0"),
    (["attack", "perceptron", "--class", "margin-halfspaces", "d=2", "gamma=0.5", "--strategy", "exact"], "finite class"),
    (["attack", "halving", "--class", "margin-halfspaces", "d=2", "gamma=0.5"], "needs a finite concept class"),
    (["attack", "randomized-halving", "--class", "thresholds", "N=3", "--strategy", "beam"], "use --strategy exact"),
    (["attack", "rand-soa", "--class", "thresholds", "N=3", "--strategy", "tree"], "use --strategy exact"),
    (["attack", "soa", "errors=1", "--class", "thresholds", "N=3", "--errors", "1", "--strategy", "mcts"],
     "with label errors (--errors 1) use --strategy exact"),
    (["attack", "halving", "--class", "thresholds", "N=3", "--errors", "-1"], "give the label errors K >= 0"),
    (["attack", "halving", "--class", "thresholds", "N=3", "--errors", "one"], "is not a whole number"),
    (["attack", "halving", "--class", "thresholds", "N=3", "--errors", "1"], "attack it without --errors"),
    (["attack", "soa", "errors=1", "--class", "thresholds", "N=3", "--errors", "2"], "build it with errors=2"),
    (["attack", "perceptron", "--class", "margin-halfspaces", "d=2", "gamma=0.5", "--errors", "1"],
     "not supported on margin-halfspaces"),
    (["attack", "winnow2", "--class", "monotone-disjunctions", "n=13", "k=1", "--errors", "1"],
     "need a finite class listed point by point"),
    (["attack", "halving", "--class", "thresholds", "N=3", "--time-limit", "0"], "positive number of seconds"),
    (["attack", "halving", "--class", "thresholds", "N=3", "--witness", "w.txt"], "extension"),
])
def test_attack_errors_are_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert_usage_error(code, out, err, contains=needle)


@pytest.mark.parametrize("argv, named, needle", [
    # Winnow reads 0/1 vectors, not the points (1,), (2,), ... of thresholds
    (["attack", "winnow2", "--class", "thresholds", "N=5"], ["--strategy", "exact"], "cannot read the points"),
    # a learner of another dimension than the class
    (["attack", "perceptron", "d=4", "--class", "margin-halfspaces", "d=3", "gamma=0.5"], ["--strategy", "geometric"],
     "give d=3"),
    # gamma > R: no point has the margin
    (["attack", "perceptron", "--class", "margin-halfspaces", "d=3", "gamma=2", "R=1"], ["--strategy", "exact"],
     "is empty"),
    (["attack", "perceptron", "--class", "margin-halfspaces", "d=3", "gamma=2", "R=1"], ["--strategy", "geometric"],
     "is empty"),
])
def test_attack_auto_fails_as_the_named_strategy_does(capsys, argv, named, needle):
    code, out, err = run(capsys, *argv, "--quiet", "--time-limit", "5")
    line = assert_usage_error(code, out, err, contains=needle)
    code, out, err = run(capsys, *argv, *named, "--quiet", "--time-limit", "5")
    assert assert_usage_error(code, out, err) == line


def test_attack_auto_error_in_a_subprocess():
    r = subprocess.run([sys.executable, "-m", "adversary", "attack", "winnow2", "--class", "thresholds", "N=5"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("littlestone: error: winnow2 cannot read the points"), r.stderr


def test_attack_help_states_the_default_time_limit(capsys):
    from adversary.attack import AUTO_SECONDS

    code, out, err = run(capsys, "attack", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert f"default: {AUTO_SECONDS:g} s for auto, no limit for a strategy named with --strategy" in text


# ------------------------------------------------------------------------------------------ time limits and Ctrl-C
def test_attack_time_limit_reports_best_so_far(capsys):
    code, out, err = run(capsys, "attack", "winnow2", "--class", "monotone-disjunctions", "n=12", "k=3",
                         "--strategy", "exact", "--time-limit", "1", "--json", "--quiet")
    assert code == 3, err
    r = json.loads(out)
    assert r["stats"]["stopped"] == "time limit" and not r["exact"] and r["mistakes"] >= 1
    assert r["stopped"] == "time limit" and r["verdict"] == "stopped"


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
@pytest.mark.slow
def test_attack_ctrl_c_prints_the_best_verified_sequence(tmp_path):
    w = Watched("attack", "winnow2", "--class", "monotone-disjunctions", "n=12", "k=3", "--strategy", "exact", "--json")
    w.wait_for(r"^littlestone attack", stream="err")  # its first progress line: the search runs
    code, out, err, _ = w.stop(signal.SIGINT, to_group=False)
    assert code == 130, err
    assert "Traceback" not in err
    r = json.loads("\n".join(out))
    assert r["stats"]["stopped"] == "interrupted" and r["mistakes"] >= 1
    from adversary.referee import verify_witness

    assert verify_witness(r["witness"]).ok


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
@pytest.mark.slow
def test_attack_stopped_by_ctrl_c_stores_its_verified_lower_bound(tmp_path):
    # It printed a verified witness and stored nothing (issue 39, 9), while a time-limit stop stored it.
    from adversary.store import Store, number

    db = tmp_path / "i.db"
    w = Watched("attack", "winnow2", "--class", "monotone-disjunctions", "n=12", "k=3", "--strategy", "exact", "--json",
                "--store", db)
    w.wait_for(r"^littlestone attack", stream="err")
    code, out, err, _ = w.stop(signal.SIGINT, to_group=False)
    assert code == 130, err
    r = json.loads("\n".join(out))
    with Store(db, readonly=True) as S:
        rows = list(S.rows("attack"))
    assert len(rows) == 1, err
    assert number(rows[0].lower) == r["mistakes"] and rows[0].upper is None  # (however few a loaded machine found)
    assert rows[0].extra["result"]["stats"]["stopped"] == "interrupted"
    from adversary.referee import verify_witness

    assert verify_witness(rows[0].lower_cert).mistakes == r["mistakes"]


@pytest.mark.slow
def test_attack_time_limit_holds_for_geometric_in_high_dimension():
    # d = 1000, gamma = 0.01: 10,000 moves of 1,000 coordinates each; it used to give no output in 100 s.
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "adversary", "attack", "perceptron", "--class", "margin-halfspaces",
                        "d=1000", "gamma=0.01", "--time-limit", "3", "--json", "--quiet"],
                       capture_output=True, text=True, timeout=60)
    wall = time.monotonic() - t0
    assert r.returncode == 3, r.stderr  # stopped by the time limit below the bound: exit 3, as opt
    assert wall < 3 + 30, wall  # the limit holds (slack for a loaded machine)
    out = json.loads(r.stdout)
    assert out["strategy"] == "geometric" and out["stats"]["stopped"] == "time limit" and not out["exact"]
    assert 1 <= out["mistakes"] < 10_000 and out["verdict"] == "stopped" and out["stopped"] == "time limit"
    from adversary.referee import verify_witness

    v = verify_witness(out["witness"])
    assert v.ok and v.mistakes == out["mistakes"], v.message


# ------------------------------------------------------------------------------------------ randomized learners, label errors
def test_attack_randomized_learner_prints_exact_expectations(capsys, tmp_path):
    wfile = tmp_path / "rh.json"
    code, out, err = run(capsys, "attack", "randomized-halving", "--class", "thresholds", "N=3", "--strategy", "exact",
                         "--witness", wfile, "--quiet")
    assert code == 0, err
    assert field(out, "expected mistakes") == "13/12 (1.083333)  (expected: u = 0 on label 1, v = 13/12 on label 0)"  # H_4 - 1
    assert field(out, "bound").startswith("13/12 (1.083333)  (E[mistakes] <= H_|C| - 1")
    assert field(out, "RL(C)") == "1"
    assert field(out, "verdict") == "tight: 13/12 (1.083333) expected mistakes = the bound 13/12 (1.083333)"
    assert "(1) -> 0  P(mistake) = 1/4 (0.25)" in out
    code, out, err = run(capsys, "verify", wfile)
    assert code == 0 and "13/12 (1.083333) expected over its draws" in out
    w = json.loads(wfile.read_text())
    assert w["expected_mistakes"] == "13/12"
    w["expected_mistakes"] = "1"
    wfile.write_text(json.dumps(w))
    code, out, err = run(capsys, "verify", wfile)
    assert code == 1 and "claims 1 expected mistakes, replay gives 13/12" in out


def test_attack_rand_soa_json(capsys):
    code, out, err = run(capsys, "attack", "rand-soa", "--class", "intervals", "N=3", "--json", "--quiet")
    assert code == 0, err
    r = json.loads(out)
    assert r["verdict"] == "tight" and r["exact"] and r["game"] == {"randomized": True, "errors": 0, "symbol": "RL"}
    from fractions import Fraction

    assert Fraction(r["expected_mistakes"]) == Fraction(r["opt_fraction"] if "opt_fraction" in r else r["opt"])
    assert abs(r["mistakes"] - float(Fraction(r["expected_mistakes"]))) < 1e-12


def test_attack_with_label_errors(capsys, tmp_path):
    wfile = tmp_path / "soa.json"
    code, out, err = run(capsys, "attack", "soa", "errors=1", "--class", "thresholds", "N=7", "--errors", "1",
                         "--witness", wfile, "--quiet")
    assert code == 0, err
    assert field(out, "label errors").startswith("1 (the labels may disagree with the target 1 time)")
    assert field(out, "mistakes").split()[0] == "5" and field(out, "D_1(C)") == "5"
    assert field(out, "verdict") == "tight: 5 mistakes = the bound 5"
    code, out, err = run(capsys, "verify", wfile)
    assert code == 0 and "within 1 label error" in out
    assert json.loads(wfile.read_text())["errors"] == 1


def test_attack_weighted_majority_with_label_errors(capsys):
    code, out, err = run(capsys, "attack", "wm", "--class", "monotone-disjunctions", "n=3", "k=1", "--errors", "1",
                         "--time-limit", "1.5", "--quiet")
    assert code == 3, err  # stopped by the time limit below the bound: a lower bound only
    assert field(out, "bound").startswith("7.2283  ((ln N + m ln(1/beta))")  # (ln 4 + ln 2) / ln(4/3), m = 1
    assert field(out, "verdict").startswith("at least ")
    assert field(out, "D_1(C)")


@pytest.mark.slow
def test_attack_progress_shows_the_clock_and_the_best_so_far(capsys, monkeypatch):
    import functools

    from adversary.cli import _output, attack

    monkeypatch.setattr(attack, "Progress", functools.partial(_output.Progress, delay=0.0))
    code, out, err = run(capsys, "attack", "winnow2", "--class", "monotone-disjunctions", "n=12", "k=3",
                         "--strategy", "exact", "--time-limit", "2.5", "--json")
    assert code == 3, err
    lines = [l for l in err.splitlines() if l.startswith("littlestone attack: ")]
    assert lines[0] == "littlestone attack: 0 s of 2.5 s"  # plain lines: stderr is not a terminal
    best = [l for l in lines if re.fullmatch(r"littlestone attack: [12] s of 2\.5 s; exact: best \d+ mistakes, [\d,]+ "
                                             r"positions, [\d,]+ memo entries", l)]
    assert best, lines


def test_attack_starts_from_the_stored_mistake_tree(capsys, tmp_path):
    # Opt(C) and its tree from the store (re-checked), not computed again; the attack holds >= Opt(C) mistakes.
    db = str(tmp_path / "s.db")
    assert main(["opt", "intervals", "N=30", "--store", db, "--quiet"]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "attack", "con", "--class", "intervals", "N=30", "--strategy", "beam", "--time-limit",
                         "1", "--store", db, "--json", "--quiet")
    assert code in (0, 3), err
    r = json.loads(out)
    assert r["stats"]["opt_known"] and r["stats"]["forced"]["strategy"] == "tree"
    assert r["mistakes"] >= r["opt"] and r["verdict"] != "below"


@pytest.mark.slow
def test_attack_says_why_the_exact_search_is_not_proven(capsys):
    # "not proven worst" with no reason; only the JSON said "depth limit" (singletons N=2 is now proven: 1 mistake;
    # intervals N=4 still meets the depth limit)
    code, out, err = run(capsys, "attack", "wm", "--class", "singletons", "N=2", "--strategy", "exact", "--quiet",
                         "--no-store")
    assert code == 0 and field(out, "strategy") == "exact (the exact worst case)" and field(out, "mistakes").split()[0] == "1"
    code, out, err = run(capsys, "attack", "wm", "--class", "intervals", "N=4", "--strategy", "exact", "--quiet",
                         "--no-store")
    assert code == 3, err  # a lower bound only
    strategy = field(out, "strategy")
    assert "not proven worst" in strategy and "depth limit" in strategy and "never repeats a position" in strategy
    assert field(out, "verdict").startswith("at least ") and "depth limit" in field(out, "verdict")


@pytest.mark.parametrize("strategy", ["mcts", "local", "beam", "exact"])
@pytest.mark.parametrize("matrix", [[[]], [[0, 1, 1]], [[0, 1, 1], [0, 1, 1]]], ids=["no-points", "one", "twins"])
def test_attack_where_no_point_splits_the_class_is_settled_at_once(capsys, tmp_path, strategy, matrix):
    """No point whose both labels are realizable: 0 mistakes, proven, without a search (mcts and local spent the
    whole time limit here); the stats say why, not a stop."""
    path = tmp_path / "e.json"
    path.write_text(json.dumps({"matrix": matrix}))
    code, out, err = run(capsys, "attack", "halving", "--matrix", path, "--strategy", strategy,
                         "--time-limit", "30", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["mistakes"] == 0 and r["exact"] and r["opt"] == 0 and r["verdict"] == "tight"
    assert r["stopped"] is None and r["stats"]["runs"] == [] and "no point" in r["stats"]["settled"]


def test_attack_where_no_point_splits_but_the_learner_errs_is_searched(capsys, tmp_path):
    """One concept, but a learner that does not predict it (Winnow2 predicts 1 on the all-ones point, whose
    label is 0): a mistake is there to find, and is found."""
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"points": [[0, 0], [1, 1]], "matrix": [[0, 0]]}))
    code, out, err = run(capsys, "attack", "winnow2", "--matrix", path, "--strategy", "exact", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["mistakes"] >= 1 and "settled" not in r["stats"]


def test_a_stopped_attack_below_opt_says_what_the_mistake_tree_proves():
    """(issue 18) A stopped attack whose play did not reach Opt's proven lower bound (SOA's predictions are searches
    of their own) says that the mistake tree forces that many mistakes on any deterministic learner; a randomized
    learner's, or a run at or above the bound, does not."""
    from types import SimpleNamespace

    from adversary.cli.attack import _stopped_text

    def result(mistakes, opt, expected=False):
        return SimpleNamespace(mistakes=mistakes, opt=opt, expected=expected, errors=0, opt_symbol="Opt",
                               bound=SimpleNamespace(value=8, finite=True), stats={"stopped": "time limit", "opt_lower": opt})

    text = _stopped_text(result(0, 8), "0 mistakes")
    assert text.startswith("at least 0 mistakes (stopped by the time limit)") and "forced into 8 mistakes" in text
    assert "forced into" not in _stopped_text(result(8, 8), "8 mistakes")
    assert "forced into" not in _stopped_text(result(0, 8, expected=True), "0 expected mistakes")
    assert "forced into" not in _stopped_text(result(0, None), "0 mistakes")
