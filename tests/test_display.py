"""Tables for the chapters: one Markdown row per row, pipes escaped so cells never split."""
import pytest

from svmtext.display import markdown_table


def test_table_shape_and_formats():
    md = markdown_table([["a", 12345, 0.123456]], ["x", "n", "$W$"], [".4g", ".4g", ".2f"])
    assert md.splitlines() == ["| x | n | $W$ |", "|---|---|---|", "| a | 12,345 | 0.12 |"]


def test_pipes_in_headers_and_cells_are_escaped():
    md = markdown_table([["|a|", 1]], ["max |alpha diff|", "|b diff|"])
    header, _, row = md.splitlines()
    assert header.count("|") - header.count(r"\|") == 3        # two cells, not five
    assert row.count("|") - row.count(r"\|") == 3


def test_row_length_must_match():
    with pytest.raises(ValueError, match="2 values for 3 columns"):
        markdown_table([[1, 2]], ["a", "b", "c"])


def test_empty_and_boolean_cells_and_one_format_per_column():
    md = markdown_table([[None, True, 3.14159]], ["a", "b", "c"], ".3g")
    assert md.splitlines()[2] == "|  | True | 3.14 |"          # None is an empty cell
    with pytest.raises(ValueError, match="floatfmt has 2 entries for 3 columns"):
        markdown_table([[1, 2, 3]], ["a", "b", "c"], [".2f", ".2f"])


def test_table_renders_the_same_markdown():
    from svmtext.display import table
    rows, columns = [[1, 0.5]], ["n", "x"]
    assert table(rows, columns, ".2f").data == markdown_table(rows, columns, ".2f")
