"""Ctrl-C (and SIGTERM) at many points of a run: every command ends, prints what it finished and exits 130
(143), however loaded the machine.

Each case starts the command in a process group of its own, waits for an event of the run (a row, the
first progress line, the three quick cells done), sometimes a seeded random delay more, and sends SIGINT
to the group as a terminal does. The command must be gone within a generous limit (60 s: a hang, not a
slow machine, fails it), with the rows printed before the signal still there. Issue 18: one Ctrl-C in
twenty was lost inside numpy and the table ran on until SIGKILL (solvers.interrupts)."""

import json
import os
import random
import re
import signal
import time

import pytest

from .checks import Watched, posix

# Every test here stops a command (a time limit, a signal) and waits for it: the slow tier (`pytest -m slow`).
pytestmark = pytest.mark.slow

SLOW_GRID = ["table", "disjunctions", "k=3", "--grid", "n=5,6,7,12,13", "--format", "csv"]  # 12 and 13: minutes
HARD = ["disjunctions", "n=12", "k=3"]  # Opt's search: minutes
EXPERTS = ["experts", "n=2,3,4,2000", "k=1", "--randomized", "--format", "csv"]  # three quick rows, then minutes
ATTACK = ["attack", "winnow2", "--class", "monotone-disjunctions", "n=12", "k=3", "--strategy", "exact", "--json"]

_delays = random.Random(18)
DELAYS = [round(_delays.uniform(0.05, 2.0), 2) for _ in range(3)]  # seeded: the same points on every run


def after(w, *patterns, stream="out", delay=0.0):
    for p in patterns:
        w.wait_for(p, stream=stream)
    if delay:
        time.sleep(delay)  # a point after the event: any point must do


def check_table(code, out, err, before, finished):
    """Exit 130, no traceback, the rows printed before the signal still there, at least ``finished`` rows."""
    assert code == 130, err
    assert "Traceback" not in err
    assert out[:len(before)] == before  # nothing printed is taken back
    assert out[0].startswith("n,k,|C|,|X|,Opt")
    assert len(out) - 1 >= finished
    m = re.search(r"interrupted: (\d+) of 5 cells computed", err)
    assert m and int(m.group(1)) >= finished, err


# ------------------------------------------------------------------------------------------ table
TABLE_POINTS = {  # name -> (event, rows finished by then)
    "after row 1": (lambda w: after(w, r"^5,"), 1),
    "after row 3": (lambda w: after(w, r"^7,"), 3),
    "during a long cell": (lambda w: after(w, r"n=12: ", stream="err"), 3),
}


@posix
@pytest.mark.parametrize("point", list(TABLE_POINTS), ids=list(TABLE_POINTS))
def test_table_jobs_1_stops_at(point):
    event, finished = TABLE_POINTS[point]
    w = Watched(*SLOW_GRID, "--jobs", "1")
    event(w)
    check_table(*w.stop(signal.SIGINT), finished)


@posix
@pytest.mark.slow
@pytest.mark.parametrize("delay", DELAYS)
def test_table_jobs_1_stops_after_a_random_delay(delay):
    w = Watched(*SLOW_GRID, "--jobs", "1", "--cell-time-limit", "2")  # the delays reach the proof and the VC search
    after(w, r"^7,", delay=delay)
    check_table(*w.stop(signal.SIGINT), 3)


@posix
@pytest.mark.parametrize("delay", [0.0] + DELAYS[:1])
def test_table_jobs_2_stops_after_the_quick_rows(delay):
    w = Watched(*SLOW_GRID, "--jobs", "2", "--quiet")
    after(w, r"^5,", r"^6,", r"^7,", delay=delay)  # the workers have started: no fixed wait for them
    check_table(*w.stop(signal.SIGINT), 3)


@posix
@pytest.mark.slow
@pytest.mark.parametrize("delay", DELAYS[1:])
def test_table_jobs_2_stops_after_a_random_delay(delay):
    w = Watched(*SLOW_GRID, "--jobs", "2", "--quiet")
    after(w, r"^5,", r"^6,", r"^7,", delay=delay)
    check_table(*w.stop(signal.SIGINT), 3)


@posix
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_table_second_ctrl_c_never_hangs(jobs):
    w = Watched(*SLOW_GRID, "--jobs", jobs, "--quiet")
    after(w, r"^5,", r"^6,", r"^7,")
    code, out, err, before = w.stop(signal.SIGINT, again=0.05)
    assert code in (130, -signal.SIGINT), err  # -2: the second one came while the first was being reported
    assert out[:len(before)] == before


