"""PDFs of the hand-graded answers, offline (assignments/export_manual.py, make export-manual).

A student notebook of the margin assignment (otter assign, in this process) gets an answer
with formulas in its derivation cell; its PDF must hold just that question, printed by
headless Chromium with the network sealed, the formulas typeset by the vendored MathJax.
Skipped without Chromium or the vendored MathJax.
"""
from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "assignments"))
import export_manual  # noqa: E402
import make_assignments as build  # noqa: E402

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("otter") is None, reason="otter not installed"),
    pytest.mark.skipif(not any(shutil.which(n) for n in ("chromium", "chromium-browser")),
                       reason="chromium not installed (apt-get install chromium)"),
    pytest.mark.skipif(not export_manual.MATHJAX.is_file(),
                       reason="no vendored MathJax (bash tools/vendor_mathjax.sh 3.2.2 _vendor/mathjax)"),
]


def test_manual_answers_to_pdf_offline(tmp_path):
    import nbformat

    folder = build.assign("margin", tmp_path / "a", run_tests=False, in_process=True)
    nb = nbformat.read(build.student_notebook(folder), as_version=4)
    answer = [c for c in nb.cells if c.cell_type == "markdown"
              and "Type your answer here" in c.source]
    assert len(answer) == 1, "one hand-graded answer cell"
    answer[0].source = r"The foot is $x_0 = x - t\,w/\lVert w\rVert$, so $|t|$ is the distance."
    sub = tmp_path / "ann.ipynb"
    nbformat.write(nb, sub)
    html = export_manual.manual_html(sub)
    assert "The foot is" in html and "Question 5 (derivation" in html
    assert "Question 1." not in html, "only the hand-graded question"
    assert "cdnjs" not in html and not re.findall(r'(?:src|href)="https?://', html)
    rep = export_manual.export(sub, tmp_path / "manual" / "ann.pdf")
    assert rep["network"] == [] and rep["errors"] == 0
    assert rep["typeset"] >= 3, rep
    assert (tmp_path / "manual" / "ann.pdf").read_bytes().startswith(b"%PDF")
