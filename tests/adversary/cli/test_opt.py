"""``littlestone opt``: Opt(C) in words and as JSON, its certificates (``--tree``, ``--proof``), time
limits and exit code 3, Ctrl-C, ``--jobs`` and ``--memory``."""

import json
import os
import shlex
import signal

import pytest

from adversary.cli import main

from .checks import ROOT, Watched, field, run


def test_opt_thresholds_human(capsys):
    code, out, err = run(capsys, "opt", "thresholds", "N=7")
    assert code == 0, err
    assert field(out, "Opt(C)") == "3"
    assert field(out, "floor(log2 |C|)") == "3"
    assert field(out, "size") == "|C| = 8 concepts, |X| = 7 points"
    assert field(out, "class") == "thresholds N=7"
    assert field(out, "time").endswith("search nodes)")
    # under a second: no progress; one note on how to get the certificate (the README's first command)
    assert err.splitlines() == [l for l in err.splitlines() if l.startswith("littlestone: note: add --tree tree.json")]
    assert len(err.splitlines()) == 1


def test_opt_json(capsys):
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--json")
    assert code == 0, err
    assert len(out.strip().splitlines()) == 1
    r = json.loads(out)
    assert {"opt", "lower", "upper", "concepts", "points", "seconds", "log2_size", "family", "params",
            "nodes", "stopped"} <= set(r)
    assert (r["opt"], r["lower"], r["upper"]) == (3, 3, 3)
    assert (r["concepts"], r["points"], r["log2_size"]) == (8, 7, 3)
    assert r["family"] == "thresholds" and r["params"]["N"] == 7
    assert r["stopped"] is None and r["seconds"] >= 0


def test_opt_tree_then_verify(capsys, tmp_path):
    tree = tmp_path / "t.json"
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--tree", tree)
    assert code == 0, err
    assert str(tree) in field(out, "tree")
    assert json.loads(tree.read_text())["depth"] == 3
    code, out, err = run(capsys, "verify", tree, "thresholds", "N=7")
    assert code == 0, err
    assert out.strip() == "OK: Opt(C) >= 3 for thresholds N=7 (a mistake tree of depth 3)"


