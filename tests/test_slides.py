"""Slide decks from the tagged cells of the chapters (tools/make_slides.py, ``make slides``).

Quick checks (make test): every chapter of _toc.yml tags cells for its slides and all of
them convert (no MyST markup that the deck cannot show, no exercise or solution); the MyST
rewriting on small examples; and one deck (the margin chapter, without running it) built
into a temporary folder and opened in headless Chromium with the network sealed
(tools/check_slides.py): reveal.js shows as many slides as were tagged, the formulas are
typeset, nothing overflows a slide, no request leaves the machine. Skipped, with the reason,
without Chromium, without the vendored MathJax or without reveal.js and npm to fetch it.

``SVMTEXT_SLIDES=1`` also checks every deck that ``make slides`` wrote to _build/slides
(with the chapters' figures).
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import make_slides  # noqa: E402

CHROMIUM = any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))
MIN_SLIDES = 5


def _slide_count(nb) -> int:
    """Slides of a deck: the title slide and one per slide/subslide cell (the first tagged
    cell always opens a slide)."""
    chosen = make_slides.tagged_cells(nb)
    return 1 + len(chosen) - sum(1 for k, (_, _, st) in enumerate(chosen)
                                 if k and st not in ("slide", "subslide"))


@pytest.mark.parametrize("md", make_slides.chapters(), ids=lambda p: p.stem)
def test_chapter_has_slides_that_convert(md):
    import jupytext

    nb = jupytext.read(md)
    n = _slide_count(nb)
    assert n - 1 >= MIN_SLIDES, (f"{md.name}: {n - 1} slides tagged, at least {MIN_SLIDES} "
                                 "wanted (tags slide/subslide/fragment on cells)")
    deck = make_slides.slide_notebook(md, None)   # raises SlideError on unknown markup
    assert sum(c.metadata["slideshow"]["slide_type"] in ("slide", "subslide")
               for c in deck.cells) == n


def test_myst_rewriting():
    conv = make_slides.Converter("margin")
    src = ("(sec-x)=\n## Title\n\n:::{prf:definition} Hard margin\n:label: def-x\n\n"
           "$$\na = b\n$$ (eq-primal-hard)\n:::\n\nSee {eq}`eq-primal-hard`, "
           "{ref}`sec-margin-hard` and {cite}`boser1992training`; {cite:t}`vapnik1995nature`.")
    out = conv.markdown(src, 1)
    assert "(sec-x)=" not in out and ":label:" not in out and "{" not in out.replace(
        "\\tag{", "")
    assert "**Definition (Hard margin).**" in out
    n = conv.targets["equations"]["eq-primal-hard"][1]
    assert f"\\tag{{{n}}}" in out and f"See ({n})" in out
    assert "“The hard-margin primal”" in out
    assert "(Boser et al., 1992)" in out and "Vapnik (1995)" in out
    with pytest.raises(make_slides.SlideError, match="solution"):
        conv.markdown("```{solution-start} ex-x\n:class: dropdown\n```\n", 7)
    with pytest.raises(make_slides.SlideError, match=r"margin\.md.*figure"):
        conv.markdown("```{figure} a.png\nA picture\n```\n", 3)
    with pytest.raises(make_slides.SlideError, match="unknown label"):
        conv.markdown("{ref}`sec-no-such-section`", 1)
    glued = make_slides.Converter("coulomb", glue={"acc": "0.91234", "n": "7"})
    assert glued.markdown("{glue:text}`acc:.2f` with {glue:text}`n` of them", 1) == \
        "0.91 with 7 of them"
    with pytest.raises(make_slides.SlideError, match="did not glue"):
        glued.markdown("{glue:text}`missing`", 1)
    assert make_slides.Converter("coulomb").markdown("{glue}`acc`", 1) == "⟨acc⟩"


def _why_not() -> str | None:
    if not CHROMIUM:
        return "chromium not installed (apt-get install chromium)"
    if not (make_slides.MATHJAX / "tex-mml-chtml.js").is_file():
        return "no vendored MathJax (bash tools/vendor_mathjax.sh 3.2.2 _vendor/mathjax)"
    if not (make_slides.REVEAL / "dist" / "reveal.js").is_file() and not shutil.which("npm"):
        return "no reveal.js in _build/vendor and no npm to fetch it (make slides)"
    return None


def test_margin_deck_in_headless_chromium(tmp_path):
    reason = _why_not()
    if reason:
        pytest.skip(reason)
    try:
        make_slides.vendor_reveal()        # once: npm pack reveal.js into _build/vendor
    except (RuntimeError, OSError) as err:
        pytest.skip(f"reveal.js could not be fetched: {err}")
    import check_slides
    import jupytext

    md = ROOT / "book" / "margin.md"
    deck = make_slides.build(md, tmp_path, execute_cells=False)
    res = check_slides.check_deck(deck)
    bad = {c: n for c, n in res["counts"].items() if n}
    assert not bad, check_slides.format_result(res)
    assert res["measure"]["slides"] == _slide_count(jupytext.read(md))
    assert res["measure"]["n_typeset"] > 10
    assert (tmp_path / "reveal.js" / "dist" / "reveal.js").is_file()
    html = deck.read_text(encoding="utf-8")
    assert "unpkg.com" not in html and "cdnjs" not in html and "cdn.jsdelivr" not in html


DECKS = sorted((ROOT / "_build" / "slides").glob("*.slides.html"))


@pytest.mark.skipif(not os.environ.get("SVMTEXT_SLIDES"),
                    reason="SVMTEXT_SLIDES=1 checks the decks of `make slides`")
@pytest.mark.parametrize("deck", DECKS or [None], ids=lambda p: p.name if p else "none")
def test_built_deck(deck):
    if deck is None:
        pytest.fail("no decks in _build/slides (make slides)")
    import check_slides

    res = check_slides.check_deck(deck)
    assert not any(res["counts"].values()), check_slides.format_result(res)
