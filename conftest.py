"""pytest set-up shared by the unit tests and the chapter notebooks.

Chapters are MyST-markdown notebooks (jupytext). nbval collects only ``.ipynb``,
so a chapter ``book/*.md`` with a jupytext header is read with ``jupytext.read``
and handed to nbval's own collector. ``--require-all-chapters`` makes the run fail
when a notebook listed in ``_toc.yml`` was not executed (no cell of it passed); plain
markdown pages of the toc (no jupytext header) are not notebooks and are not required.
Chapter cells carry the ``chapters`` marker (registered in ``pyproject.toml``).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
os.environ.setdefault("MPLBACKEND", "Agg")


def toc_entries(root: Path = ROOT) -> list[str]:
    """The ``root`` and every ``file`` of ``_toc.yml``, in order, as written."""
    import yaml

    toc = yaml.safe_load((root / "_toc.yml").read_text())
    entries = []

    def walk(node):
        if isinstance(node, dict):
            for key in ("root", "file"):
                if key in node:
                    entries.append(node[key])
            for value in node.values():
                if isinstance(value, (list, dict)):
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    return entries


def toc_chapters(root: Path = ROOT) -> list[Path]:
    """Every file listed in ``_toc.yml`` (root and chapters), as existing paths."""
    files = toc_entries(root)
    paths = []
    for f in files:
        for suffix in ("", ".md", ".ipynb"):
            p = root / (f + suffix)
            if p.is_file():
                paths.append(p.resolve())
                break
        else:
            paths.append((root / f).resolve())
    return paths


def is_text_notebook(path: Path) -> bool:
    """A markdown file with a jupytext header is an executable chapter."""
    if path.suffix != ".md":
        return False
    head = path.read_text(encoding="utf-8")[:400]
    return head.startswith("---") and "jupytext:" in head


def is_notebook(path: Path) -> bool:
    """An executable chapter: an ``.ipynb`` or a jupytext markdown notebook.

    Plain markdown pages in the toc (e.g. the references page) have no code to run.
    """
    path = Path(path)
    if not path.is_file():
        return path.suffix == ".ipynb"
    return path.suffix == ".ipynb" or is_text_notebook(path)


def pytest_addoption(parser):
    parser.addoption("--require-all-chapters", action="store_true",
                     help="fail unless every chapter in _toc.yml was executed")


def pytest_collect_file(file_path, parent):
    opt = parent.config.option
    if not (getattr(opt, "nbval", False) or getattr(opt, "nbval_lax", False)):
        return None
    if is_text_notebook(Path(file_path)):
        return MystNotebook.from_parent(parent, path=file_path)
    return None


try:
    from nbval.plugin import IPyNbFile
except ImportError:  # pragma: no cover - nbval is pinned in requirements.txt
    IPyNbFile = None

if IPyNbFile is not None:
    class MystNotebook(IPyNbFile):
        """nbval's notebook collector for a jupytext (MyST markdown) chapter."""

        def collect(self):
            import jupytext
            import nbval.plugin as plugin

            original = plugin.nbformat.read
            plugin.nbformat.read = lambda path, as_version=4: jupytext.read(path)
            try:
                yield from super().collect()
            finally:
                plugin.nbformat.read = original


def pytest_collection_modifyitems(config, items):
    """Cells of executed chapters carry the ``chapters`` marker (``-m "not chapters"``
    leaves them out, as ``make test-portable`` does)."""
    for item in items:
        if is_notebook(Path(str(item.fspath))):
            item.add_marker(pytest.mark.chapters)


_passed_cells: dict[str, int] = {}


def pytest_runtest_logreport(report):
    if report.when == "call" and report.passed:
        path = report.nodeid.split("::")[0]
        _passed_cells[path] = _passed_cells.get(path, 0) + 1


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    if not config.getoption("--require-all-chapters") or hasattr(config, "workerinput"):
        return
    executed = {(Path(config.rootpath) / p).resolve() for p in _passed_cells}
    missing = [p for p in toc_chapters(Path(config.rootpath))
               if is_notebook(p) and p not in executed]
    if missing:
        tr = config.pluginmanager.get_plugin("terminalreporter")
        msg = "chapters in _toc.yml that were not executed: " + ", ".join(
            str(p.relative_to(config.rootpath)) for p in missing)
        if tr is not None:
            tr.write_line(msg, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
