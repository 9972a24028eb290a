"""The code behind a cached experiment: which ``svmtext`` modules it imports, and their hash.

A committed result is only as current as the code that computed it. An experiment
script reaches the solvers through its import statements; following them
statically (with :mod:`ast`, nothing is imported) gives the transitive closure of
the ``svmtext`` modules it uses. Each module is hashed from its syntax tree with
docstrings, type annotations and the imports that serve them removed, so rewording a
docstring or a comment, or annotating a function, leaves the hash alone while any
change of code changes it.

Rules of the closure:

* ``import svmtext.a.b`` and ``from svmtext.a import b`` (``b`` a submodule) reach
  ``svmtext.a.b`` only: the ``__init__`` of a parent package counts only when the
  package itself is imported (``import svmtext``, ``from svmtext.a import f`` with
  ``f`` defined in the ``__init__``); a name the ``__init__`` re-exports
  (``from ._mnist import load_mnist``) reaches the module that defines it;
* imports anywhere in a module count, also those inside functions;
* modules outside ``svmtext`` (numpy, scikit-learn, ...) are not followed.

Only the modules that decide the numbers enter the fingerprint: solvers, estimators,
kernels, the data parsers and the data registry (whose checksums pin the bytes a
parser reads), and the experiment script itself. The machinery in :data:`MACHINERY`
-- downloading, caching, the command line, the task runner, memory probes, display,
numba's cache location -- is followed through (what it imports still counts) but not
hashed, so moving a helper or fixing the cache code leaves every cache current.
"""
from __future__ import annotations

import ast
import hashlib
from pathlib import Path

PACKAGE = "svmtext"
PACKAGE_DIR = Path(__file__).resolve().parents[1]

# modules that cannot change a number of any result: downloads and their assembly,
# the cache and task machinery, the command lines, memory probes, display, numba's
# cache location (names that do not exist yet are harmless)
MACHINERY = frozenset({
    "svmtext.experiments", "svmtext.experiments.__main__", "svmtext.experiments._cache",
    "svmtext.experiments._cli", "svmtext.experiments._code", "svmtext.experiments._memory",
    "svmtext.experiments._recertify", "svmtext.experiments._tasks",
    "svmtext.datasets.__main__", "svmtext.datasets._download", "svmtext.datasets._fetch",
    "svmtext.datasets._ida", "svmtext._memory", "svmtext._numba", "svmtext.display",
    "svmtext.plotting",
})

__all__ = ["MACHINERY", "module_file", "imported_modules", "module_closure", "module_hash",
           "code_fingerprint", "changed_modules"]


