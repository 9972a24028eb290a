#!/usr/bin/env bash
# Vendor MathJax 3 into the built site so the book's math renders without internet.
#
#   bash tools/vendor_mathjax.sh 3.2.2 _vendor/mathjax
#
# Fetches npm's mathjax@VERSION (a pinned 3.x: npm's latest is 4.x) and copies the
# combined TeX+MathML -> CommonHTML component, its woff-v2 fonts, the TeX extensions and
# the ui/a11y/sre components (context menu, accessibility) into DEST. _config.yml serves
# DEST's parent through `html_extra_path`, so DEST appears as `mathjax/` at the site root.
#
# DEST is replaced atomically: everything is assembled in a temporary folder beside it
# and moved into place at the end, so an interrupted run never leaves a partial copy.
#
# Without npm (or when npm fails) DEST/tex-mml-chtml.js becomes a small loader that
# fetches the same MathJax version from a CDN: the book still renders when online, and
# a warning says that offline math is not available.
set -euo pipefail

NPM=${NPM:-npm}   # override to test the fallback, e.g. NPM=no-such-npm
VERSION=${1:?usage: vendor_mathjax.sh VERSION DEST}
DEST=${2:?usage: vendor_mathjax.sh VERSION DEST}
DEST=${DEST%/}
PARENT=$(dirname "$DEST")
mkdir -p "$PARENT"

STAGE=$(mktemp -d "$PARENT/.mathjax-stage.XXXXXX")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mathjax-npm.XXXXXX")
cleanup() { rm -rf "$STAGE" "$WORK"; }
trap cleanup EXIT

fetch_npm() {
    command -v "$NPM" >/dev/null 2>&1 || { echo "npm not found ($NPM)" >&2; return 1; }
    local tarball
    tarball=$(cd "$WORK" && "$NPM" pack --silent "mathjax@$VERSION" 2>"$WORK/npm.log" | tail -n 1) \
        || { cat "$WORK/npm.log" >&2; return 1; }
    [ -f "$WORK/$tarball" ] || { echo "npm pack produced no tarball" >&2; return 1; }
    tar -xzf "$WORK/$tarball" -C "$WORK"        # unpacks into $WORK/package
    local src="$WORK/package/es5"
    local got
    got=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$WORK/package/package.json" | head -n 1)
    [ "$got" = "$VERSION" ] || { echo "npm gave mathjax $got, wanted $VERSION" >&2; return 1; }
    mkdir -p "$STAGE/output/chtml/fonts" "$STAGE/input/tex"
    cp "$src/tex-mml-chtml.js" "$STAGE/"
    cp -r "$src/output/chtml/fonts/woff-v2" "$STAGE/output/chtml/fonts/"
    cp -r "$src/input/tex/extensions" "$STAGE/input/tex/"
    cp -r "$src/ui" "$src/a11y" "$src/sre" "$STAGE/"
    cp "$WORK/package/LICENSE" "$STAGE/LICENSE" 2>/dev/null || true
    echo "mathjax@$VERSION from npm (offline)" > "$STAGE/VERSION"
}

write_fallback() {
    rm -rf "$STAGE" && mkdir -p "$STAGE"
    cat > "$STAGE/tex-mml-chtml.js" <<EOF
/* Fallback written by tools/vendor_mathjax.sh: npm could not provide mathjax@$VERSION,
 * so MathJax is loaded from a CDN. Math renders only with internet access.
 * Install npm and run \`make clean book\` for math that renders offline. */
(function () {
  var s = document.createElement("script");
  s.src = "https://cdn.jsdelivr.net/npm/mathjax@$VERSION/es5/tex-mml-chtml.js";
  s.async = true;
  s.id = "MathJax-script-cdn";
  document.head.appendChild(s);
})();
EOF
    echo "mathjax@$VERSION CDN loader (online only)" > "$STAGE/VERSION"
    # Older than this script, so that `make book` tries npm again next time.
    touch -d @0 "$STAGE/tex-mml-chtml.js"
}

if fetch_npm; then
    echo "vendor_mathjax: mathjax@$VERSION installed into $DEST (math renders offline)"
else
    write_fallback
    cat >&2 <<EOF
################################################################################
WARNING: could not fetch mathjax@$VERSION with npm.
         $DEST/tex-mml-chtml.js now loads MathJax from a CDN: the book's math
         renders only when the reader is online. Install npm and rerun
         \`make clean book\` for math that renders without internet.
################################################################################
EOF
fi

# Atomic replacement: move the old copy aside, move the new one in, drop the old.
chmod 755 "$STAGE"
OLD=""
if [ -e "$DEST" ]; then
    OLD=$(mktemp -d "$PARENT/.mathjax-old.XXXXXX")
    mv "$DEST" "$OLD/"
fi
mv "$STAGE" "$DEST"
[ -n "$OLD" ] && rm -rf "$OLD"
exit 0