@posix
def test_table_sigterm_during_a_long_cell_exits_143():
    w = Watched(*SLOW_GRID, "--jobs", "1")
    after(w, r"n=12: ", stream="err")
    code, out, err, before = w.stop(signal.SIGTERM, to_group=False)
    assert code == 143, err
    assert [line.split(",")[0] for line in out[1:4]] == ["5", "6", "7"]


# ------------------------------------------------------------------------------------------ opt
@posix
@pytest.mark.parametrize("delay", [0.0] + DELAYS[:1])
def test_opt_stops_during_the_search(tmp_path, delay):
    tree = tmp_path / "tree.json"
    w = Watched("opt", *HARD, "--json", "--tree", tree)
    after(w, r"littlestone opt: ", stream="err", delay=delay)  # its first progress line: the search runs
    code, out, err, _ = w.stop(signal.SIGINT)
    assert code == 130, err
    assert "Traceback" not in err
    r = json.loads(out[0])
    assert r["stopped"] == "interrupted" and 0 <= r["lower"] <= r["upper"]  # the proven bounds
    if r["tree"] is not None:  # the tree of the proven lower bound, when it was rebuilt within the grace
        assert json.loads(tree.read_text())["depth"] == r["lower"]
    else:  # a rebuild that needed a search past the grace is left out (a loaded machine): no half file either
        assert not tree.exists()


@posix
@pytest.mark.slow
@pytest.mark.parametrize("delay", DELAYS)
def test_opt_stops_in_the_search_or_its_certificate(tmp_path, delay):
    """A time limit of 2 s: the delays reach the end of the search, the upper-bound certificate written for
    the store and the report."""
    w = Watched("opt", *HARD, "--json", "--time-limit", "2")
    after(w, r"littlestone opt: ", stream="err", delay=delay)
    code, out, err, before = w.stop(signal.SIGINT)
    assert "Traceback" not in err
    if before:  # the result was printed before the signal: the run was over
        # (a signal that lands while the interpreter shuts down, after Python has put back SIGINT's default
        # action, ends the process by SIGINT: -2 here, 130 in a shell, as for the command's own exit)
        assert code in (3, 130, -signal.SIGINT), err
    else:
        assert code == 130, err
        r = json.loads(out[0])
        assert r["stopped"] in ("interrupted", "time limit") and r["lower"] <= r["upper"]


# ------------------------------------------------------------------------------------------ attack, experts
@posix
@pytest.mark.parametrize("delay", [0.0] + DELAYS[1:2])
def test_attack_stops_with_a_verified_witness(delay):
    from adversary.referee import verify_witness

    w = Watched(*ATTACK)
    after(w, r"littlestone attack", stream="err", delay=delay)  # its first progress line: the search runs
    code, out, err, _ = w.stop(signal.SIGINT)
    assert code == 130, err
    assert "Traceback" not in err
    r = json.loads("\n".join(out))
    assert r["stats"]["stopped"] == "interrupted" and r["mistakes"] >= 1
    assert verify_witness(r["witness"]).ok


@posix
def test_experts_stops_after_the_quick_rows():
    w = Watched(*EXPERTS, "--quiet")
    after(w, r"^4,")
    code, out, err, before = w.stop(signal.SIGINT)
    assert code == 130, err
    assert out[:len(before)] == before and [line.split(",")[0] for line in out[1:4]] == ["2", "3", "4"]
    assert "interrupted: 3 of 4 cells computed" in err


# ------------------------------------------------------------------------------------------ a Ctrl-C taken as done
def taking_a_ctrl_c(real):
    """``real``, after a Ctrl-C that it took as finished work (a VC search that had its best set already, the
    certificate of a solved result given up): the KeyboardInterrupt never reaches the command."""
    def wrapped(*args, **kwargs):
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass
        return real(*args, **kwargs)
    return wrapped


@posix
def test_table_ends_after_a_ctrl_c_a_finished_cell_took(capsys, monkeypatch):
    from solvers import vc

    from .checks import run

    monkeypatch.setattr(vc, "vc_search", taking_a_ctrl_c(vc.vc_search))
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=3..6", "--format", "csv", "--no-store")
    assert code == 130, err  # it used to go on with the next cells and exit 0
    assert out.splitlines()[1].startswith("3,") and len(out.splitlines()) == 2  # the finished cell, no other
    assert "interrupted: 1 of 4 cells computed" in err


@posix
def test_opt_exits_130_after_a_ctrl_c_its_certificate_took(capsys, monkeypatch):
    from adversary import store

    from .checks import run

    monkeypatch.setattr(store, "record_of_opt", taking_a_ctrl_c(store.record_of_opt))
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--json")
    assert code == 130, err  # it used to exit 0, as if no Ctrl-C had come
    assert json.loads(out)["opt"] == 3  # what was proven is printed


