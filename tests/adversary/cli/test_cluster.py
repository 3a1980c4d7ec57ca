"""``littlestone table --backend dask``: the cells on a Dask cluster (a LocalCluster of 2 worker processes on
loopback, started here) equal the local ones cell by cell; the scheduler from ``$LITTLESTONE_SCHEDULER``;
``--jobs`` as the cells in flight; Ctrl-C keeps the finished rows and frees the workers; workers that die
stop the run in one line; and every way of not reaching a cluster is one line (exit 2) within the timeout."""

import csv
import io
import json
import os
import signal
import socket
import sys
import time

import pytest

from adversary.cli import main
from adversary.workspace import cells as _cells

from .checks import assert_usage_error, posix, start, stop, wait_for_rows

GRID = ["table", "monotone-disjunctions", "--grid", "n=2..5", "k=1..3"]  # 12 cells, one impossible (k > n)


def _rows(path):
    """The rows of a json table by their parameters, without the seconds (the one column that differs)."""
    data = json.loads(path.read_text())
    assert data["complete"] is True
    rows = {tuple(sorted(r["params"].items())): {k: v for k, v in r.items() if k != "seconds"} for r in data["rows"]}
    assert len(rows) == len(data["rows"])
    skipped = sorted(json.dumps(s, sort_keys=True) for s in data["skipped"])
    return rows, skipped


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    path = tmp_path_factory.mktemp("local") / "t.json"
    assert main([*GRID, "--format", "json", "-o", str(path), "--quiet", "--no-store"]) == 0  # (module scope: no store of its own)
    return _rows(path)


def test_cluster_equals_local_cell_by_cell(cluster, local, tmp_path, capsys):
    path = tmp_path / "t.json"
    t = time.monotonic()
    code = main([*GRID, "--format", "json", "-o", str(path), "--backend", "dask", "--scheduler",
                 cluster.scheduler_address, "--quiet"])
    seconds = time.monotonic() - t
    err = capsys.readouterr().err
    assert code == 0, err
    assert _rows(path) == local  # every cell, and the skipped ones
    assert len(local[0]) == 11 and len(local[1]) == 1
    assert "wrote 11 rows" in err and "Traceback" not in err
    assert seconds < 10, seconds


