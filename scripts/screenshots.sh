#!/bin/sh
# Screenshots of the search pictures for docs/search-visualised.md: the search trees of
# 6-queens (every solution) and of the pigeonhole puzzle drawn by `cpsolve --tree`, and the
# pigeonhole animation of `cpsolve --animate`, photographed by headless Chromium. Run from the repository's root:
#
#   sh scripts/screenshots.sh
#
# It builds cpsolve (profile ci) and writes docs/images/tree-queens6.png,
# docs/images/tree-pigeonhole.png and docs/images/animate-pigeonhole.png.
set -eu
chromium=${CHROMIUM:-/usr/bin/chromium}
if ! [ -x "$chromium" ]; then
    echo "scripts/screenshots.sh: no Chromium at $chromium (set CHROMIUM=...)" >&2
    exit 1
fi
cargo build --quiet --profile ci -p cli
cpsolve=target/ci/cpsolve
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p docs/images
shot() { # shot SVG PNG: a window the size the SVG says it is
    size=$(grep -o '<svg[^>]*' "$1" | sed 's/.* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/')
    "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run \
        --user-data-dir="$work/profile" --hide-scrollbars \
        --window-size="$size" --screenshot="$2" "file://$1" 2>/dev/null
}
$cpsolve queens 6 -a --tree "$work/queens6.svg" > /dev/null
shot "$work/queens6.svg" "$PWD/docs/images/tree-queens6.png"
$cpsolve pigeonhole --tree "$work/pigeonhole.svg" > /dev/null
shot "$work/pigeonhole.svg" "$PWD/docs/images/tree-pigeonhole.png"
# The animation of the pigeonhole puzzle at step 21 (a failure), the page at 900x500.
$cpsolve pigeonhole --animate "$work/pigeonhole.html" > /dev/null
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run \
    --user-data-dir="$work/profile" --hide-scrollbars --window-size=900,460 \
    --screenshot="$PWD/docs/images/animate-pigeonhole.png" "file://$work/pigeonhole.html#20" 2>/dev/null
echo "wrote docs/images/tree-queens6.png docs/images/tree-pigeonhole.png docs/images/animate-pigeonhole.png"
