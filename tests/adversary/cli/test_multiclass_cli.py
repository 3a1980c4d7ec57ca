"""``littlestone multiclass``: both games' Opt on a multiclass family and on a file, the ratio against k ln k,
``--json`` keys, ``--tree`` (replayed by the checker), ``--game``, time limits (exit 3), and one-line errors
(exit 2) for bad families, parameters and files."""

import json
import math

import numpy as np
import pytest

from solvers.certificates.multiclass import check_tree
from solvers.multiclass import MulticlassClass, make

from .checks import assert_usage_error, field, run


def test_family_human(capsys):
    code, out, err = run(capsys, "multiclass", "multiclass-singletons", "N=3", "k=4")
    assert code == 0, err
    assert field(out, "class") == "multiclass-singletons N=3 k=4 (10 concepts, 3 points, k = 4 labels)"
    assert field(out, "opt_full").startswith("1 (the multiclass Littlestone dimension")
    assert field(out, "opt_bandit").startswith("3 (the bandit Littlestone dimension")
    assert field(out, "ratio bandit/full") == "3"
    assert field(out, "k ln k") == f"{4 * math.log(4):.4g}"
    assert field(out, "ratio / (k ln k)") == f"{3 / (4 * math.log(4)):.4g}"
    assert field(out, "opt_bandit <= k ln k * opt_full") == "yes"
    assert out.count("tree check: full tree OK") == 1 and out.count("tree check: bandit tree OK") == 1
    assert out.count("learner check: upper bound OK") == 2
    assert err == ""


def test_json_keys(capsys):
    code, out, err = run(capsys, "multiclass", "k-label-thresholds", "N=3", "k=3", "--json")
    assert code == 0, err
    assert len(out.strip().splitlines()) == 1
    r = json.loads(out)
    assert {"class", "family", "params", "k", "concepts", "points", "opt_full", "opt_bandit", "ratio", "k_ln_k",
            "ratio_over_k_ln_k", "long_bound_holds", "seconds", "full", "bandit"} <= set(r)
    assert (r["opt_full"], r["opt_bandit"], r["ratio"], r["k"], r["concepts"]) == (2, 4, 2.0, 3, 10)
    assert r["k_ln_k"] == pytest.approx(3 * math.log(3)) and r["long_bound_holds"] is True
    for game in ("full", "bandit"):
        g = r[game]
        assert {"value", "lower", "upper", "nodes", "memo", "seconds", "stopped", "tree_check", "upper_check"} <= set(g)
        assert g["stopped"] is None and g["tree_check"]["ok"] is True and g["upper_check"]["ok"] is True