def test_scheduler_from_the_environment_and_jobs_in_flight(cluster, local, tmp_path, capsys, monkeypatch):
    in_flight = []
    connect = _cells.connect

    def spy(*a, **k):
        client, jobs = connect(*a, **k)
        in_flight.append(jobs)
        return client, jobs

    monkeypatch.setattr(_cells, "connect", spy)
    monkeypatch.setenv(_cells.SCHEDULER_ENV, cluster.scheduler_address)
    path = tmp_path / "t.json"
    code = main([*GRID, "--format", "json", "-o", str(path), "--backend", "dask", "--jobs", "1", "--quiet"])
    assert code == 0, capsys.readouterr().err
    assert _rows(path) == local
    assert in_flight == [1]  # one cell at a time
    code = main([*GRID, "--format", "csv", "--backend", "dask", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and in_flight == [1, 2]  # without --jobs: the cluster's 2 threads
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:5] == ["n", "k", "|C|", "|X|", "Opt"] and len(rows) == 12


def test_a_cluster_that_cannot_import_the_cells(cluster):
    def cell(params):
        return params

    cell.__module__ = "littlestone_not_installed_here"
    with pytest.raises(_cells.WorkspaceError, match="scheduler of .* cannot import littlestone_not_installed_here.*pip install"):
        _cells.connect(cluster.scheduler_address, timeout=5, func=cell)


# ------------------------------------------------------------------------------------------ not reaching a cluster
def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed when the socket is: nothing listens there


def _one_line_within(capsys, seconds, *argv, contains):
    t = time.monotonic()
    code = main([*GRID, "--format", "json", *argv])
    out, err = capsys.readouterr()
    line = assert_usage_error(code, out, err, contains=contains)  # exit 2, one line, nothing on stdout
    assert time.monotonic() - t < seconds, time.monotonic() - t
    return line


def test_a_closed_port_is_one_line_at_once(capsys):
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{_closed_port()}"
    line = _one_line_within(capsys, 2.0, "--backend", "dask", "--scheduler", address, contains=address)
    assert "connection refused" in line and "dask scheduler" in line


def test_a_port_that_never_answers_is_one_line_within_the_timeout(capsys):
    pytest.importorskip("distributed")
    with socket.socket() as s:  # accepts connections (the kernel does) and never says a word
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
        line = _one_line_within(capsys, 3.0, "--scheduler", address, "--scheduler-timeout", "1", contains=address)
    assert "did not answer within 1 s" in line and "--scheduler-timeout" in line


@pytest.mark.parametrize("argv, contains", [
    (["--backend", "dask", "--scheduler", "nonsense"], "write it as tcp://HOST:PORT"),
    (["--backend", "dask", "--scheduler", "http://127.0.0.1:8786"], "write it as tcp://HOST:PORT"),
    (["--backend", "dask", "--scheduler", "tcp://no-such-host.invalid:8786"], "unknown host"),
    (["--backend", "dask"], "give --scheduler"),
    (["--backend", "loky", "--scheduler", "tcp://127.0.0.1:8786"], "is for --backend dask"),
    (["--backend", "dask", "--scheduler-timeout", "0"], "--scheduler-timeout"),
], ids=["no port", "scheme", "unknown host", "no address", "loky with a scheduler", "timeout"])
def test_bad_cluster_options_are_one_line(capsys, monkeypatch, argv, contains):
    pytest.importorskip("distributed")
    monkeypatch.delenv(_cells.SCHEDULER_ENV, raising=False)
    _one_line_within(capsys, 5.0, *argv, contains=contains)


def test_without_the_dask_extra(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    _one_line_within(capsys, 5.0, "--scheduler", "tcp://127.0.0.1:8786", contains="pip install 'littlestone[dask]'")


COMMANDS = {"table": GRID, "attack --grid": ["attack", "halving", "--class", "thresholds", "--grid", "N=2..4"],
            "opt": ["opt", "intervals", "N=60"], "opt (states engine)": ["opt", "thresholds", "N=7", "--engine", "states"]}


MALFORMED = ["::::", "", " ", "nonsense", "tcp://", "tcp://127.0.0.1", "tcp://:8786", "tcp://127.0.0.1:port",
             "tcp://127.0.0.1:0", "tcp://127.0.0.1:65536", "http://127.0.0.1:8786", "tcp://[::1:8786", "tcp://a b:8786"]


@pytest.mark.parametrize("command, address", [("table", a) for a in MALFORMED] +
                         [(c, "::::") for c in COMMANDS if c != "table"])
def test_a_malformed_scheduler_address_is_a_usage_error_when_parsed(capsys, monkeypatch, command, address):
    """Before anything else (dask not even imported: this works without the extra), with --scheduler alone."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    code = main([*COMMANDS[command], "--no-store", "--quiet", "--scheduler", address])
    out, err = capsys.readouterr()
    assert_usage_error(code, out, err, contains="argument --scheduler")
    assert "write it as tcp://HOST:PORT" in err


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "tcp://[::1]:8786", "tls://host:8786",
                                     "tcp://scheduler.example.org:1", "inproc://10.0.0.1/1234/1"])
def test_a_well_formed_scheduler_address_is_taken(address):
    from adversary.cli._args import scheduler_address

    assert scheduler_address(address) == address


def test_a_malformed_scheduler_address_from_the_environment_is_one_line(capsys, monkeypatch):
    monkeypatch.setenv(_cells.SCHEDULER_ENV, "::::")
    _one_line_within(capsys, 5.0, "--backend", "dask", contains=f"${_cells.SCHEDULER_ENV}")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_scheduler_that_does_not_answer_is_one_line_whatever_the_command(capsys, command, tmp_path):
    """Even when the store serves the result (no search), or the class goes to the states engine (which runs here
    only): an address given is never ignored."""
    pytest.importorskip("distributed")
    db = tmp_path / "s.db"
    assert main([*COMMANDS[command], "--store", str(db), "--quiet"]) == 0  # the store serves the next run
    capsys.readouterr()
    address = f"tcp://127.0.0.1:{_closed_port()}"
    code = main([*COMMANDS[command], "--store", str(db), "--quiet", "--scheduler", address])
    out, err = capsys.readouterr()
    assert_usage_error(code, out, err, contains="drop --scheduler")


# ------------------------------------------------------------------------------------------ Ctrl-C
# Opt of the last two cells takes the generic search well over a minute (monotone-disjunctions, once used
# here, is now solved in a second by its symmetric search).
SLOW_GRID = ["table", "disjunctions", "k=3", "--grid", "n=5,6,7,12,13", "--quiet"]


@posix
@pytest.mark.slow
def test_ctrl_c_on_a_cluster_keeps_the_finished_rows(tmp_path):
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                       host="127.0.0.1")
    try:
        out_file = tmp_path / "grid.csv"
        p = start(*SLOW_GRID, "--format", "csv", "-o", out_file, "--scheduler", cluster.scheduler_address)
        wait_for_rows(out_file, 3)  # n = 5, 6, 7 are done while 12 and 13 run on the two workers
        code, out, err, seconds = stop(p, signal.SIGINT, to_group=True)  # fails if still running after 60 s
        assert code == 130, err
        assert "Traceback" not in err
        lines = out_file.read_text().splitlines()
        assert lines[0].startswith("n,k,") and sorted(l.split(",")[0] for l in lines[1:]) == ["5", "6", "7"]
        assert "interrupted: 3 of 5 cells computed" in err
        # The cells in flight were cancelled, and stop at their next progress report: the workers are free.
        with distributed.Client(cluster, set_as_default=False) as client:
            t = time.monotonic()
            while time.monotonic() - t < 60:  # generous: a loaded machine never fails it, a cell that runs on does
                busy = client.run(lambda dask_worker: len(dask_worker.state.executing))
                if not any(busy.values()):
                    break
                time.sleep(0.1)
            assert not any(busy.values()), busy
    finally:
        cluster.close()


# ------------------------------------------------------------------------------------------ a worker that dies
def crash(cell, progress=None):
    """A cell that kills its worker process (as its nanny does to a worker past its memory limit)."""
    if cell == "crash":
        os._exit(1)
    return cell


def test_workers_that_die_stop_the_run_in_one_line():
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):  # lost at the first death, not the fourth
        cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                                           host="127.0.0.1")
    try:
        t = time.monotonic()
        runs = _cells.run_cells(crash, ["fine", "crash", "never"], jobs=1, backend="dask",
                                scheduler=cluster.scheduler_address)
        assert next(runs) == "fine"
        with pytest.raises(_cells.WorkspaceError, match="the dask workers died running the cell 'crash'"):
            next(runs)  # reported, not waited on for ever
        assert time.monotonic() - t < 20
    finally:
        cluster.close()


def test_the_client_writes_the_store_and_serves_it(cluster, local, tmp_path, capsys):
    """The workers compute; the client stores every cell; the same grid again is served from the store."""
    import os
    import sqlite3

    argv = [*GRID, "--format", "json", "--backend", "dask", "--scheduler", cluster.scheduler_address, "--quiet"]
    assert main([*argv, "-o", str(tmp_path / "a.json")]) == 0
    err = capsys.readouterr().err
    assert "0 of 12 cells served" in err and "22 results written" in err  # Opt and VC of the 11 possible cells
    db = sqlite3.connect(os.environ["LITTLESTONE_STORE"])
    assert db.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM results").fetchone() == (22, 22)
    db.close()
    assert main([*argv, "-o", str(tmp_path / "b.json")]) == 0
    assert "11 of 12 cells served" in capsys.readouterr().err
    rows, skipped = _rows(tmp_path / "b.json")
    assert all(r.pop("served") and r.pop("stored") == ["opt", "vc"] for r in rows.values())
    assert (rows, skipped) == local


def test_attack_grid_on_the_cluster_equals_the_local_one(cluster, tmp_path, capsys):
    """``attack ... --grid`` on the same machinery: every cell's row on the cluster as here (but the seconds)."""
    argv = ["attack", "winnow2", "--class", "monotone-disjunctions", "--grid", "n=2..4", "k=1,2", "--format", "json",
            "--time-limit", "60", "--quiet", "--no-store"]
    here, there = tmp_path / "here.json", tmp_path / "there.json"
    assert main([*argv, "-o", str(here)]) == 0
    code = main([*argv, "-o", str(there), "--backend", "dask", "--scheduler", cluster.scheduler_address])
    err = capsys.readouterr().err
    assert code == 0, err

    def rows(path):
        return sorted((json.dumps({k: v for k, v in r.items() if k != "seconds"}, sort_keys=True)
                       for r in json.loads(path.read_text())))

    assert rows(there) == rows(here) and len(rows(here)) == 6
