"""``--randomized``, ``--errors K`` and ``--horizon T`` on ``opt``, ``table`` and ``verify``: the values of the
games beyond Opt (solvers.game_rules) as fractions and decimals, their certificates written and re-checked,
exit codes and one-line errors."""

import json

import pytest

from .checks import assert_usage_error, field, run


def test_opt_randomized_human_and_json(capsys):
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--randomized")
    assert code == 0, err
    assert field(out, "RL(C)") == "3/2 (1.5)"
    assert field(out, "game") == "the randomized optimum, RL(C)"
    assert "shattered tree that proves RL(C) >= 3/2 (1.5)" in err
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--randomized", "--errors", "1", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["exact"] == {"value": "191/64", "lower": "191/64", "upper": "191/64"}
    assert r["opt"] == pytest.approx(191 / 64) and r["symbol"] == "R_1"
    assert r["game"] == {"game": "randomized", "errors": 1, "horizon": None}


@pytest.mark.parametrize("flags, symbol, value", [
    (["--errors", "2"], "D_2", "7"),
    (["--horizon", "2"], "Opt[T=2]", "2"),
    (["--randomized", "--horizon", "3"], "RL[T=3]", "3/2 (1.5)"),
    (["--randomized"], "RL", "25/16 (1.5625)"),
])
def test_opt_certificates_verify(capsys, tmp_path, flags, symbol, value):
    tree, proof = tmp_path / "t.json", tmp_path / "p.json"
    code, out, err = run(capsys, "opt", "thresholds", "N=8", *flags, "--tree", tree, "--proof", proof)
    assert code == 0, err
    assert field(out, f"{symbol}(C)") == value
    for f in (tree, proof):
        code, out, err = run(capsys, "verify", f, "thresholds", "N=8")
        assert code == 0 and out.startswith("OK: ") and f"{symbol}(C)" in out, (out, err)
    # against another class the tree is not a certificate: one FAILED line, exit 1
    code, out, err = run(capsys, "verify", tree, "thresholds", "N=3")
    assert code == 1 and out.startswith("FAILED: ") and len(out.splitlines()) == 1


def test_verify_refuses_a_tampered_randomized_tree(capsys, tmp_path):
    tree = tmp_path / "t.json"
    run(capsys, "opt", "intervals", "N=5", "--randomized", "--tree", tree, "--quiet")
    data = json.loads(tree.read_text())
    data["value"] = "3"  # more than the tree is worth
    tree.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", tree, "intervals", "N=5")
    assert code == 1 and "less than the claimed 3" in out


def test_opt_randomized_time_limit_exit_3(capsys):
    code, out, err = run(capsys, "opt", "intervals", "N=40", "--randomized", "--time-limit", "0.3", "--quiet")
    assert code == 3, err
    assert "<= RL <=" in field(out, "RL(C)") and "not solved" in field(out, "RL(C)")


def test_opt_proof_of_an_unsolved_game_is_one_line(capsys, tmp_path):
    code, out, err = run(capsys, "opt", "intervals", "N=40", "--randomized", "--time-limit", "0.3", "--quiet",
                         "--proof", tmp_path / "p.json")
    assert code == 3  # not solved: the bounds are printed, and why no certificate of the upper one was written
    # a note with advice, never "error" (issue 36)
    assert err.strip().splitlines()[-1].startswith("littlestone: note: no upper-bound certificate written")
    assert "raise the time limit" in err and "error" not in err
    assert not (tmp_path / "p.json").exists()


@pytest.mark.parametrize("argv, contains", [
    (["opt", "thresholds", "N=3", "--errors", "-1"], "negative"),
    (["opt", "thresholds", "N=3", "--errors", "x"], "whole number"),
    (["opt", "thresholds", "N=3", "--horizon", "1.5"], "whole number"),
    (["opt", "thresholds", "N=3", "--randomized", "--engine", "table"], "table engine"),
    (["table", "thresholds", "--grid", "N=1..2", "--errors", "-2"], "negative"),
])
def test_bad_game_options_are_one_line(capsys, argv, contains):
    code, out, err = run(capsys, *argv)
    assert_usage_error(code, out, err, contains=contains)


def test_table_game_column(capsys):
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=1..4", "--randomized", "--format", "csv")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[0] == "N,|C|,|X|,Opt,RL,floor(log2 |C|),VC,seconds"
    assert [l.split(",")[4] for l in lines[1:]] == ["1/2 (0.5)", "3/4 (0.75)", "1", "9/8 (1.125)"]
    code, out, err = run(capsys, "table", "all-functions", "--grid", "n=1..2", "--errors", "1", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [(r["symbol"], r["value"]) for r in rows] == [("D_1", 3), ("D_1", 4)]
