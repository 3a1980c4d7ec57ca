"""How the command line stops: Ctrl-C and SIGTERM, time limits, --jobs, output files, exit codes.

The behaviour of the process (signals, exit codes, what is on stdout when it stops) is tested through
``subprocess``; the rest in-process through ``main([...])``.
"""

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import adversary.cli as cli
from adversary.cli import EXIT_CODES, EXAMPLES, main

ROOT = Path(__file__).resolve().parents[2]
# A background process may inherit SIGINT ignored; restore Python's handler (what a terminal gives).
RUN_MAIN = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from adversary.cli import main; sys.exit(main())")
posix = pytest.mark.skipif(os.name != "posix", reason="sends signals")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(code, err, *, contains=()):
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("littlestone: error: "), err
    for word in contains:
        assert word in lines[0], lines[0]
    return lines[0]


def start(*argv, cwd=ROOT):
    """The CLI in a new process group (so that a signal reaches it and its workers, as from a terminal)."""
    return subprocess.Popen([sys.executable, "-c", RUN_MAIN, *map(str, argv)], cwd=cwd, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stop(p, sig, *, to_group: bool, timeout: float = 10.0):
    """Send ``sig``; return (exit code, stdout, stderr, seconds until it ended)."""
    t = time.monotonic()
    if to_group:
        os.killpg(p.pid, sig)
    else:
        p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"still running {timeout} s after the signal")
    return p.returncode, out, err, time.monotonic() - t


def wait_for_rows(path: Path, n: int, limit: float = 30.0) -> None:
    """Wait until ``path`` (a streamed csv table) holds a header and ``n`` rows."""
    t = time.monotonic()
    while time.monotonic() - t < limit:
        if path.exists() and len(path.read_text().splitlines()) >= n + 1:
            return
        time.sleep(0.05)
    pytest.fail(f"{path} did not get {n} rows in {limit} s")


# A grid whose first three cells are instant and whose last ones take minutes each: Opt and the VC
# dimension of ORs of at most 5 of 13 variables are both slow, so a Ctrl-C swallowed by Opt left the
# VC search running for many seconds.
SLOW_GRID = ["table", "monotone-disjunctions", "k=5", "--grid", "n=5,6,7,13,14", "--quiet"]


# ------------------------------------------------------------------------------------------ table: stops
@posix
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_table_one_ctrl_c_prints_finished_rows_and_exits_130(tmp_path, jobs):
    p = start(*SLOW_GRID, "--format", "csv", "--jobs", jobs)
    time.sleep(2.5)
    code, out, err, seconds = stop(p, signal.SIGINT, to_group=True)
    assert code == 130, err
    assert seconds < 3.0  # one Ctrl-C stops the table (the VC step used to run on with no limit)
    assert "Traceback" not in err
    rows = out.strip().splitlines()
    assert rows[0].startswith("n,k,|C|,|X|,Opt")
    assert {r.split(",")[0] for r in rows[1:4]} == {"5", "6", "7"}  # the finished cells
    m = re.search(r"interrupted: (\d+) of 5 cells computed", err)
    assert m and int(m.group(1)) >= 3, err


@posix
def test_table_sigterm_keeps_streamed_rows_in_the_output_file(tmp_path):
    out_file = tmp_path / "grid.csv"
    p = start(*SLOW_GRID, "--format", "csv", "-o", out_file)
    wait_for_rows(out_file, 3)  # the three quick cells are in the file while the slow one runs
    code, out, err, seconds = stop(p, signal.SIGTERM, to_group=False)
    assert code == 143, err
    assert seconds < 3.0
    lines = out_file.read_text().splitlines()
    assert lines[0].startswith("n,k,") and [l.split(",")[0] for l in lines[1:4]] == ["5", "6", "7"]
    assert "interrupted: 3 of 5 cells computed" in err or "interrupted: 4 of 5 cells computed" in err


@posix
def test_table_json_streams_and_closes_on_interrupt(tmp_path):
    out_file = tmp_path / "grid.json"
    p = start(*SLOW_GRID, "--format", "json", "-o", out_file)
    t = time.monotonic()
    while '"n": 7' not in (out_file.read_text() if out_file.exists() else "") and time.monotonic() - t < 30:
        time.sleep(0.05)
    code, _, err, _ = stop(p, signal.SIGINT, to_group=True)
    assert code == 130, err
    data = json.loads(out_file.read_text())  # still one valid JSON object
    assert data["complete"] is False
    assert [r["params"]["n"] for r in data["rows"]][:3] == [5, 6, 7]