@posix
@pytest.mark.parametrize("only, delay", [("vc,best_order,td", 0.0), ("best_order", 0.0), ("best_order", DELAYS[0])])
def test_params_stops_with_the_bounds_proven(only, delay):
    """Ctrl-C during a parameter's search (best_order on 150 random concepts takes minutes): params prints the class,
    what it finished and a stopped search's proven bounds (each witness checked), leaves out what it had not
    started, and exits 130."""
    keys = only.split(",")
    w = Watched("params", "random", "m=150", "N=18", "seed=3", "--only", only, "--no-store")
    after(w, r"params: \d+/\d+ parameters", stream="err", delay=delay)
    code, out, err, _ = w.stop(signal.SIGINT)
    assert code == 130, err
    assert "Traceback" not in err
    assert out[0].startswith("class: random")
    shown = [line.split()[0] for line in out[1:] if not line.startswith(" " * 10) and not line.startswith("  not ")]
    assert shown == keys[:len(shown)]
    assert all("check: OK" in line or "check: nothing to replay" in line for line in out if "check:" in line)
    if shown and shown[-1] == "best_order":  # its search stopped (it takes minutes): its proven bounds
        assert "(stopped: interrupted)" in next(line for line in out if line.split()[0] == "best_order")
    missing = keys[len(shown):]  # the keys not started are named, with why (a run listed 5 of 10 and said no more)
    said = [line for line in out if line.startswith("  not computed")]
    assert said == ([f"  not computed (interrupted): {', '.join(missing)}"] if missing else []), out
    assert not any(re.search(r"\bNone\b", line) for line in out), out


@posix
def test_opt_stopped_by_sigterm_says_so():
    """The plain output names the signal that stopped the run, as the exit code does (143: SIGTERM, not Ctrl-C)."""
    w = Watched("opt", *HARD)
    after(w, r"littlestone opt: ", stream="err")  # its first progress line: the search runs
    code, out, err, _ = w.stop(signal.SIGTERM, to_group=False)
    assert code == 143, err
    assert "Traceback" not in err
    line = next(x for x in out if x.startswith("Opt(C):"))
    assert "(not solved: interrupted by SIGTERM)" in line


# ------------------------------------------------------------------------------------------ SIGKILL
def session(sid: int) -> list:
    """The live processes of the session ``sid`` (Linux's /proc), as (pid, parent pid, command line)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, session, ...
        if fields[0] != "Z" and int(fields[3]) == sid:
            found.append((int(name), int(fields[1]), cmd))
    return found


def killed_leaves_nothing(w, workers: int, limit: float = 30.0) -> None:
    """Wait until the command has ``workers`` worker processes, SIGKILL it (it alone, as the OOM killer or
    ``kill -9 PID`` would), then until no process of its session is left: every worker, and every resource
    tracker, must go with it."""
    pid = w.proc.pid
    end = time.monotonic() + 120
    while len([p for p, ppid, cmd in session(pid) if ppid == pid and "resource_tracker" not in cmd]) < workers:
        assert w.proc.poll() is None, "ended before its workers started"
        assert time.monotonic() < end, f"no {workers} workers within 120 s: {session(pid)}"
        time.sleep(0.05)
    w.proc.kill()
    w.proc.wait()
    end = time.monotonic() + limit
    while session(pid):
        if time.monotonic() >= end:
            left = session(pid)
            for p, _, _ in left:  # (not to leave them to the next test)
                try:
                    os.kill(p, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            pytest.fail(f"{len(left)} processes left {limit} s after the SIGKILL: {left}")
        time.sleep(0.1)


linux = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="lists processes from /proc")


@posix
@linux
def test_table_jobs_2_killed_leaves_no_worker():
    w = Watched(*SLOW_GRID, "--jobs", "2", "--quiet", "--no-store")
    after(w, r"^5,", r"^6,", r"^7,")  # the cells of minutes run in the workers now
    killed_leaves_nothing(w, 2)


@posix
@linux
def test_opt_jobs_2_killed_leaves_no_worker():
    w = Watched("opt", "intervals", "N=150", "--jobs", "2", "--no-store",  # spread at once; tens of seconds
                env={**os.environ, "LITTLESTONE_SPREAD_TRIAL": "0"})
    killed_leaves_nothing(w, 2)


@posix
@linux
def test_attack_grid_jobs_2_killed_leaves_no_worker():
    w = Watched("attack", "winnow2", "--class", "monotone-disjunctions", "k=3", "--grid", "n=11,12", "--strategy",
                "exact", "--jobs", "2", "--quiet", "--no-store")
    killed_leaves_nothing(w, 2)
