"""A reader without the book's data folder: every file comes from the public sources.

``SVMTEXT_DATA`` names an empty folder, ``XDG_CACHE_HOME`` another, and every download
is redirected (``SVMTEXT_DOWNLOAD_MIRROR``) to a local HTTP server holding the public
layout of the sources, built by ``tools/public_mirror.py`` from ``../shared/data``.
Then (a) every loader returns exactly the arrays of the canonical copies, and (b) every
chapter of ``_toc.yml``, converted with jupytext to ``.ipynb``, executes with nbclient
from a temporary working directory.

Without ``../shared/data`` the module is skipped; ``tools/fresh_clone_check.sh`` is
then the check (a clone with no ``../shared``, the same mirror, ``make test``,
``make book``).
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, is_text_notebook, toc_chapters

SHARED_DATA = ROOT.parent / "shared" / "data"

pytestmark = pytest.mark.skipif(
    not (SHARED_DATA / "README.md").is_file(),
    reason=f"{SHARED_DATA} is absent: no canonical copies to serve and compare with "
           "(tools/fresh_clone_check.sh checks a fresh clone against a mirror instead)")

CHAPTERS = [p for p in toc_chapters() if is_text_notebook(p)]


def _mirror_tool():
    spec = importlib.util.spec_from_file_location("public_mirror", ROOT / "tools" / "public_mirror.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """Empty data folder and cache, downloads served from a local public-layout mirror."""
    tool = _mirror_tool()
    root = tmp_path_factory.mktemp("fresh")
    tool.build(SHARED_DATA, root / "mirror")
    httpd, base = tool.start_server(root / "mirror")
    (root / "data").mkdir()
    (root / "cache").mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SVMTEXT_DATA", str(root / "data"))
        mp.setenv("XDG_CACHE_HOME", str(root / "cache"))
        mp.setenv("SVMTEXT_DOWNLOAD_MIRROR", base)
        mp.setenv("MPLBACKEND", "Agg")
        yield root
    httpd.shutdown()
    httpd.server_close()


def _load(call, data: Path, monkeypatch) -> list[np.ndarray]:
    """The arrays a loader call returns with ``data`` as the data folder (dict-likes flattened)."""
    monkeypatch.setenv("SVMTEXT_DATA", str(data))
    out = call()
    out = out if isinstance(out, tuple) else (out,)
    arrays = []
    for item in out:
        if isinstance(item, dict):
            arrays += [np.asarray(item[k]) for k in sorted(item)]
        else:
            arrays.append(np.asarray(item))
    return arrays


def _loader_calls():
    import svmtext.datasets as D

    calls = {f"mnist_{s}": (lambda s=s: D.load_mnist(s)) for s in ("train", "test")}
    calls["mnist_4v9_test"] = lambda: D.load_mnist_4v9("test")
    for name in D.RAETSCH_POOL_NAMES:
        calls[f"raetsch_pool_{name}"] = lambda name=name: D.load_raetsch_pool(name)
    for name in D.RAETSCH_SPLIT_NAMES:
        calls[f"raetsch_{name}"] = (
            lambda name=name: tuple(a for r in range(10) for a in D.load_raetsch(name, r)))
    for name in ("ionosphere", "sonar", "german_numeric", "glass", "vehicle", "segment"):
        calls[name] = getattr(D, f"load_{name}")
    calls["compas"] = lambda: D.load_compas(filtered=False)
    return calls


LOADERS = _loader_calls()


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_loader_equals_shared_copy(fresh, monkeypatch, name):
    got = _load(LOADERS[name], fresh / "data", monkeypatch)
    ref = _load(LOADERS[name], SHARED_DATA, monkeypatch)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert g.dtype == r.dtype and g.shape == r.shape and np.array_equal(g, r), name


def test_assembled_files_equal_shared_copies(fresh, monkeypatch):
    """Every Rätsch/IDA .npz assembled from the split files: same arrays, same dtypes."""
    from svmtext.datasets import fetch
    from svmtext.datasets._registry import ASSEMBLED

    for relpath in ASSEMBLED:
        with np.load(fetch(relpath)) as got, np.load(SHARED_DATA / relpath) as ref:
            assert sorted(got.files) == sorted(ref.files), relpath
            for k in ref.files:
                assert got[k].dtype == ref[k].dtype and np.array_equal(got[k], ref[k]), (relpath, k)
    leftovers = [p for p in (fresh / "data").rglob(".*")]
    assert leftovers == []                                # no temporary file or folder


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_chapter_executes(fresh, tmp_path, chapter):
    """The chapter as a student's .ipynb, run by nbclient outside the repository."""
    import jupytext
    import nbformat
    from nbclient import NotebookClient

    ipynb = tmp_path / f"{chapter.stem}.ipynb"
    jupytext.write(jupytext.read(chapter), ipynb, fmt="ipynb")
    nb = nbformat.read(ipynb, as_version=4)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        os.chdir(cwd)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.execution_count is not None for c in code if c.source.strip())
