"""Fixtures for the whole suite (tests/ and the doctests of solvers/ and adversary/)."""

import os
import signal
import tempfile

import pytest


def pytest_configure(config):
    """Whatever runs outside a test's own store (module-scoped fixtures, subprocesses started early) writes
    to a store of the session's, never to ``littlestone.db`` in the working directory.

    A suite started in the background by a shell (``pytest &``, ``nohup``) inherits SIGINT ignored, and so would
    every command the tests start: the tests of Ctrl-C would then test nothing (and fail). The suite restores
    Python's own handler (its subprocesses then start with the default action).

    The store keeps the certificates of every row (``LITTLESTONE_CERTIFY_SECONDS=0``), so that the tests of
    stored certificates can use small classes, which the commands would otherwise store without them (the
    tests of that default set the variable back: ``tests/adversary/test_store_recompute.py``)."""
    os.environ["LITTLESTONE_STORE"] = os.path.join(tempfile.mkdtemp(prefix="littlestone-tests-"), "session.db")
    os.environ["LITTLESTONE_CERTIFY_SECONDS"] = "0"
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _own_store(tmp_path_factory, monkeypatch):
    """Each test gets a results store of its own (``LITTLESTONE_STORE``), so that no test reads what
    another wrote and nothing is written into the working directory."""
    monkeypatch.setenv("LITTLESTONE_STORE", str(tmp_path_factory.mktemp("store") / "littlestone.db"))
