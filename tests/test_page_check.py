"""The page check (tools/check_pages.py) catches each defect a reader would see.

Synthetic pages, one with a defect of every kind (raw ``$`` and ``{numref}`` text left
by a proof line read as a list item, a display equation wider than the column, wide and
long outputs, a wide table, a shrunk uncaptioned figure with a file-name alt text, a
duplicated script, a request leaving the machine, MathJax errors) must fail, and a clean
page must pass. Needs Debian's Chromium; the math cases also need the vendored MathJax
(``make book`` or ``bash tools/vendor_mathjax.sh 3.2.2 _vendor/mathjax``).
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))
import check_pages  # noqa: E402

pytestmark = pytest.mark.skipif(
    not any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")),
    reason="chromium not installed (apt-get install chromium)")


def _run(tmp_path: Path, with_math: bool):
    bad, good = check_pages.write_selftest_pages(tmp_path, with_math)
    rb = check_pages.check_page(bad, tmp_path / "out")
    rg = check_pages.check_page(good, tmp_path / "out")
    return rb, rg


def _assert_caught(rb, rg, with_math):
    missed = [c for c in check_pages.expected_defects(with_math) if not rb["counts"][c]]
    assert not missed, check_pages.format_result(rb)
    assert not any(rg["counts"].values()), check_pages.format_result(rg)
    # the report names the place: the proof's title and the offending text
    text = "\n".join(rb["items"]["text"])
    assert "Proof of the theorem" in text and "$\\dot W" in text and "{numref}" in text
    assert any("50%" in s for s in rb["items"]["fig-small"])
    assert any("cdn.jsdelivr.net" in s for s in rb["items"]["network"])


def test_page_check_catches_text_output_figure_and_network_defects(tmp_path):
    rb, rg = _run(tmp_path, with_math=False)
    _assert_caught(rb, rg, with_math=False)


@pytest.mark.skipif(not check_pages.VENDOR_MATHJAX.is_file(),
                    reason="no vendored MathJax (_vendor/mathjax)")
def test_page_check_catches_math_defects(tmp_path):
    rb, rg = _run(tmp_path, with_math=True)
    _assert_caught(rb, rg, with_math=True)
    wide = rb["items"]["eq-wide"]
    assert len(wide) == 1 and "(1)" in wide[0] and "eq-wide" in wide[0]
    errors = "\n".join(rb["items"]["math-err"])
    assert "undefinedmacro" in errors and "close brace" in errors