def test_opt_jobs(capsys):
    code, out, err = run(capsys, "opt", "thresholds", "N=100", "--jobs", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["opt"] == 6


@pytest.mark.parametrize("ext", [".dot", ".graphml"])
def test_opt_tree_formats(capsys, tmp_path, ext):
    out_file = tmp_path / f"t{ext}"
    code, _, err = run(capsys, "opt", "thresholds", "N=7", "--tree", out_file, "--quiet")
    assert code == 0, err
    text = out_file.read_text()
    assert ("digraph" in text) if ext == ".dot" else ("graphml" in text)


def test_readme_first_command_notes_the_tree(capsys):
    readme = (ROOT / "README.md").read_text()
    first = readme.split("\n\n")[1].strip().splitlines()[0]
    argv = shlex.split(first.split("&&")[1])
    code, out, err = run(capsys, *argv[1:])
    assert code == 0
    assert "--tree" in err and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------ --proof
def test_proof_written_and_verified(tmp_path, capsys):
    proof = tmp_path / "proof.json"
    code, out, err = run(capsys, *["opt", "intervals", "N=60", "--proof", str(proof), "--quiet"])
    assert code == 0 and "certificate of Opt(C) <= 10" in out
    code, out, err = run(capsys, *["verify", str(proof), "intervals", "N=60"])
    assert code == 0 and out.startswith("OK: Opt(C) <= 10 for intervals N=60 empty=1 (|C| = 1831 < 2^11, so the Halving bound ")


def test_proof_json_key_and_bad_extension(tmp_path, capsys):
    proof = tmp_path / "p.json"
    code, out, err = run(capsys, *["opt", "thresholds", "N=7", "--json", "--quiet", "--proof", str(proof)])
    assert code == 0 and json.loads(out)["proof"] == str(proof)
    code, out, err = run(capsys, *["opt", "thresholds", "N=7", "--proof", str(tmp_path / "p.txt")])
    assert code == 2 and err.startswith("littlestone: error:") and "Traceback" not in err


# ------------------------------------------------------------------------------------------ time limits and Ctrl-C
@pytest.mark.slow
def test_opt_time_limit_reports_bounds_progress_and_tree(capsys, tmp_path, hard_npy):
    tree = tmp_path / "partial.json"
    code, out, err = run(capsys, "opt", "--matrix", hard_npy, "--time-limit", "2.5", "--json", "--tree", tree)
    assert code == 3  # not solved within the limit: the bounds, and exit code 3
    r = json.loads(out)
    assert r["lower"] <= r["upper"] <= r["log2_size"]
    if r["stopped"] is not None:  # the usual case: the time limit stops the search
        assert r["stopped"] == "time limit" and r["opt"] is None
        progress = [l for l in err.splitlines() if l.startswith("littlestone opt: ")]
        assert progress and "<= Opt <=" in progress[0]  # plain lines: stderr is not a terminal
    assert json.loads(tree.read_text())["depth"] == r["lower"]
    code, out, err = run(capsys, "verify", tree, "--matrix", hard_npy)
    assert code == 0, err
    assert out.startswith(f"OK: Opt(C) >= {r['lower']} for matrix {hard_npy} (a mistake tree of depth {r['lower']})")


def test_opt_quiet_and_human_bounds(capsys, hard_npy):
    code, out, err = run(capsys, "opt", "--matrix", hard_npy, "--time-limit", "1", "--quiet")
    assert code == 3 and err == ""
    value = field(out, "Opt(C)")
    if "<=" in value:
        assert "<= Opt <=" in value and "time limit" in value


@pytest.mark.slow
def test_opt_exit_3_when_unsolved_within_the_time_limit(capsys, hard_npy):
    code, out, err = run(capsys, "opt", "--matrix", hard_npy, "--time-limit", "0.5", "--quiet")
    assert code == 3, err
    assert "not solved: stopped by the time limit" in out


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
@pytest.mark.slow
def test_ctrl_c_prints_bounds_writes_tree_exits_130(tmp_path, hard_npy):
    tree = tmp_path / "t.json"
    w = Watched("opt", "--matrix", hard_npy, "--json", "--tree", tree)
    w.wait_for(r"^littlestone opt: ", stream="err")  # its first progress line: the search runs (for minutes)
    code, out, err, _ = w.stop(signal.SIGINT, to_group=False)
    assert code == 130, err
    assert "Traceback" not in err
    r = json.loads(out[0])
    assert r["stopped"] == "interrupted" and r["lower"] <= r["upper"]
    assert json.loads(tree.read_text())["depth"] == r["lower"]


# ------------------------------------------------------------------------------------------ --memory
def test_small_memory_evicts_and_still_solves(capsys):
    """intervals N=100: about 20,000 memo entries when the memo is free; 1 MB holds fewer than 2,000."""
    from solvers.classes.families import make
    from solvers.opt import opt

    assert main(["opt", "intervals", "N=100", "--memory", "0.001", "--json", "--quiet"]) == 0
    r = json.loads(capsys.readouterr()[0])
    assert r["memo_budget_bytes"] == int(0.001 * 2**30) and r["evictions"] > 0
    assert 0 < r["memo_used_bytes"] <= r["memo_budget_bytes"]
    assert r["opt"] == opt(make("intervals", N=100)).value == 11


def test_opt_json_says_served_and_the_memo_used_beside_its_budget(capsys, tmp_path, monkeypatch):
    """(issue 18) "served" is true only when the result came from the store, false when this run computed
    (and wrote) it; the memo's budget and the bytes it used are two fields, named so."""
    monkeypatch.chdir(tmp_path)
    first = json.loads(run(capsys, "opt", "intervals", "N=30", "--json", "--memory", "0.5")[1])
    assert first["served"] is False and "stored" not in first and "memo_bytes" not in first
    assert first["memo_budget_bytes"] == int(0.5 * 2**30)
    assert 0 < first["memo_used_bytes"] < first["memo_budget_bytes"]
    second = json.loads(run(capsys, "opt", "intervals", "N=30", "--json")[1])
    assert second["served"] is True and second["opt"] == first["opt"]
    assert second["memo_budget_bytes"] is None and second["memo_used_bytes"] is None  # no search ran
    assert json.loads(run(capsys, "opt", "intervals", "N=30", "--json", "--no-store")[1])["served"] is False
