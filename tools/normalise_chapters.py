"""Write every chapter in the layout jupytext itself writes, so that opening a chapter in
JupyterLab and saving it changes nothing (``make test-lab``; ``tests/test_chapter_layout.py``).

    .venv/bin/python tools/normalise_chapters.py          # rewrite book/*.md in place
    .venv/bin/python tools/normalise_chapters.py --check  # list the chapters that would change

A figure caption written as a YAML block (``caption: |``) holds line breaks, which jupytext
writes back as a quoted string with blank lines; the caption is one paragraph of MyST, so
its lines are joined with spaces first (the page renders the same). Everything else is
jupytext's read-and-write round trip with the repository's ``jupytext.toml``.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import jupytext
from jupytext.config import load_jupytext_config

ROOT = Path(__file__).resolve().parent.parent


def chapters(root: Path = ROOT) -> list[Path]:
    """The MyST-notebook pages of ``book/`` (those with a jupytext header)."""
    return sorted(p for p in (root / "book").glob("*.md")
                  if p.read_text(encoding="utf-8").startswith("---\njupytext:"))


def _one_paragraph(text: str) -> str:
    """Lines of each paragraph joined by a space (paragraphs kept apart by a blank line)."""
    paras = re.split(r"\n\s*\n", text.strip())
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paras)


def normalised(path: Path) -> str:
    """The text jupytext writes for ``path`` after its captions are made single paragraphs."""
    config = load_jupytext_config(str(path.parent))
    nb = jupytext.read(path, config=config)
    for cell in nb.cells:
        figure = cell.metadata.get("mystnb", {}).get("figure", {})
        if isinstance(figure.get("caption"), str):
            figure["caption"] = _one_paragraph(figure["caption"])
    return jupytext.writes(nb, fmt="md:myst", config=config)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list, do not write")
    args = parser.parse_args(argv)
    changed = []
    for path in chapters():
        text = normalised(path)
        if text != path.read_text(encoding="utf-8"):
            changed.append(path.relative_to(ROOT))
            if not args.check:
                path.write_text(text, encoding="utf-8")
    verb = "would change" if args.check else "rewritten"
    print(f"{len(changed)} chapter(s) {verb}" + "".join(f"\n  {p}" for p in changed))
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