@pytest.mark.parametrize("name, text", [
    ("c.json", json.dumps({"k": 5, "matrix": [[0, 1], [1, 0], [2, 2], [0, 1]]})),
    ("c.csv", "0,1\n1,0\n2,2\n"),
])
def test_file(capsys, tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    code, out, err = run(capsys, "multiclass", "--matrix", p, "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["concepts"] == 3 and r["points"] == 2 and r["k"] == (5 if name.endswith(".json") else 3)
    assert (r["opt_full"], r["opt_bandit"]) == (1, 2)
    assert r["family"] is None and r["class"] == f"matrix {p}"


def test_npy_file(capsys, tmp_path):
    np.save(tmp_path / "c.npy", make("k-label-thresholds", N=2, k=4).matrix)
    code, out, err = run(capsys, "multiclass", "--matrix", tmp_path / "c.npy", "--json")
    assert code == 0, err
    assert json.loads(out)["opt_full"] == 2


def test_tree_file_replays(capsys, tmp_path):
    out_file = tmp_path / "trees.json"
    code, out, err = run(capsys, "multiclass", "random-multiclass", "m=9", "N=3", "k=3", "seed=4", "--tree", out_file)
    assert code == 0, err
    assert str(out_file) in field(out, "trees")
    doc = json.loads(out_file.read_text())
    assert doc["kind"] == "multiclass-trees" and doc["k"] == 3
    C = make("random-multiclass", m=9, N=3, k=3, seed=4)
    assert doc["fingerprint"] == C.fingerprint()
    for game in ("full", "bandit"):
        ok, why = check_tree(C, doc[game])
        assert ok, why


def test_one_game(capsys):
    code, out, err = run(capsys, "multiclass", "multiclass-singletons", "N=2", "k=3", "--game", "bandit", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["opt_bandit"] == 2 and r["opt_full"] is None and r["ratio"] is None and "full" not in r
    code, out, err = run(capsys, "multiclass", "multiclass-singletons", "N=2", "k=3", "--game", "full")
    assert code == 0 and "opt_bandit" not in out and field(out, "opt_full").startswith("1 ")


def test_zero_full_value_has_no_ratio(capsys, tmp_path):
    p = tmp_path / "one.json"
    p.write_text("[[0, 2, 1]]")
    code, out, err = run(capsys, "multiclass", "--matrix", p)
    assert code == 0, err
    assert field(out, "ratio bandit/full") == "undefined (opt_full = 0)"


def test_time_limit_prints_bounds_and_exits_3(capsys):
    code, out, err = run(capsys, "multiclass", "k-label-thresholds", "N=10", "k=5", "--time-limit", "0.001", "--json")
    assert code == 3, err
    r = json.loads(out)
    assert r["opt_bandit"] is None and r["ratio"] is None and r["long_bound_holds"] is None
    b = r["bandit"]
    assert b["stopped"] == "time limit" and b["lower"] <= b["upper"]
    assert b["tree_check"]["ok"] is True and b["upper_check"]["ok"] is None
    code, out, err = run(capsys, "multiclass", "k-label-thresholds", "N=10", "k=5", "--time-limit", "0.001")
    assert code == 3 and "stopped by the time limit" in out


def test_a_stopped_run_keeps_the_trivial_lower_bound_and_says_what_it_rests_on(capsys):
    """Stopped at once, each game's lower bound is still 1 (two concepts differ somewhere), in text and JSON,
    with what each bound rests on, the stopped games named, and exit 3 (the value of a stopped game is open)."""
    argv = ("multiclass", "random-multiclass", "m=2000", "N=20", "k=5", "--time-limit", "0.01", "--game", "both")
    code, out, err = run(capsys, *argv, "--json")
    r = json.loads(out)
    stopped = [g for g in ("full", "bandit") if r[g]["stopped"] is not None]
    assert stopped  # 2000 concepts are not searched in 0.01 s
    assert code == 3, err
    assert r["games"] == ["full", "bandit"] and r["missing"] == {}
    assert r["stopped"] == {g: "stopped by the time limit" for g in stopped}
    for g in stopped:
        assert 1 <= r[g]["lower"] <= r[g]["upper"] and r[g]["tree_check"]["ok"] is True
        assert "counting bound" in r[g]["upper_basis"] and r[g]["lower_basis"]
    code, out, err = run(capsys, *argv)
    assert code == 3, err
    for name in ("opt_full", "opt_bandit"):
        text = field(out, name)
        if "stopped" in text:
            assert int(text.split(" <= ")[0]) >= 1, text
    assert out.count("lower bound rests on: ") == out.count("upper bound rests on: ") >= 1


def test_a_game_not_searched_is_named_missing(capsys, monkeypatch):
    """A Ctrl-C during the first game: the second is listed as missing, not silently left out."""
    from adversary.cli import multiclass as cli
    from solvers.multiclass import MulticlassSolver

    solve = MulticlassSolver.solve
    seen = []

    def solve_then_ctrl_c(self, game, **kw):
        seen.append(game)
        return solve(self, game, **kw)

    monkeypatch.setattr(MulticlassSolver, "solve", solve_then_ctrl_c)
    monkeypatch.setattr(cli, "stopping", lambda: bool(seen))
    monkeypatch.setattr(cli, "interrupted_how", lambda: "interrupted by Ctrl-C")
    code, out, err = run(capsys, "multiclass", "multiclass-singletons", "N=3", "k=4", "--json")
    r = json.loads(out)
    assert seen == ["full"] and r["missing"] == {"bandit": "not searched (interrupted by Ctrl-C)"}
    assert r["opt_full"] == 1 and r["stopped"] == {} and code != 0
    code, out, err = run(capsys, "multiclass", "multiclass-singletons", "N=3", "k=4")
    assert field(out, "opt_bandit") == "not searched (interrupted by Ctrl-C)"


def test_help_names_the_families(capsys):
    code, out, _ = run(capsys, "multiclass", "--help")
    assert code == 0
    for name in ("multiclass-singletons", "k-label-thresholds", "random-multiclass"):
        assert name in " ".join(out.split()).replace("- ", "-")


# ------------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize("argv, words", [
    (["thresholds", "N=5"], "is a 0/1 family"),
    (["multiclass-singleton", "N=2", "k=3"], "did you mean 'multiclass-singletons'"),
    (["nonsense"], "unknown multiclass family"),
    (["multiclass-singletons", "N=2"], "needs k="),
    (["multiclass-singletons", "N=2", "k=three"], "not a whole number"),
    (["multiclass-singletons", "N=2", "k=3", "q=1"], "no parameter 'q'"),
    (["multiclass-singletons", "N=0", "k=3"], "N >= 1"),
    (["multiclass-singletons", "N=2", "k=300"], "k <= 64"),
    (["k-label-thresholds", "N=60", "k=9"], "lower the parameters"),
    (["N=2", "k=3"], "not a family"),
    ([], "give a class"),
    (["multiclass-singletons", "N=2", "k=3", "--tree", "out.txt"], "unknown extension"),
    (["multiclass-singletons", "N=2", "k=3", "--time-limit", "0"], "positive number of seconds"),
    (["multiclass-singletons", "N=2", "k=3", "--game", "chess"], "invalid choice"),
])
def test_bad_arguments_are_one_line(capsys, argv, words):
    assert_usage_error(*run(capsys, "multiclass", *argv), contains=words)


@pytest.mark.parametrize("name, text, words", [
    ("ragged.json", "[[0, 1], [1]]", "one label per point"),
    ("negative.csv", "0,-1\n", "start at 0"),
    ("big.json", '{"k": 2, "matrix": [[0, 2]]}', "give k >= 3"),
    ("empty.json", "[]", "the class is empty"),
    ("letters.csv", "0,1\n1,a\n", "not a whole number"),
    ("broken.json", "[[0, 1], ", "not valid JSON"),
    ("c.txt", "0,1\n", "unknown file type"),
])
def test_bad_files_are_one_line(capsys, tmp_path, name, text, words):
    p = tmp_path / name
    p.write_text(text)
    assert_usage_error(*run(capsys, "multiclass", "--matrix", p), contains=words)


def test_matrix_and_family_together(capsys, tmp_path):
    p = tmp_path / "c.json"
    p.write_text("[[0, 1]]")
    assert_usage_error(*run(capsys, "multiclass", "multiclass-singletons", "N=2", "k=3", "--matrix", p),
                       contains="not both")
    assert_usage_error(*run(capsys, "multiclass", "--matrix", tmp_path / "missing.json"), contains="does not exist")
    assert_usage_error(*run(capsys, "multiclass", "--matrix", p, "--tree", p), contains="overwrite")


def test_bad_tree_file_comes_before_the_search(capsys, tmp_path):
    code, out, err = run(capsys, "multiclass", "k-label-thresholds", "N=40", "k=4", "--tree", tmp_path / "no" / "t.json")
    assert_usage_error(code, out, err, contains="does not exist")


def test_the_class_file_round_trips(tmp_path):
    C = make("k-label-thresholds", N=3, k=4)
    p = tmp_path / "c.json"
    p.write_text(json.dumps(C.to_json()))
    assert MulticlassClass.from_file(p) == C


def test_verify_replays_the_trees_a_run_wrote(capsys, tmp_path):
    """'littlestone verify TREES.json FAMILY ...' replays both trees of 'multiclass --tree' against the class named:
    OK for the class they were made for, FAILED for another class or a tree claiming more than it forces."""
    import json

    trees = tmp_path / "trees.json"
    code, out, err = run(capsys, "multiclass", "k-label-thresholds", "N=3", "k=3", "--tree", str(trees))
    assert code == 0, err
    code, out, err = run(capsys, "verify", str(trees), "k-label-thresholds", "N=3", "k=3")
    assert code == 0 and out.startswith("OK: full") and "\nOK: bandit" in out, out + err
    code, out, err = run(capsys, "verify", str(trees), "k-label-thresholds", "N=3", "k=4")
    assert code == 1 and "another class" in out
    data = json.loads(trees.read_text())
    data["full"]["depth"] += 1
    trees.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", str(trees), "k-label-thresholds", "N=3", "k=3")
    assert code == 1 and "FAILED: full" in out and "OK: bandit" in out
