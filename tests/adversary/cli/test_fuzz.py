"""Random command lines for every command of :data:`adversary.cli.COMMANDS`, run in-process: whatever the
arguments, the CLI ends with an exit code of its contract (0 solved, 1 a verification failed, 2 bad input,
3 not solved within the limits; 130 only when interrupted), never an "internal error" nor a traceback,
and within a bounded time (every command that takes ``--time-limit`` gets a tiny one).

The arguments are drawn from a small vocabulary: the command's own options (read from its parser), values
small, huge, negative, not a number or empty, family and learner names with ``k=v`` parameters, and small
class files written for each example (good ones, malformed JSON, a key given twice, ragged rows or points,
empty files, ``.npy`` and ``.csv`` variants, a directory)."""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import sys
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adversary.cli import COMMANDS, build_parser, main

EXIT_CODES = {0, 1, 2, 3}

#: Examples per command (15 commands): about 150 in all, a few seconds; more with $LITTLESTONE_FUZZ_EXAMPLES.
EXAMPLES = int(os.environ.get("LITTLESTONE_FUZZ_EXAMPLES", "10"))
#: The same examples on every run (CI must not fail on an input drawn once); LITTLESTONE_FUZZ_RANDOM=1 draws new ones
#: (with LITTLESTONE_FUZZ_EXAMPLES=400 when looking for faults).
DERANDOMIZE = os.environ.get("LITTLESTONE_FUZZ_RANDOM") != "1"

#: Options not drawn: another process (a dask scheduler) or more worker processes than a test should start.
SKIPPED = {"--backend", "--scheduler", "--scheduler-timeout", "--help", "-h"}

NUMBERS = ["0", "1", "2", "3", "5", "-1", "0.5", "1/2", "99999999999999999999", "1e400", "1e-400", "nan", "inf",
           "-inf", "", "abc", "1e9"]
KEYS = ["n", "N", "k", "m", "d", "r", "p", "seed", "gamma", "R", "alpha", "theta", "beta", "empty", "false",
        "margin", "bias", "x"]
SMALL = ["0", "1", "2", "3", "4", "-1", "0.5", "99999999999999999999", "1e400", "nan", "", "abc"]

# The input files every example finds in its own directory (name -> contents).
MATRIX = [[0, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0]]
TEXT_FILES = {
    "c.json": json.dumps({"matrix": MATRIX}),
    "pts.json": json.dumps({"matrix": MATRIX, "points": [[0, 1], [1, 0], [1, 1]]}),
    "fam.json": json.dumps({"matrix": [[1, 1], [0, 1], [0, 0]], "family": "thresholds", "params": {"N": 2}}),
    "bad.json": '{"matrix": [[0, 1], ',
    "twice.json": '{"matrix": [[0, 1]], "matrix": [[1, 0]]}',
    "ragged.json": json.dumps({"matrix": [[0, 1], [1]]}),
    "raggedpts.json": json.dumps({"matrix": [[0, 1], [1, 1]], "points": [[0, 1], [1]]}),
    "numpts.json": json.dumps({"matrix": [[0, 1], [1, 1]], "points": 5}),
    "numfam.json": json.dumps({"matrix": [[0, 1], [1, 1]], "family": 3, "params": 5, "names": 7}),
    "empty.json": "",
    "emptym.json": json.dumps({"matrix": []}),
    "deep.json": "[" * 3000 + "]" * 3000,
    "two.json": json.dumps({"matrix": [[0, 2], [1, 0]]}),
    "multi.json": json.dumps({"k": 3, "matrix": [[0, 1, 2], [2, 1, 0], [1, 1, 1]]}),
    "w.json": json.dumps({"weights": [1, 2, 3]}),
    "wbad.json": json.dumps({"weights": ["x", -1, None]}),
    "tree.json": json.dumps({"depth": 1, "root": {"point": 0, "0": None, "1": None}}),
    "witness.json": json.dumps({"kind": "witness", "sequence": []}),
    "c.csv": "0,1,1\n1,1,0\n0,0,1\n",
    "ragged.csv": "0,1\n1\n",
    "letters.csv": "0,a\n",
    "empty.csv": "",
    "table.csv": "n,k,opt\n1,1,1\n2,1,2\n",
    "c.txt": "0,1\n",
    "bigint.json": '{"matrix": [[0, 1' + "0" * 400 + "]]}",
    "hugeint.json": '{"matrix": [[0, 1' + "0" * 5000 + "]]}",
    "bom.csv": "\ufeff0,1\n1,0\n",
}
BINARY_FILES = {
    "garbage.json": bytes(range(256)),
    "garbage.csv": b"\xff\xfe\x00\x81\n",
    "empty.npy": b"",
    "garbage.npy": b"not an npy file at all",
}
NPY_ARRAYS = {"c.npy": np.array(MATRIX, dtype=np.uint8), "vec.npy": np.array([0, 1, 1]),
              "three.npy": np.array([[0, 3], [1, 0]]), "f.npy": np.array([[0.5, 1.0]]),
              "s.npy": np.array([["a", "b"]]), "zero.npy": np.zeros((0, 3)),
              "rec.npy": np.zeros((2, 2), dtype=[("a", "i4")])}