# ------------------------------------------------------------------------------------------ time limits
def test_vc_search_honours_its_time_limit():
    from solvers.classes.families import make
    from solvers.vc import vc_search

    C = make("parities", n=12)  # one node of the search examines thousands of pattern classes
    t = time.monotonic()
    r = vc_search(C, time_limit=0.2)
    seconds = time.monotonic() - t
    assert r.lower <= 12 <= r.upper and r.stats["stopped"] == "time limit"
    assert seconds < 1.0, seconds  # finer deadline checks (it used to run 2.6 s, to the end, here)


def test_vc_search_ctrl_c_returns_bounds(monkeypatch):
    from solvers import vc
    from solvers.classes.families import make

    calls = {"n": 0}
    real = vc.time.monotonic

    def monotonic():
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real()

    monkeypatch.setattr(vc.time, "monotonic", monotonic)
    r = vc.vc_search(make("parities", n=10), time_limit=100)
    assert r.stats["stopped"] == "interrupted" and r.lower <= 10 <= r.upper


def test_table_time_limit_bounds_the_whole_cell(capsys):
    code, out, err = run(capsys, "table", "intervals", "--grid", "N=200", "--time-limit", "1", "--format", "json", "--quiet")
    assert code == 3, err  # not solved within the limit
    row = json.loads(out)["rows"][0]
    assert row["seconds"] < 1.6  # Opt and VC together (each used to get the whole second)
    assert row["lower"] <= 14 <= row["upper"] and row["opt"] is None
    assert "not solved within the time limit" in err


# ------------------------------------------------------------------------------------------ --jobs
def test_jobs_capped_at_usable_cpus(capsys, monkeypatch):
    monkeypatch.setattr(cli, "_usable_cpus", lambda: 2)
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--jobs", "1000", "--json")
    assert code == 0 and json.loads(out)["opt"] == 3
    assert "--jobs 1000 lowered to 2: this machine has 2 usable CPUs" in err
    code, out, err = run(capsys, "attack", "halving", "--class", "thresholds", "N=7", "--jobs", "64", "--quiet", "--json")
    assert code == 0 and "--jobs 64 lowered to 2" in err


def test_table_jobs_capped_at_cpus_and_cells(capsys, monkeypatch):
    seen = []
    import joblib

    real = joblib.Parallel

    class Spy(real):
        def __init__(self, *a, **k):
            seen.append(k.get("n_jobs"))
            super().__init__(*a, **k)

    monkeypatch.setattr(joblib, "Parallel", Spy)
    monkeypatch.setattr(cli, "_usable_cpus", lambda: 2)
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=1..4", "--jobs", "1000", "--format", "csv", "--quiet")
    assert code == 0 and seen == [2]
    assert "--jobs 1000 lowered to 2" in err and len(out.splitlines()) == 5
    monkeypatch.setattr(cli, "_usable_cpus", lambda: 8)
    seen.clear()
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=1..3", "--jobs", "1000", "--format", "csv", "--quiet")
    assert code == 0 and seen == [3] and "only 3 cells" in err


# ------------------------------------------------------------------------------------------ output files
@pytest.fixture
def hard_matrix(tmp_path):
    """A class that takes minutes: an output error must come before any of it."""
    from solvers.classes.families import make

    path = tmp_path / "hard.json"
    path.write_text(json.dumps({"matrix": make("monotone-disjunctions", n=12, k=5).matrix.astype(int).tolist()}))
    return path


@pytest.mark.parametrize("option", ["--tree", "--proof"])
def test_unwritable_output_fails_at_once(capsys, hard_matrix, option):
    t = time.monotonic()
    code, out, err = run(capsys, "opt", "--matrix", hard_matrix, option, "/proc/no-such-dir-here.json")
    one_error_line(code, err, contains=["cannot write", "/proc/no-such-dir-here.json"])
    assert time.monotonic() - t < 2.0


