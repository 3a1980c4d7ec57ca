"""The helpers of :mod:`adversary.cli._args`: argument types (seconds, workers, GB), ``--jobs`` capped at
the usable CPUs, and the class a command reads (families and parameters, class files: bad, nested too
deep, or large enough to show progress)."""

import json
from pathlib import Path

import pytest

from adversary.cli import main
from adversary.workspace import cells

from .checks import assert_one_clean_line, assert_usage_error, nested, run, run_cli


BAD = {
    # files
    "missing file": ["opt", "--matrix", "{d}/nope.json"],
    "malformed json": ["opt", "--matrix", "{d}/broken.json"],
    "no matrix key": ["opt", "--matrix", "{d}/nomatrix.json"],
    "non-0/1 json": ["opt", "--matrix", "{d}/two.json"],
    "non-0/1 csv": ["opt", "--matrix", "{d}/letters.csv"],
    "non-0/1 npy": ["opt", "--matrix", "{d}/three.npy"],
    "1-d npy": ["opt", "--matrix", "{d}/vec.npy"],
    "ragged json": ["opt", "--matrix", "{d}/ragged.json"],
    "ragged csv": ["opt", "--matrix", "{d}/ragged.csv"],
    "empty json": ["opt", "--matrix", "{d}/empty.json"],
    "empty csv": ["opt", "--matrix", "{d}/empty.csv"],
    "unknown file type": ["opt", "--matrix", "{d}/c.txt"],
    "directory": ["opt", "--matrix", "{d}"],
    # families and parameters
    "unknown family": ["opt", "treshold", "N=7"],
    "unknown parameter": ["opt", "thresholds", "N=7", "M=3"],
    "non-number value": ["opt", "thresholds", "N=x"],
    "no value": ["opt", "thresholds", "N"],
    "empty value": ["opt", "thresholds", "N="],
    "no name": ["opt", "thresholds", "=3"],
    "repeated parameter": ["opt", "thresholds", "N=3", "N=4"],
    "negative size": ["opt", "thresholds", "N=-3"],
    "k > n": ["opt", "monotone-disjunctions", "n=2", "k=5"],
    "parameter first": ["opt", "N=7"],
    "family and matrix": ["opt", "thresholds", "N=7", "--matrix", "{d}/two.json"],
    "neither family nor matrix": ["opt"],
    # options
    "time limit 0": ["opt", "thresholds", "N=7", "--time-limit", "0"],
    "time limit -1": ["opt", "thresholds", "N=7", "--time-limit", "-1"],
    "time limit abc": ["opt", "thresholds", "N=7", "--time-limit", "abc"],
    "time limit nan": ["opt", "thresholds", "N=7", "--time-limit", "nan"],
    "jobs 0": ["opt", "thresholds", "N=7", "--jobs", "0"],
    "jobs -2": ["opt", "thresholds", "N=7", "--jobs", "-2"],
    "jobs abc": ["opt", "thresholds", "N=7", "--jobs", "two"],
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_input_is_one_line(capsys, bad_files, case):
    assert_usage_error(*run(capsys, *[a.format(d=bad_files) for a in BAD[case]]))


def test_error_messages_say_what_to_change(capsys, bad_files):
    d = bad_files
    assert "0 or 1" in assert_usage_error(*run(capsys, "opt", "--matrix", d / "two.json"))
    assert "ragged" in assert_usage_error(*run(capsys, "opt", "--matrix", d / "ragged.json"))
    assert "does not exist" in assert_usage_error(*run(capsys, "opt", "--matrix", d / "nope.json"))
    assert "thresholds" in assert_usage_error(*run(capsys, "opt", "treshold", "N=7"))  # did you mean
    assert "N=8" in assert_usage_error(*run(capsys, "opt", "thresholds", "N"))
    assert "not both" in assert_usage_error(*run(capsys, "opt", "thresholds", "N=7", "--matrix", d / "two.json"))
    assert "2..5" in assert_usage_error(*run(capsys, "table", "thresholds", "--grid", "N=5..2"))
    assert "time-limit" in assert_usage_error(*run(capsys, "opt", "thresholds", "N=7", "--time-limit", "0"))


# ------------------------------------------------------------------------------------------ --jobs
def test_jobs_capped_at_usable_cpus(capsys, monkeypatch):
    monkeypatch.setattr(cells, "usable_cpus", lambda: 2)
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--jobs", "1000", "--json")
    assert code == 0 and json.loads(out)["opt"] == 3
    assert "--jobs 1000 lowered to 2: this machine has 2 usable CPUs" in err
    code, out, err = run(capsys, "attack", "halving", "--class", "thresholds", "N=7", "--jobs", "64", "--quiet", "--json")
    assert code == 0 and "--jobs 64 lowered to 2" in err


# ------------------------------------------------------------------------------------------ --memory
@pytest.mark.parametrize("value, needle", [("0", "positive"), ("-1", "positive"), ("nan", "positive"), ("inf", "finite"),
                                           ("abc", "not a number"), ("1e12", "more than this machine's memory")])
@pytest.mark.parametrize("command", [["opt", "thresholds", "N=7"], ["table", "thresholds", "--grid", "N=2..3"]])
def test_bad_memory_is_one_line(capsys, command, value, needle):
    code = main([*command, f"--memory={value}"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("littlestone: error: "), err
    assert needle in err


def test_memory_help_states_the_default(capsys):
    from solvers.opt import default_memo_bytes

    assert main(["opt", "--help"]) == 0
    out = " ".join(capsys.readouterr()[0].split())
    assert f"default {default_memo_bytes() / 2**30:.1f} GB, half of this machine's memory" in out


# ------------------------------------------------------------------------------------------ class files
def deep_class(n: int) -> str:
    return '{"matrix": [[0, 1], [1, ' + nested(n) + "]]}"


def test_a_class_file_nested_too_deep(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text(deep_class(5000))
    line = assert_one_clean_line(run_cli("opt", "--matrix", p))
    assert "levels deep" in line


def big_csv(path: Path, mb: float = 10.5) -> Path:
    """A .csv of more than ``mb`` MB whose rows repeat 4 thresholds over 2000 points (so the class,
    duplicates merged, has 4 concepts and solves at once)."""
    n = 2000
    patterns = [",".join("1" if j >= t else "0" for j in range(n)) + "\n" for t in (0, 500, 1000, 1500)]
    rows = int(mb * 1e6 / len(patterns[0])) + 1
    path.write_text("".join(patterns[i % 4] for i in range(rows)))
    return path


def test_reading_a_large_class_file_shows_progress_unless_quiet(tmp_path, capsys):
    p = big_csv(tmp_path / "big.csv")
    assert main(["opt", "--matrix", str(p), "--json"]) == 0
    out, err = capsys.readouterr()
    assert '"opt": 2' in out and '"concepts": 4' in out
    lines = err.splitlines()
    assert lines and lines[0] == f"littlestone: reading {p} (10.5 MB)", err
    assert all(line.startswith(f"littlestone: reading {p}") for line in lines), err
    assert main(["opt", "--matrix", str(p), "--json", "--quiet"]) == 0  # --quiet: nothing on stderr
    out, err = capsys.readouterr()
    assert '"opt": 2' in out and err == ""


def test_progress_callback_of_from_file(tmp_path):
    """from_file reports (bytes so far, size) for .csv and .json, ending at the size."""
    from solvers.classes import ConceptClass

    p = big_csv(tmp_path / "big.csv", mb=3)
    q = tmp_path / "big.json"
    q.write_text(json.dumps({"matrix": ConceptClass.from_file(p).matrix.astype(int).tolist() * 700}))
    for path in (p, q):
        calls = []
        C = ConceptClass.from_file(path, progress=lambda done, total: calls.append((done, total)))
        size = path.stat().st_size
        assert len(C) == 4 and calls[0] == (0, size) and calls[-1] == (size, size) and len(calls) >= 3
        assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))


def _npy_claiming(shape) -> bytes:
    """The first 200 bytes of a .npy whose header names an array of ``shape`` float64 (far more than follows)."""
    header = f"{{'descr': '<f8', 'fortran_order': False, 'shape': {shape!r}, }}"
    header += " " * (118 - len(header)) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + bytes(72)


@pytest.mark.parametrize("command", ["opt", "multiclass", "params", "export"])
def test_broken_npy_files_are_one_line(capsys, tmp_path, command):
    """Issue 39: an empty .npy was an internal error (exit 1), and a 200-byte .npy whose header names a
    100000 x 100000 array said "out of memory"; both are bad input naming the file."""
    (tmp_path / "empty.npy").write_bytes(b"")
    (tmp_path / "cut.npy").write_bytes(_npy_claiming((100000, 100000)))
    line = assert_usage_error(*run(capsys, command, "--matrix", tmp_path / "empty.npy"))
    assert "empty.npy" in line and "empty" in line.split("empty.npy", 1)[1]
    line = assert_usage_error(*run(capsys, command, "--matrix", tmp_path / "cut.npy"))
    assert "cut.npy" in line and "truncated or corrupt" in line


@pytest.mark.parametrize("points, needle", [(5, "the points must be a list"), ([[0, 1], [1]], "ragged"),
                                            ([0, [1, 2]], "ragged")])
def test_class_file_with_bad_points(capsys, tmp_path, points, needle):
    """Issue 39: "points": 5 was an internal error, and ragged points were accepted silently."""
    p = tmp_path / "c.json"
    p.write_text(json.dumps({"matrix": [[0, 1], [1, 1]], "points": points}))
    line = assert_usage_error(*run(capsys, "opt", "--matrix", p, "--no-store"))
    assert "c.json" in line and needle in line


SEEDED = {"attack": ["attack", "halving", "--class", "thresholds", "N=5", "--no-store"],
          "pac": ["pac", "halving", "--class", "thresholds", "N=5", "--epsilon", "0.1", "--delta", "0.1"],
          "separate": ["separate", "opt", "vc", "--points", "3"]}


@pytest.mark.parametrize("command", list(SEEDED))
def test_every_seed_is_one_type(capsys, command):
    """Issue 39: 'attack --seed -1' ran (and pac's), while separate refused it: one type, _args.seed, for all."""
    line = assert_usage_error(*run(capsys, *SEEDED[command], "--seed", "-1"))
    assert line.startswith("littlestone: error: argument --seed: -1 is negative; give a seed >= 0"), line
    line = assert_usage_error(*run(capsys, *SEEDED[command], "--seed", "x"))
    assert "'x' is not a whole number; give a seed >= 0" in line


@pytest.mark.parametrize("argv, option, what", [
    (["pac", "halving", "--class", "thresholds", "N=5", "--epsilon", "0.1", "--delta", "0.1"], "--trials", "trials"),
    (["plot", "tree", "t.json", "-o", "t.png"], "--max-nodes", "nodes"),
])
def test_a_positive_count_names_its_option(capsys, argv, option, what):
    """Issue 39: 'pac --trials 0' and 'plot tree --max-nodes 0' said "0 workers is not possible"."""
    line = assert_usage_error(*run(capsys, *argv, option, "0"))
    assert f"argument {option}: 0 is not possible; give a number of {what} >= 1" in line and "worker" not in line


def test_a_huge_family_parameter_says_its_maximum(capsys):
    """Issue 39: 'opt thresholds N=99999999999999999999' said "Maximum allowed size exceeded"."""
    line = assert_usage_error(*run(capsys, "opt", "thresholds", "N=99999999999999999999", "--no-store"))
    assert "N=99999999999999999999 is too large" in line and "give N at most 33554431" in line


def test_a_distribution_file_that_is_not_text_is_named(capsys, tmp_path):
    """Issue 39: a garbage --distribution file gave the raw codec error, without the file's name."""
    w = tmp_path / "w.json"
    w.write_bytes(bytes(range(256)) * 3)
    line = assert_usage_error(*run(capsys, "pac", "halving", "--class", "thresholds", "N=4", "--epsilon", "0.2",
                                   "--delta", "0.1", "--trials", "5", "--distribution", w, "--quiet"))
    assert str(w) in line and "UTF-8 JSON" in line


@pytest.mark.parametrize("value, words", [("1e400", "not strictly between 0 and 1"), ("1e9999999999", "not strictly"),
                                          ("1e-400", "too small")])
def test_pac_epsilon_beyond_a_float_is_one_line(capsys, value, words):
    """Found by the fuzz test: 'pac --epsilon 1e400' ended in a traceback (an OverflowError inside argparse), and
    1e9999999999 took hours to build as a fraction."""
    line = assert_usage_error(*run(capsys, "pac", "halving", "--class", "thresholds", "N=3", "--epsilon", value,
                                   "--delta", "0.1"))
    assert "argument --epsilon" in line and words in line


def test_pac_a_weight_with_a_huge_exponent_is_refused_at_once(capsys, tmp_path):
    w = tmp_path / "w.json"
    w.write_text('{"weights": ["1e99999999999", 1, 1]}')
    line = assert_usage_error(*run(capsys, "pac", "halving", "--class", "thresholds", "N=3", "--epsilon", "0.1",
                                   "--delta", "0.1", "--trials", "2", "--distribution", w, "--quiet"))
    assert "the weights must be numbers" in line


@pytest.mark.parametrize("argv", [["opt", "thresholds", "N=3", "--errors", "257"],
                                  ["opt", "thresholds", "N=3", "--errors", "99999999999999999999"],
                                  ["attack", "soa", "--class", "thresholds", "N=3", "--errors", "1000"],
                                  ["attack", "soa", "errors=99999999999999999999", "--class", "thresholds", "N=3"],
                                  ["attack", "rand-soa", "errors=1000", "--class", "thresholds", "N=3"]])
def test_label_errors_past_the_games_limit_are_one_line(capsys, argv):
    """Found while fuzzing: 'opt thresholds N=3 --errors 99999999999999999999' and 'attack soa errors=...' were internal
    errors (OverflowError); --errors 1000 ran 72 s past a 2 s limit into a RecursionError, and 100000 took 23 GB. The
    games' searches recurse once per mistake: at most 256 label errors."""
    line = assert_usage_error(*run(capsys, *argv, "--no-store"))
    assert "256" in line