def module_file(module: str, package_dir: Path | None = None) -> Path | None:
    """The source file of ``module`` (``svmtext.x.y``) under ``package_dir``, or None."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    base = Path(package_dir or PACKAGE_DIR).joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _read(module: str, package_dir: Path | None) -> ast.Module:
    path = module_file(module, package_dir)
    if path is None:
        raise ModuleNotFoundError(f"no source for {module} under {package_dir or PACKAGE_DIR}")
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _is_package(module: str, package_dir: Path | None) -> bool:
    path = module_file(module, package_dir)
    return path is not None and path.name == "__init__.py"


def imported_modules(module: str, package_dir: Path | None = None) -> set[str]:
    """The ``svmtext`` modules that the import statements of ``module`` name."""
    tree = _read(module, package_dir)
    own_package = module if _is_package(module, package_dir) else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = own_package.split(".")
                if node.level - 1 >= len(parts):
                    raise ImportError(f"relative import beyond {PACKAGE} in {module}")
                base = ".".join(parts[:len(parts) - (node.level - 1)])
                if node.module:
                    base = f"{base}.{node.module}"
            else:
                base = node.module or ""
            if base.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                found.add(_provider(base, alias.name, package_dir))
    return {m for m in found if module_file(m, package_dir) is not None}


def _relative_base(package: str, node: ast.ImportFrom) -> str:
    parts = package.split(".")
    base = ".".join(parts[:len(parts) - (node.level - 1)]) if node.level else ""
    if node.module:
        base = f"{base}.{node.module}" if base else node.module
    return base


def _provider(base: str, name: str, package_dir: Path | None, depth: int = 0) -> str:
    """The module that ``from base import name`` takes ``name`` from.

    A submodule ``base.name`` is itself; a name that the package ``base`` re-exports
    (``from ._mnist import load_mnist`` in its ``__init__``) is the module defining it,
    so a script that reads one loader of a package does not depend on its siblings;
    anything else is ``base``.
    """
    sub = f"{base}.{name}"
    if module_file(sub, package_dir) is not None:
        return sub
    if depth > 8 or not _is_package(base, package_dir):
        return base
    for node in _read(base, package_dir).body:
        if isinstance(node, ast.ImportFrom):
            source = _relative_base(base, node)
            if source.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    return _provider(source, alias.name, package_dir, depth + 1)
    return base


def module_closure(module: str, package_dir: Path | None = None) -> list[str]:
    """``module`` and every ``svmtext`` module its imports reach, sorted."""
    seen = {module}
    todo = [module]
    while todo:
        for dep in imported_modules(todo.pop(), package_dir):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


# imports that serve annotations only: what a module computes cannot depend on them
ANNOTATION_MODULES = frozenset({"__future__", "typing", "collections.abc"})


def _strip_non_code(tree: ast.AST) -> ast.AST:
    """The tree without what cannot change a number: docstrings, type annotations (of
    arguments, returns and variables; an annotated name keeps its place) and imports
    from :data:`ANNOTATION_MODULES`."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
        elif isinstance(node, ast.arg):
            node.annotation = None
        elif isinstance(node, ast.AnnAssign):
            node.annotation = ast.Constant(value="")
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            kept = [s for s in body if not (isinstance(s, ast.ImportFrom) and s.level == 0
                                            and s.module in ANNOTATION_MODULES)]
            if (field == "body" and isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                                      ast.AsyncFunctionDef))
                    and kept and isinstance(kept[0], ast.Expr)
                    and isinstance(kept[0].value, ast.Constant) and isinstance(kept[0].value.value, str)):
                kept = kept[1:]
            if kept != body:
                setattr(node, field, kept or ([ast.Pass()] if field == "body" else []))
    return tree


def _canonical(node) -> str:
    """A dump of the tree that does not depend on the Python version's ``ast.dump``.

    Fields that are None or empty lists are left out, so fields added by newer
    Python versions with empty defaults (``type_params``, ...) do not change it.
    """
    if isinstance(node, ast.AST):
        fields = []
        for name in node._fields:
            value = getattr(node, name, None)
            if value is None or (isinstance(value, list) and not value):
                continue
            fields.append(f"{name}={_canonical(value)}")
        return f"{type(node).__name__}({','.join(fields)})"
    if isinstance(node, list):
        return "[" + ",".join(_canonical(v) for v in node) + "]"
    return repr(node)


def module_hash(module: str, package_dir: Path | None = None) -> str:
    """sha256 (16 hex digits) of the module's syntax tree without docstrings and type
    annotations (:func:`_strip_non_code`)."""
    dump = _canonical(_strip_non_code(_read(module, package_dir)))
    return hashlib.sha256(dump.encode()).hexdigest()[:16]


def code_fingerprint(module: str, package_dir: Path | None = None) -> dict:
    """``{"hash": ..., "modules": {name: hash}}`` for ``module`` and its closure,
    the :data:`MACHINERY` left out."""
    modules = {m: module_hash(m, package_dir) for m in module_closure(module, package_dir)
               if m not in MACHINERY}
    joined = "\n".join(f"{m} {h}" for m, h in sorted(modules.items()))
    return {"hash": hashlib.sha256(joined.encode()).hexdigest()[:16], "modules": modules}


def changed_modules(recorded: dict, current: dict) -> list[str]:
    """Modules whose hash differs between two fingerprints, or that only one holds."""
    old, new = recorded.get("modules", {}), current.get("modules", {})
    return sorted(m for m in set(old) | set(new) if old.get(m) != new.get(m))