def test_output_must_not_be_the_input(capsys, hard_matrix, tmp_path):
    before = hard_matrix.read_text()
    code, _, err = run(capsys, "opt", "--matrix", hard_matrix, "--tree", hard_matrix)
    one_error_line(code, err, contains=["--tree", "input of --matrix"])
    code, _, err = run(capsys, "export", "--matrix", hard_matrix, "-o", hard_matrix)
    one_error_line(code, err, contains=["-o"])
    code, _, err = run(capsys, "attack", "halving", "--matrix", hard_matrix, "--witness", hard_matrix)
    one_error_line(code, err, contains=["--witness"])
    assert hard_matrix.read_text() == before


def test_tree_and_proof_naming_one_file(capsys, tmp_path):
    code, _, err = run(capsys, "opt", "thresholds", "N=7", "--tree", tmp_path / "x.json", "--proof", tmp_path / "x.json")
    one_error_line(code, err, contains=["--tree and --proof both name"])
    assert not (tmp_path / "x.json").exists()


def test_writes_are_atomic(capsys, tmp_path, monkeypatch):
    tree = tmp_path / "tree.json"
    tree.write_text("an older file\n")
    from solvers.certificate import MistakeTree

    def broken(self, path):
        Path(path).write_text('{"depth": 3, "ro')  # half written, then the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(MistakeTree, "write", broken)
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--tree", tree)
    assert code == 1 and "could not write the tree" in err
    assert tree.read_text() == "an older file\n"  # never half a file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tree.json"]  # no temporary file left behind
    monkeypatch.undo()
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--tree", tree)
    assert code == 0 and json.loads(tree.read_text())["depth"] == 3
    umask = os.umask(0)
    os.umask(umask)
    assert tree.stat().st_mode & 0o777 == 0o666 & ~umask  # as any file written in place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tree.json"]


def test_table_output_file(capsys, tmp_path):
    out_file = tmp_path / "t.md"
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=1..3", "-o", out_file, "--quiet")
    assert code == 0 and out == "" and "wrote 3 rows" in err
    assert len(out_file.read_text().splitlines()) == 5
    code, _, err = run(capsys, "table", "thresholds", "--grid", "N=1..3", "-o", tmp_path / "t.csv")
    one_error_line(code, err, contains=["unknown extension", ".md"])  # the extension matches --format


# ------------------------------------------------------------------------------------------ exit codes
def test_opt_exit_3_when_unsolved_within_the_time_limit(capsys, hard_matrix):
    code, out, err = run(capsys, "opt", "--matrix", hard_matrix, "--time-limit", "0.5", "--quiet")
    assert code == 3, err
    assert "not solved: stopped by the time limit" in out


def test_exit_codes_documented():
    helptext = cli.build_parser().format_help()
    for code, _ in EXIT_CODES:
        assert re.search(rf"^\s+{code}\s", helptext, re.M), code
    readme = (ROOT / "README.md").read_text()
    for code, _ in EXIT_CODES:
        assert re.search(rf"\b{code}\b", readme.split("## Exit codes")[1].split("\n## ")[0]), code


# ------------------------------------------------------------------------------------------ help, families, version
def test_help_examples_run_in_order(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    lines = [l.strip() for l in EXAMPLES.splitlines()[1:] if l.strip()]
    assert len(lines) >= 8
    for line in lines:
        argv = shlex.split(line)
        assert argv[0] == "littlestone"
        code = main(argv[1:])
        out, err = capsys.readouterr()
        assert code == 0, (line, err)
        assert "error" not in err, (line, err)


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args(["--version"])
    assert e.value.code == 0
    assert re.fullmatch(r"littlestone \S+\n", capsys.readouterr().out)
    assert main(["--version"]) == 0


def test_families_marks_margin_halfspaces_attack_only(capsys):
    code, out, _ = run(capsys, "families")
    assert code == 0 and "margin-halfspaces  d gamma R=1  (attack only)" in out
    for command in (["opt"], ["export"], ["table"]):
        code, out, err = run(capsys, *command, "margin-halfspaces", "d=3", "gamma=0.1")
        one_error_line(code, err, contains=["attack"])


def test_readme_first_command_notes_the_tree(capsys):
    readme = (ROOT / "README.md").read_text()
    first = readme.split("\n\n")[1].strip().splitlines()[0]
    argv = shlex.split(first.split("&&")[1])
    code, out, err = run(capsys, *argv[1:])
    assert code == 0
    assert "--tree" in err and len(err.strip().splitlines()) == 1
