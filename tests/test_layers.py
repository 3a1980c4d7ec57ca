"""The layers of littlestone hold: import-linter's contracts in pyproject.toml (``[tool.importlinter]``),
checked here so that the README's test command and CI check them. import-linter follows every import,
inside functions too, and through the packages' ``__init__`` re-exports (which tests/test_imports.py's
own graph leaves out). The layers and their reasons: docs/architecture.md."""

import importlib.util
import io
from contextlib import redirect_stdout
from pathlib import Path

from importlinter import api
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"
#: Imports the layers contract lets through for now, each with the change that removes it.
IGNORED: set = set()  # (the last one, solvers.opt.anytime -> solvers.learners, went with issue 35: learner bounds as data)


def contracts() -> dict:
    return {c["id"]: c for c in api.read_configuration(str(CONFIG))["contracts_options"]}


def layer_modules(contract: dict) -> set:
    """The modules a layers contract names (optional ones without their parentheses)."""
    out = set()
    for layer in contract["layers"]:
        for name in layer.replace(":", "|").split("|"):
            out.add(name.strip().strip("()"))
    return out


def test_the_contracts_are_kept():
    out = io.StringIO()
    with redirect_stdout(out):
        code = lint_imports(config_filename=str(CONFIG), no_cache=True, no_logo=True)
    assert code == 0, out.getvalue()


def test_every_module_of_the_two_packages_has_a_layer():
    """A new top-level module or subpackage of solvers/ or adversary/ must be placed in the layers (an
    unlisted module would be free to import anything)."""
    named = layer_modules(contracts()["layers"])
    missing = []
    for package in ("solvers", "adversary"):
        for path in sorted((ROOT / package).iterdir()):
            if path.name.startswith("__") and path.name != "__main__.py":
                continue
            if path.suffix == ".py":
                name = f"{package}.{path.stem}"
            elif (path / "__init__.py").exists():
                name = f"{package}.{path.name}"
            else:
                continue
            if name not in named:
                missing.append(name)
    assert missing == [], f"give these modules a layer in pyproject.toml [tool.importlinter]: {missing}"


def test_every_named_layer_exists_unless_optional():
    """A layer renamed away would silently constrain nothing: every required layer is a module."""
    for contract in contracts().values():
        for layer in contract.get("layers", []):
            for name in layer.replace(":", "|").split("|"):
                name = name.strip()
                if name.startswith("("):
                    continue
                for container in contract.get("containers", [""]):
                    full = f"{container}.{name}" if container else name
                    assert importlib.util.find_spec(full) is not None, full


def test_only_the_listed_imports_are_ignored():
    ignored = set()
    for contract in contracts().values():
        ignored |= set(contract.get("ignore_imports", []))
    assert ignored == IGNORED
