#!/usr/bin/env bash
# Build one chapter alone with the book's configuration (fast check for Sphinx warnings).
#   tools/build_one.sh book/smo        -> /tmp/svmtext-one-smo/_build/html
# Cross-references into chapters that are not built show up as warnings here; the full
# `make book` resolves them.
set -euo pipefail
cd "$(dirname "$0")/.."
ch=${1%.md}
name=$(basename "$ch")
tmp=/tmp/svmtext-one-$name
rm -rf "$tmp" && mkdir -p "$tmp/_vendor/mathjax"
[ -d _vendor/mathjax ] && cp -r _vendor/mathjax/. "$tmp/_vendor/mathjax/"
cp _config.yml "$tmp/"
cp -r book "$tmp/book"
printf 'format: jb-book\nroot: %s\nchapters:\n- file: book/references\n' "$ch" > "$tmp/_toc.yml"
MPLBACKEND=module://matplotlib_inline.backend_inline .venv/bin/jupyter-book build -W -n --keep-going "$tmp"
echo "built $tmp/_build/html"
