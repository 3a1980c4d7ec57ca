"""The import graph of solvers/ and adversary/: no cycle, and the learner's side never imports the
adversary's. Every import counts, at module level or inside a function (a lazy import is still a
dependency); ``solvers.numbers`` and friends are read from the source with ``ast``, nothing is imported."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solvers", "adversary")


def modules() -> dict:
    """module name -> its file, for every module of the two packages."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: set) -> set:
    """The modules of the two packages that module ``name`` imports (a package's ``__init__`` counts as
    the package; ``from pkg import mod`` counts as ``pkg.mod`` when that is a module)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here[:len(here) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:  # a name inside a module: the module itself
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph() -> dict:
    mods = modules()
    known = set(mods)
    return {name: imports(name, path, known) for name, path in mods.items()}


def cycles(g: dict) -> list:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def without_parent_packages(g: dict) -> dict:
    """The graph without the edges from a package's ``__init__`` to its own submodules and from a
    submodule to its parent packages: importing ``a.b`` runs ``a/__init__`` first, which re-exports
    ``a.b``; that is Python's package mechanism, not a dependency between modules."""
    out = {}
    for v, ws in g.items():
        out[v] = {w for w in ws if not w.startswith(v + ".") and not v.startswith(w + ".")}
    return out


def test_solvers_never_imports_adversary():
    bad = {(v, w) for v, ws in graph().items() if v.startswith("solvers") for w in ws if w.startswith("adversary")}
    assert not bad


def test_no_import_cycle():
    assert cycles(without_parent_packages(graph())) == []


def test_the_graph_is_read():
    g = graph()
    assert "solvers.classes.finite" in g["solvers.classes.families"]
    assert "solvers.classes.spec" in g["adversary.referee"]
