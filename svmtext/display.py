r"""Tables for the chapters: rows of numbers rendered as a Markdown table.

A chapter that compares numbers (ours beside a source's, one solver beside another)
shows them as a rendered table rather than printed text, so the page keeps its
column width and a reader can copy the values. Used by every chapter.
"""
from __future__ import annotations

from numbers import Integral, Real
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from IPython.display import Markdown

__all__ = ["format_cell", "markdown_table", "table"]


def format_cell(value, floatfmt: str = ".4g") -> str:
    """One table cell: integers as they are, reals with ``floatfmt``, the rest as ``str``."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, Integral):
        return f"{int(value):,}"
    if isinstance(value, Real):
        return format(float(value), floatfmt)
    return str(value).replace("|", r"\|")


def markdown_table(rows, columns, floatfmt: str = ".4g") -> str:
    """The Markdown source of a table with header ``columns`` and one line per row.

    Parameters
    ----------
    rows : iterable of sequences
        Each row has one value per column.
    columns : sequence of str
        Column headers (Markdown and inline math allowed).
    floatfmt : str or sequence of str
        Format spec for real numbers, one for all columns or one per column.
    """
    columns = list(columns)
    fmts = [floatfmt] * len(columns) if isinstance(floatfmt, str) else list(floatfmt)
    if len(fmts) != len(columns):
        raise ValueError(f"floatfmt has {len(fmts)} entries for {len(columns)} columns")
    header = [c.replace("|", r"\|") for c in map(str, columns)]   # |x| would split a cell
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        row = list(row)
        if len(row) != len(columns):
            raise ValueError(f"a row has {len(row)} values for {len(columns)} columns: {row!r}")
        lines.append("| " + " | ".join(format_cell(v, f) for v, f in zip(row, fmts)) + " |")
    return "\n".join(lines)


def table(rows, columns, floatfmt: str = ".4g") -> Markdown:
    """The table as an ``IPython.display.Markdown`` object (rendered in the book and Jupyter)."""
    from IPython.display import Markdown

    return Markdown(markdown_table(rows, columns, floatfmt))
