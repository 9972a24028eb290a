"""Every page of the built book in headless Chromium (tools/check_pages.py).

Each page of ``_build/html`` (``make book``) is opened at 1280 px with the network
sealed, and must show: math typeset with no raw TeX, ``$`` or MyST role left in the
text, no MathJax error; every image loaded; no console error; no request leaving the
machine; no display equation, output, table or code line wider than the text column;
figures with caption, alt text and label (the categories of ``tools/check_pages.py``,
whose self-test on synthetic pages with each defect is tests/test_page_check.py).

The test uses the built site; it does not build the book (``make book`` executes every
chapter, several minutes). It runs with ``SVMTEXT_PAGES=1`` or ``SVMTEXT_REQUIRE_PAGES=1``
(``make test-pages``, ``.ci/run`` after ``make book``), so that ``make test`` stays fast,
and is skipped, with the reason, when Chromium is missing, when no book is built, or when
the build is older than a chapter's source; with ``SVMTEXT_REQUIRE_PAGES=1`` each of
these fails instead. ``SVMTEXT_HTML`` points at another built site (e.g.
``tools/build_one.sh``'s).
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
import check_pages  # noqa: E402
from conftest import toc_entries  # noqa: E402

HTML = Path(os.environ.get("SVMTEXT_HTML") or ROOT / "_build" / "html")
REQUIRED = bool(os.environ.get("SVMTEXT_REQUIRE_PAGES"))
CHROMIUM = any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))


def _why_not() -> str | None:
    """Why the pages are not checked (None: they are)."""
    if not (REQUIRED or os.environ.get("SVMTEXT_PAGES")):
        return ("the page check runs after `make book` (make test-pages, .ci/run); "
                "SVMTEXT_PAGES=1 runs it here")
    if not CHROMIUM:
        return "chromium not installed (apt-get install chromium); .ci/run installs it as root"
    if not (HTML / "index.html").is_file():
        return f"no built book in {HTML} (make book)"
    built = min((p.stat().st_mtime for p in check_pages.all_pages(HTML)), default=0)
    newer = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "book").glob("*.md"))
             if p.stat().st_mtime > built and (HTML / "book" / f"{p.stem}.html").is_file()]
    if newer and HTML == ROOT / "_build" / "html":
        return f"the built book is older than {', '.join(newer)} (make book)"
    return None


REASON = _why_not()
PAGES = check_pages.all_pages(HTML) if (HTML / "index.html").is_file() else []


def _skip_or_fail():
    if REASON:
        if REQUIRED:
            pytest.fail(f"SVMTEXT_REQUIRE_PAGES=1 but {REASON}")
        pytest.skip(REASON)


def test_every_toc_page_was_built():
    _skip_or_fail()
    if HTML != ROOT / "_build" / "html":
        pytest.skip("SVMTEXT_HTML: a partial site")
    missing = [e for e in toc_entries(ROOT) if not (HTML / f"{e}.html").is_file()]
    assert not missing, f"pages of _toc.yml not in {HTML}: {missing}"


def test_every_page_states_the_licence():
    """The footer of every page names the licence of the text (CC BY 4.0, _config.yml's
    ``html.extra_footer``)."""
    _skip_or_fail()
    pages = check_pages.all_pages(HTML)
    missing = [p.name for p in pages if "CC BY 4.0" not in p.read_text(encoding="utf-8")
               and "bd-article" in p.read_text(encoding="utf-8")]
    assert not missing, f"pages without the licence line (html.extra_footer): {missing}"


@pytest.mark.parametrize("page", PAGES or [None],
                         ids=lambda p: p.stem if p is not None else "no-pages")
def test_page_in_headless_chromium(page):
    _skip_or_fail()
    res = check_pages.check_page(page)
    bad = {c: n for c, n in res["counts"].items() if n}
    assert not bad, check_pages.format_result(res, max_items=8, root=HTML.resolve())
    if res.get("measure", {}).get("n_math"):
        assert res["measure"]["mathjax"], "MathJax did not start"
