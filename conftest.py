"""Fixtures for the whole suite (tests/ and the doctests of solvers/ and adversary/)."""

import os
import shutil
import signal
import tempfile

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles (HYPOTHESIS_PROFILE selects one; default "dev"). Both leave a test's own max_examples as it is
# (a profile only sets what a test does not) and time no example: a loaded machine is slow, not wrong.
#   dev: the quick loop (``pytest``): 25 examples where a test does not say how many;
#   ci:  what .ci/run uses: hypothesis's own 100, and the failing example's blob printed to reproduce it.
_NOT_TIMED = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=25, **_NOT_TIMED)
settings.register_profile("ci", max_examples=100, print_blob=True, **_NOT_TIMED)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


_SESSION_DIR = None


def pytest_configure(config):
    """Whatever runs outside a test's own store (module-scoped fixtures, subprocesses started early) writes
    to a store of the session's, never to ``littlestone.db`` in the working directory.

    A suite started in the background by a shell (``pytest &``, ``nohup``) inherits SIGINT ignored, and so would
    every command the tests start: the tests of Ctrl-C would then test nothing (and fail). The suite restores
    Python's own handler (its subprocesses then start with the default action).

    The store keeps the certificates of every row (``LITTLESTONE_CERTIFY_SECONDS=0``), so that the tests of
    stored certificates can use small classes, which the commands would otherwise store without them (the
    tests of that default set the variable back: ``tests/adversary/test_store_recompute.py``)."""
    global _SESSION_DIR
    _SESSION_DIR = tempfile.mkdtemp(prefix="littlestone-tests-")
    os.environ["LITTLESTONE_STORE"] = os.path.join(_SESSION_DIR, "session.db")
    os.environ["LITTLESTONE_CERTIFY_SECONDS"] = "0"
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _kernel_built()


def pytest_unconfigure(config):
    """The session's store goes with the session (one folder a process was left in /tmp)."""
    if _SESSION_DIR is not None:
        shutil.rmtree(_SESSION_DIR, ignore_errors=True)


def _kernel_built() -> None:
    """The compiled kernel's machine code, built once before any test (15-25 s, once per install), as
    ``littlestone kernel build`` does: else the first search past 0.05 s would start its build in some test, whose
    stderr would then hold the build's notes. Not with ``LITTLESTONE_KERNEL=python``, nor in xdist's workers."""
    if os.environ.get("LITTLESTONE_KERNEL", "").strip() == "python" or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    from solvers.opt import kernel

    if kernel.available() and kernel.status()["usable"] and not kernel.status()["current"]:
        try:
            kernel.build()
        except kernel.BuildError:
            pass  # (its failure is recorded beside it: the searches run in Python, as they would)


@pytest.fixture(autouse=True)
def _own_store(tmp_path_factory, monkeypatch):
    """Each test gets a results store of its own (``LITTLESTONE_STORE``), so that no test reads what
    another wrote and nothing is written into the working directory."""
    monkeypatch.setenv("LITTLESTONE_STORE", str(tmp_path_factory.mktemp("store") / "littlestone.db"))
