"""Fixtures for the whole suite (tests/ and the doctests of solvers/ and adversary/)."""

import pytest


@pytest.fixture(autouse=True)
def _own_store(tmp_path_factory, monkeypatch):
    """Each test gets a results store of its own (``LITTLESTONE_STORE``), so that no test reads what
    another wrote and nothing is written into the working directory."""
    monkeypatch.setenv("LITTLESTONE_STORE", str(tmp_path_factory.mktemp("store") / "littlestone.db"))
