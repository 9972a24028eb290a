"""Bibliography labels are author-year, as the text cites (book/_ext/svmtext_sphinx.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinxcontrib.bibtex")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "book" / "_ext"))
import svmtext_sphinx  # noqa: E402
from pybtex.database import parse_string  # noqa: E402

BIB = r"""
@article{one, author = {Platt, John C.}, title = {T}, year = {1999}}
@article{two, author = {Chang, Chih-Chung and Lin, Chih-Jen}, title = {T}, year = {2011}}
@article{three, author = {Fan, R.-E. and Chen, P.-H. and Lin, C.-J.}, title = {T}, year = {2005}}
@misc{corp, author = {{Anonymous lecture slides}}, title = {T}, year = {n.d.}}
@article{dupa, author = {Keerthi, S. S. and Shevade, S. K. and Bhattacharyya, C.}, title = {A}, year = {2001}}
@article{dupb, author = {Keerthi, S. S. and Gilbert, E. G. and Murthy, K.}, title = {B}, year = {2001}}
@article{von, author = {von Luxburg, Ulrike}, title = {T}, year = {2007}}
"""


def test_author_year_labels():
    entries = list(parse_string(BIB, "bibtex").entries.values())
    labels = dict(zip((e.key for e in entries),
                      svmtext_sphinx.AuthorYearLabelStyle().format_labels(entries)))
    assert labels["one"] == "Platt, 1999"
    assert labels["two"] == "Chang and Lin, 2011"
    assert labels["three"] == "Fan et al., 2005"
    assert labels["corp"] == "Anonymous lecture slides, n.d."
    assert (labels["dupa"], labels["dupb"]) == ("Keerthi et al., 2001a", "Keerthi et al., 2001b")
    assert labels["von"] == "von Luxburg, 2007"


def test_styles_registered():
    from pybtex.plugin import find_plugin

    assert find_plugin("pybtex.style.formatting", "svmtext") is svmtext_sphinx.AuthorYearStyle
    import sphinxcontrib.bibtex.plugin as bp

    style = bp.find_plugin("sphinxcontrib.bibtex.style.referencing", "author_year_round")
    assert style().bracket_parenthetical.left == "("
