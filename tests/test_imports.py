"""The package's structure: its version has one source, its import graph no cycle."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import svmtext
from svmtext.experiments._code import PACKAGE_DIR, imported_modules


def test_version_comes_from_pyproject():
    project = tomllib.loads((PACKAGE_DIR.parent / "pyproject.toml").read_text())["project"]
    assert svmtext.__version__ == project["version"]


def all_modules() -> list[str]:
    """Every module of ``svmtext`` (``svmtext.x.y``; a package by its ``__init__``)."""
    names = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def import_graph() -> dict[str, set[str]]:
    """Module -> the ``svmtext`` modules its import statements name (anywhere in it, also
    inside functions; a name re-exported by a package counts as its defining module,
    :func:`svmtext.experiments._code.imported_modules`)."""
    return {m: imported_modules(m) - {m} for m in all_modules()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_of_svmtext_has_no_cycle():
    found = cycles(import_graph())
    assert not found, f"import cycles in svmtext: {found}"


def test_every_module_is_in_the_graph():
    graph = import_graph()
    assert "svmtext.experiments._code" in graph and "svmtext.smo._core" in graph
    assert all(Path(PACKAGE_DIR.parent, *m.split(".")).with_suffix(".py").exists()
               or Path(PACKAGE_DIR.parent, *m.split("."), "__init__.py").exists() for m in graph)


def test_lazy_names_and_their_errors():
    import svmtext
    # every exported name is listed by dir() and resolves (submodules and classes are
    # imported on first access)
    assert set(svmtext.__all__) <= set(dir(svmtext))
    assert svmtext.SMOSVC.__module__.startswith("svmtext.smo")
    assert svmtext.kkt.__name__ == "svmtext.kkt"
    with pytest.raises(AttributeError, match="module 'svmtext' has no attribute 'SVCC'"):
        svmtext.SVCC  # noqa: B018
