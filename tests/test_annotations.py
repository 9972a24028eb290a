"""Every public function of svmtext states its return type (CONTRIBUTING.md, Standards).

Public: a function or method whose name does not start with ``_``, defined at the top of
a module or in a class whose name does not start with ``_`` (functions nested in others
are not counted), in any module of the package, private modules included.

Exceptions, each with its reason:

- functions compiled by numba (decorated by ``jit``, ``_jit``, ``_vec``, ``_hot`` or
  ``njit`` of :mod:`svmtext._numba`, numba's ``intrinsic``, or ``intrinsic_or``, the
  intrinsic with a Python twin for numba switched off): numba types them from
  the arguments of each call and compiles one version per argument types (the SMO
  core runs on float32 and float64 columns); numba reads no annotation, so one written
  there would be an unchecked second statement of what the compiler infers;
- the names in ``LEFT_FOR_OWNERS`` (module path -> qualified names): a module another
  maintainer is changing may be listed for a while (remove a name once its function is
  annotated: a test checks that every name listed still lacks its annotation). Empty now.
"""
from __future__ import annotations

import ast
from pathlib import Path

import svmtext

PACKAGE = Path(svmtext.__file__).parent
COMPILED = {"jit", "_jit", "_vec", "_hot", "njit", "intrinsic", "intrinsic_or"}

LEFT_FOR_OWNERS: dict[str, set[str]] = {}


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def public_functions() -> list[tuple[str, str, ast.FunctionDef, bool]]:
    """``(module path, qualified name, node, compiled)`` of every public function."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scopes = [(tree, "")]
        while scopes:
            scope, prefix = scopes.pop()
            for node in ast.iter_child_nodes(scope):
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    scopes.append((node, f"{prefix}{node.name}."))
                elif (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and not node.name.startswith("_")):
                    compiled = any(_decorator_name(d) in COMPILED for d in node.decorator_list)
                    out.append((rel, prefix + node.name, node, compiled))
    return out


def test_every_public_function_states_its_return_type():
    functions = public_functions()
    assert len(functions) > 300                  # the walk found the package
    missing = sorted(f"{rel}: {name} (line {node.lineno})"
                     for rel, name, node, compiled in functions
                     if node.returns is None and not compiled
                     and name not in LEFT_FOR_OWNERS.get(rel, ()))
    assert not missing, "public functions without a return annotation:\n" + "\n".join(missing)


def test_the_exceptions_are_still_needed():
    unannotated = {(rel, name) for rel, name, node, _ in public_functions()
                   if node.returns is None}
    stale = sorted(f"{rel}: {name}" for rel, names in LEFT_FOR_OWNERS.items()
                   for name in names if (rel, name) not in unannotated)
    assert not stale, "annotated or gone, remove from LEFT_FOR_OWNERS:\n" + "\n".join(stale)