INPUTS = [*TEXT_FILES, *BINARY_FILES, *NPY_ARRAYS, "cut.npy", "dir", "missing.json"]
OUTPUTS = ["out.json", "out.csv", "out.md", "out.png", "out.svg", "out.tex", "out.dot", "out.txt", "dir", "c.json",
           "nodir/out.json"]


def _cut_npy() -> bytes:
    """A 200-byte .npy whose header names a 100000 x 100000 array."""
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }"
    header += " " * (118 - len(header)) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + bytes(72)


def write_inputs(d: Path, store: Path | None = None) -> None:
    """The input files of an example, in its directory ``d`` (and a copy of ``store`` as st.db)."""
    if store is not None:
        shutil.copy(store, d / "st.db")
    for name, text in TEXT_FILES.items():
        (d / name).write_text(text)
    for name, data in BINARY_FILES.items():
        (d / name).write_bytes(data)
    for name, arr in NPY_ARRAYS.items():
        np.save(d / name, arr)
    (d / "cut.npy").write_bytes(_cut_npy())
    (d / "dir").mkdir()


def _vocabulary():
    from solvers.classes import families
    from solvers.learners import LEARNERS
    from solvers.multiclass.classes import FAMILIES as MULTICLASS
    from solvers.params.separate import parameter_keys

    fams = {name: [p.name for p in f.params] for name, f in families.FAMILIES.items()}
    fams["margin-halfspaces"] = ["d", "gamma", "R"]
    learners = {name: [p[0] for p in spec.params] for name, spec in LEARNERS.items()
                if name not in ("river", "sklearn-perceptron")}  # (optional packages: slow to import)
    multi = {name: list(f.params) for name, f in MULTICLASS.items()}
    return fams, learners, multi, list(parameter_keys())


FAMILIES, LEARNERS, MULTICLASS, SEPARABLE = _vocabulary()


