"""The course scaffolding: each chapter opens with its learning objectives,
prerequisites and estimated time; the syllabus maps every chapter and assignment onto
12-14 weeks and is in the table of contents."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "assignments"))
import make_assignments as build  # noqa: E402

CHAPTERS = list(build.CHAPTERS.values())
LABELS = {"margin": "sec-margin", "duality": "sec-duality", "smo": "sec-smo",
          "practice": "sec-practice", "ecology": "sec-eco", "coulomb": "sec-coulomb",
          "psvm": "sec-psvm", "enumsv": "sec-enumsv"}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_opens_with_objectives_prerequisites_and_time(chapter):
    text = (ROOT / "book" / f"{chapter}.md").read_text(encoding="utf-8")
    m = re.search(r"^# .+\n\n```\{admonition\} In this chapter\n(.*?)\n```\n", text, re.M | re.S)
    assert m, f"{chapter}: no 'In this chapter' block right after the title"
    block = m.group(1)
    objectives = re.findall(r"^- ", block, re.M)
    assert 2 <= len(objectives) <= 6, f"{chapter}: {len(objectives)} objectives"
    assert "**Prerequisites.**" in block
    assert re.search(r"\*\*Estimated time\.\*\* About [\d.]+ hours?", block)
    assert f"`{chapter}`" in block, "the chapter's assignment is named"


def test_syllabus_maps_chapters_and_assignments_onto_the_weeks():
    text = (ROOT / "book" / "syllabus.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \|(.*)\|$", text, re.M)
    weeks = [int(w) for w, _ in rows]
    assert 12 <= len(weeks) <= 14 and weeks == list(range(1, len(weeks) + 1))
    for chapter in CHAPTERS:
        assert f"{{ref}}`{LABELS[chapter]}`" in text, chapter
        due = [r.rsplit("|", 1)[-1].strip() for _, r in rows]
        assert due.count(f"`{chapter}`") == 1, f"assignment {chapter} due once"
    assert all("{cite" in r for _, r in rows), "every week has a reading"
    bib = (ROOT / "book" / "references.bib").read_text(encoding="utf-8")
    for key in re.findall(r"\{cite:t\}`([^`]+)`", text):
        assert f"{{{key}," in bib, f"{key} not in references.bib"
    assert "file: book/syllabus" in (ROOT / "_toc.yml").read_text()
