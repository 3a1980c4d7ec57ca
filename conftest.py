"""Fixtures for the whole suite (tests/ and the doctests of solvers/ and adversary/)."""

import os
import tempfile

import pytest


def pytest_configure(config):
    """Whatever runs outside a test's own store (module-scoped fixtures, subprocesses started early) writes
    to a store of the session's, never to ``littlestone.db`` in the working directory."""
    os.environ["LITTLESTONE_STORE"] = os.path.join(tempfile.mkdtemp(prefix="littlestone-tests-"), "session.db")


@pytest.fixture(autouse=True)
def _own_store(tmp_path_factory, monkeypatch):
    """Each test gets a results store of its own (``LITTLESTONE_STORE``), so that no test reads what
    another wrote and nothing is written into the working directory."""
    monkeypatch.setenv("LITTLESTONE_STORE", str(tmp_path_factory.mktemp("store") / "littlestone.db"))
