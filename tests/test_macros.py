"""Every chapter defines the TeX macros it uses, as ``_config.yml`` defines them.

A chapter opened in JupyterLab (or converted to ``.ipynb``) does not read
``_config.yml``; its hidden first cell (``tools/sync_macros.py``) must define every
configured macro the chapter uses, with the configured definition.
"""
import re
import sys
from pathlib import Path

import jupytext
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from sync_macros import chapters, config_macros, newcommand, used_macros  # noqa: E402

MACROS = config_macros(ROOT)
CHAPTERS = chapters(ROOT)
NEWCOMMAND = re.compile(r"\\newcommand\{\\([A-Za-z]+)\}")


def defined(nb):
    """Macro names defined by \\newcommand in the notebook's first cell."""
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "remove-cell" in first.metadata.get("tags", []), \
        "the first cell must be the hidden macro cell (python tools/sync_macros.py)"
    return first.source, set(NEWCOMMAND.findall(first.source))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_defines_every_macro_it_uses(path):
    nb = jupytext.read(path)
    source, names = defined(nb)
    body = "\n".join(c.source for c in nb.cells[1:])
    missing = set(used_macros(body, list(MACROS))) - names
    assert not missing, f"{path.name} uses undefined macros: {sorted(missing)}"
    front = yaml.safe_load(source.split("---\n")[1])["math"]   # read by jupyterlab-myst
    assert set(front) == {"\\" + n for n in names}
    for name in names:
        assert name in MACROS, f"{path.name} defines \\{name}, which _config.yml does not list"
        assert front["\\" + name] == MACROS[name][0]
        assert newcommand(name, *MACROS[name]) in source, \
            f"{path.name}: \\{name} differs from _config.yml (python tools/sync_macros.py)"


def test_the_check_catches_a_missing_macro():
    nb = jupytext.read(CHAPTERS[0])
    source, names = defined(nb)
    absent = next(n for n in MACROS if n not in names)
    nb.cells.append(jupytext.reads(f"$\\{absent} + 1$", fmt="md").cells[0])
    body = "\n".join(c.source for c in nb.cells[1:])
    assert set(used_macros(body, list(MACROS))) - names == {absent}
