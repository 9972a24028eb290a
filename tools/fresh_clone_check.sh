#!/usr/bin/env bash
# A reader's fresh clone, with no ../shared beside it: `make test` and `make book`, every
# data file downloaded on first use from a local server holding the public sources.
#
#   tools/fresh_clone_check.sh [--link-venv] [--keep] [--targets "test book"] DATA_FOLDER
#
# DATA_FOLDER   the book's data folder (e.g. ../shared/data); tools/public_mirror.py turns
#               it into the public layout and serves it on 127.0.0.1 (SVMTEXT_DOWNLOAD_MIRROR).
# --link-venv   use this repository's .venv in the clone (symlink, PYTHONPATH=clone, the
#               install step skipped) instead of creating a new one from requirements.txt.
# --keep        keep the temporary folder (clone, mirror, cache, logs) afterwards.
# --targets T   the make targets to run in the clone, in order (default "test book"; CI runs
#               "coverage book": the unit tests with svmtext's coverage, and make book, which
#               executes every chapter, so make test's chapter half would run them twice).
#
# Prints the last lines and the exit code of each command; exits non-zero if either failed.
set -uo pipefail

link=0 keep=0 data= targets="test book"
while [ $# -gt 0 ]; do
  case $1 in
    --link-venv) link=1 ;;
    --keep) keep=1 ;;
    --targets) targets=$2; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) data=$1 ;;
  esac
  shift
done
[ -n "$data" ] && [ -f "$data/README.md" ] || { echo "usage: $0 [--link-venv] [--keep] [--targets T] DATA_FOLDER" >&2; exit 2; }
data=$(cd "$data" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
py=$repo/.venv/bin/python
[ -x "$py" ] || py=python3

work=$(mktemp -d "${TMPDIR:-/tmp}/svmtext-fresh.XXXXXX")
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  if [ "$keep" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

clone=$work/svmtext
git clone --quiet "$repo" "$clone" || exit 1
[ ! -e "$work/shared" ] || { echo "$work/shared exists" >&2; exit 1; }
echo "clone: $clone (commit $(git -C "$clone" rev-parse --short HEAD)); no $work/shared"

# The mirror is built with the clone's registry of sources.
PYTHONPATH=$clone "$py" "$clone/tools/public_mirror.py" build-and-serve "$data" "$work/mirror" \
  > "$work/mirror.log" 2>&1 &
server=$!
for _ in $(seq 600); do
  grep -q '^export SVMTEXT_DOWNLOAD_MIRROR=' "$work/mirror.log" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$work/mirror.log"; exit 1; }
  sleep 1
done
cat "$work/mirror.log"
export "$(sed -n 's/^export //p' "$work/mirror.log")"

unset SVMTEXT_DATA
export XDG_CACHE_HOME=$work/cache
mkdir -p "$XDG_CACHE_HOME"
echo "SVMTEXT_DOWNLOAD_MIRROR=$SVMTEXT_DOWNLOAD_MIRROR XDG_CACHE_HOME=$XDG_CACHE_HOME SVMTEXT_DATA unset"

make_args=()
if [ "$link" = 1 ]; then
  ln -s "$repo/.venv" "$clone/.venv"
  export PYTHONPATH=$clone              # the clone's svmtext, not the linked one
  make_args=(-o .venv/.svmtext-installed -o .venv/.dev-installed)   # never install into the linked environment
fi

status=0
for target in $targets; do
  start=$(date +%s)
  (cd "$clone" && make "${make_args[@]}" "$target") > "$work/make-$target.log" 2>&1
  rc=$?
  echo "=== make $target: exit code $rc ($(( $(date +%s) - start )) s); last lines:"
  if [ "$target" = coverage ]; then            # the whole per-module table
    sed -n '/coverage: platform/,$p' "$work/make-$target.log"
  else
    tail -n 12 "$work/make-$target.log"
  fi
  [ "$rc" = 0 ] || status=1
done
echo "=== data cache after the run: $(find "$XDG_CACHE_HOME/svmtext" -type f 2>/dev/null | wc -l) files," \
     "$(du -sh "$XDG_CACHE_HOME/svmtext" 2>/dev/null | cut -f1)"
exit $status