def _parsers():
    """command -> [(the words that name it, its actions)]: one entry per sub-command (plot tree, ...)."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    out = {}
    for name in COMMANDS:
        p = sub.choices[name].complete()
        inner = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if inner:
            out[name] = {k: ([name, k], q.complete()._actions) for k, q in inner[0].choices.items()}
        else:
            out[name] = {None: ([name], p._actions)}
    return out


PARSERS = _parsers()


# ------------------------------------------------------------------------------------------ strategies
# Mostly small good values (so that the commands get past parsing to their work), sometimes bad ones.
GOOD = st.sampled_from(["1", "2", "3", "4"])
VALUE = st.one_of(GOOD, GOOD, GOOD, st.sampled_from(SMALL + NUMBERS))


@st.composite
def kv(draw, keys):
    """``k=v`` items: most of ``keys``, each with a value, and now and then a key not among them."""
    items = [f"{k}={draw(VALUE)}" for k in keys if draw(st.integers(0, 6))]
    if draw(st.integers(0, 5)) == 0:
        items.append(f"{draw(st.sampled_from(KEYS))}={draw(VALUE)}")
    return items


def class_spec(families):
    return st.sampled_from(sorted(families)).flatmap(lambda f: kv(families[f]).map(lambda items: [f, *items]))


def input_file():
    return st.sampled_from(INPUTS)


def a_class(families=FAMILIES, files=None):
    """``FAMILY k=v ...`` or ``--matrix FILE``."""
    files = st.sampled_from(files) if files else input_file()
    return st.one_of(class_spec(families), class_spec(families), files.map(lambda f: ["--matrix", f]))


def learner():
    return st.sampled_from(sorted(LEARNERS)).flatmap(lambda name: kv(LEARNERS[name]).map(lambda items: [name, *items]))


def grid():
    r = st.builds(lambda a, b: f"{a}..{b}", GOOD, GOOD)
    return st.lists(st.builds(lambda k, v: f"{k}={v}", st.sampled_from(["n", "N", "k", "m", "x"]),
                              st.one_of(r, r, st.sampled_from(["1,2", "3..1", "0..99999999999999999999", "a..b", ""]))),
                    min_size=1, max_size=2)


def template(command, sub):
    """A command line that is mostly right, for ``command`` (and its sub-command ``sub``)."""
    c = st.just
    if command == "opt":
        return a_class()
    if command == "export":
        return st.tuples(a_class(), st.sampled_from(OUTPUTS)).map(lambda t: [*t[0], "-o", t[1]])
    if command == "verify":
        return st.one_of(st.tuples(input_file(), a_class()).map(lambda t: [t[0], *t[1]]), input_file().map(lambda f: [f]))
    if command == "attack":
        return st.tuples(learner(), st.one_of(class_spec(FAMILIES).map(lambda x: ["--class", *x]),
                                              input_file().map(lambda f: ["--matrix", f])),
                         st.one_of(c([]), grid().map(lambda g: ["--grid", *g]))).map(lambda t: t[0] + t[1] + t[2])
    if command == "table":
        return st.tuples(class_spec(FAMILIES), grid()).map(lambda t: [*t[0], "--grid", *t[1]])
    if command == "experts":
        r = st.builds(lambda a, b: f"{a}..{b}", GOOD, GOOD)
        return st.tuples(r, st.sampled_from(["0..1", "0..2", "1", "1000000", "-1..2"])).map(lambda t: [f"n={t[0]}", f"k={t[1]}"])
    if command == "params":
        return a_class()
    if command == "separate":
        keys = st.sampled_from(SEPARABLE + ["nope"])
        return st.tuples(keys, keys, VALUE).map(lambda t: [t[0], t[1], "--points", t[2]])
    if command == "multiclass":
        return a_class(MULTICLASS, ["multi.json", *INPUTS])
    if command == "pac":
        unit = st.one_of(st.sampled_from(["0.1", "0.2", "0.5"]), st.sampled_from(["0", "1", "nan", "1e-400", "0.000001"]))
        return st.tuples(learner(), class_spec(FAMILIES), unit, unit).map(
            lambda t: [*t[0], "--class", *t[1], "--epsilon", t[2], "--delta", t[3], "--trials", "3"])
    if command == "play":
        return class_spec(FAMILIES)
    if command == "store":
        return st.tuples(st.sampled_from(["list", "show", "export", "prune"]),
                         st.one_of(c([]), st.sampled_from(["abc", "1", ""]).map(lambda k: [k]))).map(lambda t: [t[0], *t[1]])
    if command == "plot":
        out = st.sampled_from(["out.png", "out.svg", *OUTPUTS]).map(lambda o: ["-o", o])
        if sub == "tree":
            return st.tuples(input_file(), st.one_of(c([]), a_class()), out).map(lambda t: [t[0], *t[1], *t[2]])
        return st.tuples(st.lists(input_file(), max_size=2), out).map(lambda t: [*t[0], *t[1]])
    return c([])


def value_of(action):
    """A value for an option that takes one."""
    opt = action.option_strings[0]
    if action.choices:
        return st.one_of(st.sampled_from(list(action.choices)), st.just("nope"))
    if opt == "--jobs":
        return st.sampled_from(["1", "0", "-1", "x"])  # (more workers: processes a test should not start)
    if opt in ("--matrix", "--distribution", "--certificates", "--from-store", "--fact", "--store"):
        extra = ["uniform", "adversarial"] if opt == "--distribution" else ["r=1", "margin=1/2"] if opt == "--fact" else []
        return st.sampled_from(INPUTS + extra + ["st.db"])
    if opt in ("-o", "--output", "--tree", "--proof", "--witness", "--plot"):
        return st.sampled_from(OUTPUTS)
    if opt == "--time-limit":
        return st.sampled_from(["0.2", "0", "-1", "nan", "abc", "1e400"])
    if opt == "--memory":
        return st.sampled_from(["0.5", "0", "-1", "nan", "1e12", "x"])
    if opt == "--only":
        return st.sampled_from(["opt", "vc", ",,,", "", "vc,nope", "opt,vc,td"])
    if opt == "--strategy":
        return st.sampled_from(["exact", "tree", "beam", "mcts", "local", "geometric", "auto", "nope"])
    return st.sampled_from(NUMBERS + ["x=1", "opt", "n"])


@st.composite
def argv_of(draw, command):
    sub = draw(st.sampled_from(sorted(PARSERS[command], key=str)))
    prefix, actions = PARSERS[command][sub]
    actions = [a for a in actions if not isinstance(a, argparse._HelpAction)
               and not (a.option_strings and a.option_strings[0] in SKIPPED)]
    options = [a for a in actions if a.option_strings]
    loose = draw(st.integers(0, 7)) == 7  # one line in eight made of loose words, the others from the template
    argv = list(prefix) + draw(st.lists(word(), min_size=1, max_size=4) if loose else template(command, sub))
    for a in draw(st.lists(st.sampled_from(options), max_size=3)) if options else []:
        argv.append(a.option_strings[-1])
        if a.nargs == 0:
            continue
        n = draw(st.integers(1, 2)) if a.nargs in ("+", "*") else 1
        argv += [draw(value_of(a)) for _ in range(n)]
    strings = {s for a in options for s in a.option_strings}
    if "--no-store" in strings and draw(st.integers(0, 3)):
        argv.append("--no-store")
    elif "--store" in strings and "--store" not in argv:
        argv += ["--store", "st.db"]
    if "--time-limit" in strings:
        argv += ["--time-limit", "0.2"]  # the last one given counts
    return argv


def word():
    """A loose positional word: a family or learner name, a k=v parameter, a file, a number, a grid range."""
    item = st.builds(lambda k, v: f"{k}={v}", st.sampled_from(KEYS), st.sampled_from(SMALL))
    rng = st.builds(lambda k, a, b: f"{k}={a}..{b}", st.sampled_from(KEYS), st.sampled_from(SMALL), st.sampled_from(SMALL))
    return st.one_of(st.sampled_from(sorted(FAMILIES) + ["nope"]), st.sampled_from(sorted(LEARNERS)), item, rng,
                     input_file(), st.sampled_from(NUMBERS), st.sampled_from(["list", "show", "opt", "vc", "full"]))


# ------------------------------------------------------------------------------------------ the test
def run_in(directory: Path, argv, capsys):
    old_cwd, old_stdin = os.getcwd(), sys.stdin
    os.chdir(directory)
    sys.stdin = io.StringIO("")  # play reads moves: none come
    try:
        code = main(argv)
    finally:
        os.chdir(old_cwd)
        sys.stdin = old_stdin
    out, err = capsys.readouterr()
    return code, out, err


def check(code, out, err, argv):
    shown = " ".join(repr(a) if not a or " " in a else a for a in argv)
    assert code in EXIT_CODES, f"littlestone {shown}: exit {code}\n{err[-2000:]}"
    assert "internal error" not in err, f"littlestone {shown}:\n{err[-2000:]}"
    assert "Traceback" not in err and "Traceback" not in out, f"littlestone {shown}:\n{err[-2000:]}"
    if code == 2:
        last = err.strip().splitlines()[-1] if err.strip() else ""
        assert last.startswith("littlestone: error: "), f"littlestone {shown}: exit 2 without an error line\n{err[-2000:]}"


@pytest.fixture(scope="module")
def store_file(tmp_path_factory):
    """A results store with a few rows (opt, attack, table), for store and plot to read."""
    path = tmp_path_factory.mktemp("store") / "st.db"
    for argv in (["opt", "thresholds", "N=3"], ["attack", "halving", "--class", "thresholds", "N=3"],
                 ["table", "thresholds", "--grid", "N=1..3"]):
        assert main([*argv, "--store", str(path), "--quiet"]) == 0
    return path


@pytest.mark.parametrize("command", list(COMMANDS))
def test_random_command_lines(command, tmp_path_factory, store_file, capsys, monkeypatch):
    monkeypatch.delenv("LITTLESTONE_DEBUG", raising=False)
    monkeypatch.setenv("LITTLESTONE_STORE", "st.db")  # (relative: in each example's own directory)
    counter = iter(range(10**6))

    @settings(max_examples=EXAMPLES, deadline=timedelta(seconds=20), database=None, derandomize=DERANDOMIZE,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(argv=argv_of(command))
    def one(argv):
        d = tmp_path_factory.mktemp(f"{command}{next(counter)}")
        write_inputs(d, store_file)
        code, out, err = run_in(d, argv, capsys)
        check(code, out, err, argv)

    one()
