"""The parser and the entry points of :mod:`adversary.cli`: the console script and ``python -m adversary``,
the exit codes, the examples of ``--help`` (they run in order), ``--version``, and usage errors."""

import json
import re
import shlex
import subprocess
import sys

import pytest

from adversary.cli import EXAMPLES, EXIT_CODES, build_parser, main

from .checks import ROOT, assert_usage_error, executable, run


def test_installed_executable(tmp_path):
    exe = executable()
    if exe is None:
        pytest.skip("the littlestone console script is not installed")
    r = subprocess.run([exe, "opt", "thresholds", "N=7", "--json"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["opt"] == 3
    r = subprocess.run([exe, "opt", "thresholds", "N=x"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("littlestone: error: ")
    assert "Traceback" not in r.stderr


def test_python_m_adversary():
    r = subprocess.run([sys.executable, "-m", "adversary", "export", "thresholds", "N=2"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["matrix"] == [[1, 1], [0, 1], [0, 0]]


def test_exit_codes_documented():
    helptext = build_parser().format_help()
    for code, _ in EXIT_CODES:
        assert re.search(rf"^\s+{code}\s", helptext, re.M), code
    page = (ROOT / "docs" / "exit-codes.md").read_text()  # the documentation's page of exit codes
    for code, _ in EXIT_CODES:
        assert re.search(rf"\b{code}\b", page.split("# Exit codes")[1]), code


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
        build_parser().parse_args(["--version"])
    assert e.value.code == 0
    assert re.fullmatch(r"littlestone \S+\n", capsys.readouterr().out)
    assert main(["--version"]) == 0


def test_version_is_the_distributions():
    """The version the code reports (and each stored row records) is the one the installed distribution
    was built with: pyproject.toml reads it from solvers/_version.py."""
    from importlib.metadata import PackageNotFoundError, version

    from solvers._version import __version__

    try:
        installed = version("littlestone")
    except PackageNotFoundError:
        pytest.skip("littlestone is not installed")
    assert installed == __version__


BAD = {
    "unknown option": ["opt", "thresholds", "N=7", "--fast"],
    "unknown command": ["solve", "thresholds", "N=7"],
    "no command": [],
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_input_is_one_line(capsys, bad_files, case):
    assert_usage_error(*run(capsys, *[a.format(d=bad_files) for a in BAD[case]]))


def test_every_command_is_a_module_in_the_registry():
    """Each row of COMMANDS is a module with HELP, add(parser) and run(args); --help lists them in order."""
    from adversary.cli import COMMANDS

    assert list(COMMANDS) == ["families", "opt", "export", "learners", "verify", "attack", "table", "experts", "params",
                             "separate", "catalogue", "multiclass", "pac", "play", "store", "plot", "kernel"]
    for name, command in COMMANDS.items():
        assert command.__name__ == f"adversary.cli.{name}"
        assert isinstance(command.HELP, str) and callable(command.add) and callable(command.run)
    helptext = build_parser().format_help()
    import re

    listed = [re.search(rf"\n    {name}\s", helptext).start() for name in COMMANDS]  # a long name wraps its help
    assert listed == sorted(listed)


# The heavy modules a command that only prints needs none of: the solver (and joblib, which its
# parallel root loop imports), the attack's strategies, the store's SQLite layer and the plots.
HEAVY = ("joblib", "solvers.opt", "solvers.learners", "adversary.attack", "adversary.strategies", "adversary.store",
         "adversary.plot", "sqlite3", "matplotlib")


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["families"]])
def test_printing_commands_import_nothing_heavy(argv):
    """--version, --help and families answer at once (issue 18, section 5): they import the modules they
    need when they run, not the solver, joblib or the strategies (scripts/bench_startup.py times them)."""
    code = ("import contextlib, io, sys\n"
            "from adversary.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    code = main({argv!r})\n"
            "print(code, sorted(m for m in sys.modules if m in HEAVY or m.split('.')[0] in HEAVY\n"
            "                   or any(m.startswith(h + '.') for h in HEAVY)))\n")
    r = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n" + code], capture_output=True, text=True,
                       timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split(" ", 1)[0] == "0"
    assert r.stdout.split(" ", 1)[1].strip() == "[]", f"{argv} imported {r.stdout.split(' ', 1)[1].strip()}"


def test_a_ctrl_c_while_the_command_starts_is_one_line(monkeypatch, capsys):
    """The command's arguments are added (and its modules imported: numpy, the solvers) when it runs; a Ctrl-C
    then, before anything is computed, exits 130 with one line, not an import's traceback (seen by sending
    SIGINT to `opt --jobs 2` in its first second)."""
    import adversary.cli.opt as command

    def add(p):
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "add", add)
    assert main(["opt", "intervals", "N=4"]) == 130
    err = capsys.readouterr().err
    assert err.strip() == "littlestone: interrupted before the command started"


def test_a_ctrl_c_while_the_command_line_is_imported_is_one_line():
    """The executable's entry point imports the command line inside a guard (adversary._entry)."""
    code = ("import sys\n"
            "class Interrupting:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'adversary.cli':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Interrupting())\n"
            "from adversary._entry import main\n"
            "sys.exit(main())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 130
    assert r.stderr.strip() == "littlestone: interrupted before the command started"


def test_out_of_memory_is_a_limit_one_line_after_freeing_what_filled_it(monkeypatch, capsys):
    """Issue 39: a MemoryError that reaches the command line (the process past ``ulimit -v`` or the machine's
    memory) is "not solved within the limits" (exit 3), not bad input; and the frames of its traceback, which may
    hold what filled the memory, are let go before the line is printed (under ``ulimit -v`` printing it failed)."""
    import weakref

    import adversary.cli as cli
    import adversary.cli.pac as command

    class Big:
        pass

    held = []

    def fill(args):
        big = Big()  # what filled the memory, referenced only by this frame
        held.append(weakref.ref(big))
        raise MemoryError

    printed = []
    error = cli.error
    monkeypatch.setattr(command, "run", fill)
    monkeypatch.setattr(cli, "error", lambda *a: printed.append(held[0]() is None) or error(*a))
    code = main(["pac", "halving", "--class", "thresholds", "N=4", "--epsilon", "0.1", "--delta", "0.1"])
    err = capsys.readouterr().err
    assert code == 3 and printed == [True], (code, printed, err)
    assert err.count("\n") == 1 and err.startswith("littlestone: error: out of memory") and "lower the parameters" in err


# ------------------------------------------------------------------------------------------ --memory everywhere
_GUARDED = {  # the commands whose searches keep no memo of a set size: --memory is the memory of the whole run
    "attack": ["attack", "winnow2", "--class", "monotone-disjunctions", "n=12", "k=3", "--strategy", "exact",
               "--no-store", "--quiet"],
    "params": ["params", "all-functions", "n=14", "--no-store", "--quiet"],
    "separate": ["separate", "vc", "td", "--points", "4", "--quiet"],
    "multiclass": ["multiclass", "--matrix", "{labels}"],
    "verify": ["verify", "{witness}"],
    "pac": ["pac", "halving", "--class", "thresholds", "N=63", "--epsilon", "0.1", "--delta", "0.05", "--trials", "5000",
            "--distribution", "adversarial"],
}


@pytest.mark.parametrize("command", sorted(_GUARDED))
def test_memory_stops_a_command_as_a_limit(capsys, tmp_path, command):
    """(issue 39) --memory on every command: past it the run stops cleanly, exit 3 as for a time limit, one note
    saying so (here a limit below what the process already holds: the first look stops it)."""
    from solvers import interrupts

    if interrupts.resident_bytes() is None:
        pytest.skip("the system does not say its memory")
    argv = _GUARDED[command]
    if command == "verify":
        witness = tmp_path / "w.json"
        assert run(capsys, "attack", "winnow2", "--class", "monotone-disjunctions", "n=5", "k=2", "--strategy", "exact",
                   "--witness", witness, "--no-store", "--quiet")[0] == 0
        argv = [a.format(witness=witness) for a in argv]
    if command == "multiclass":
        labels = tmp_path / "labels.json"
        labels.write_text('{"k": 3, "matrix": [[0, 1, 2], [1, 2, 0], [2, 0, 1]]}')
        argv = [a.format(labels=labels) for a in argv]
    code, out, err = run(capsys, *argv, "--memory", "0.001")
    assert code == 3, err
    assert "Traceback" not in err and "internal error" not in err
    assert re.search(r"^littlestone: note: stopped by --memory: this run held [\d.]+ GB, more than the 0.001 GB given "
                     r"before the command began", err, re.MULTILINE), err


def test_memory_stops_an_attack_under_way_which_prints_its_witness(capsys, monkeypatch):
    """The watcher's stop in mid-search: the attack prints its best verified sequence, then the note; exit 3."""
    from solvers import interrupts

    import sys

    state = {"high": False}
    check = interrupts.check

    def looked():  # a strategy's search looks at its clock: from now on the process is over its memory
        if sys._getframe(1).f_globals.get("__name__", "").startswith("adversary.strategies"):
            state["high"] = True
        check()

    monkeypatch.setattr(interrupts, "resident_bytes", lambda: 2**50 if state["high"] else 0)
    monkeypatch.setattr(interrupts, "check", looked)
    code, out, err = run(capsys, *_GUARDED["attack"], "--json", "--memory", "1")
    assert code == 3, err
    r = json.loads(out)
    assert r["stats"]["stopped"] == "interrupted" and r["verdict"] == "stopped"
    from adversary.referee import verify_witness

    assert verify_witness(r["witness"]).mistakes == r["mistakes"]
    assert err.strip().splitlines()[-1].startswith("littlestone: note: stopped by --memory: this run held 1.05e+06 GB, "
                                                   "more than the 1 GB given (what it found is above)"), err


def test_a_bug_while_the_arguments_are_read_is_one_line(capsys, monkeypatch):
    """(issue 39, found by the fuzz test) an exception of an argument's own type escaped as a traceback."""
    from adversary.cli import opt

    def broken(text):
        raise RuntimeError("a bug in a type")

    monkeypatch.setattr(opt, "positive_seconds", broken)  # (the command's arguments are added as it is parsed)
    monkeypatch.delenv("LITTLESTONE_DEBUG", raising=False)
    code, out, err = run(capsys, "opt", "thresholds", "N=3", "--time-limit", "1", "--no-store")
    assert code == 1 and err.startswith("littlestone: error: internal error RuntimeError: a bug in a type"), err
    assert len(err.strip().splitlines()) == 1
