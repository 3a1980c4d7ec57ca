"""The declared public surface: every name of ``solvers.__all__`` and ``adversary.__all__`` imports, is
documented, and shows its real signature (what ``help()`` and ``inspect.signature`` give in a notebook)."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
import types

import pytest

PACKAGES = ("solvers", "adversary")
NAMES = [(p, n) for p in PACKAGES for n in importlib.import_module(p).__all__]


def test_the_surface_is_declared_once_and_large_enough():
    for p in PACKAGES:
        names = importlib.import_module(p).__all__
        assert len(names) == len(set(names)), p
    solvers, adversary = (importlib.import_module(p) for p in PACKAGES)
    for name in ("opt", "OptResult", "SOA", "ConceptClass", "make", "families", "verify_tree", "verify_upper",
                 "TreeCheck", "check_learner", "Citation", "register", "params", "Game"):
        assert name in solvers.__all__, name
    for name in ("attack", "AttackResult", "verify_witness", "Workspace"):
        assert name in adversary.__all__, name


@pytest.mark.parametrize("package,name", NAMES, ids=[f"{p}.{n}" for p, n in NAMES])
def test_each_public_name_is_importable_documented_and_signed(package, name):
    module = importlib.import_module(package)
    obj = getattr(module, name)
    exec(f"from {package} import {name}", {})
    doc = inspect.getdoc(obj)
    assert doc and doc.strip(), f"{package}.{name} has no docstring"
    if isinstance(obj, types.ModuleType) and not callable(obj):
        return
    assert callable(obj), f"{package}.{name}: neither a module nor callable"
    if isinstance(obj, type) and issubclass(obj, BaseException):
        return  # exceptions take a message
    sig = inspect.signature(obj)
    shown = str(sig)
    assert shown not in ("(*args, **kwargs)", "(*args, **kwds)"), f"{package}.{name} hides its signature: {shown}"
    if not isinstance(obj, type):
        assert inspect.getdoc(obj) != inspect.getdoc(type(obj)), f"{package}.{name} shows its type's docstring"


def test_the_callable_modules_show_the_function():
    import adversary
    import solvers
    from adversary.attack import attack as attack_function
    from solvers.opt import opt as opt_function

    assert inspect.signature(solvers.opt) == inspect.signature(opt_function)
    assert inspect.signature(adversary.attack) == inspect.signature(attack_function)
    assert inspect.getdoc(solvers.opt).startswith("opt(C, *, time_limit")
    assert inspect.getdoc(adversary.attack).startswith("attack(learner, C, *, learner_params")


def test_importing_the_packages_stays_light():
    code = ("import sys, solvers, adversary; heavy = [m for m in ('solvers.opt', 'solvers.learners', 'joblib', "
            "'adversary.attack', 'matplotlib') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out
