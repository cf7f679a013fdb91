#!/bin/sh
# Screenshots of the search pictures for docs/search-visualised.md and docs/puzzles/pigeonhole.md:
# the search trees of 6-queens (every solution) and of the pigeonhole puzzle drawn by
# `cpsolve --tree`, and animations of `cpsolve --animate` (pigeonhole in two viewpoints, a
# Star Battle, a Kakuro), photographed by headless Chromium. Run from the repository's root:
#
#   sh scripts/screenshots.sh
#
# It builds cpsolve (profile ci) and writes docs/images/tree-queens6.png,
# docs/images/tree-pigeonhole.png, docs/images/tree-pigeonhole-learn.png, docs/images/animate-*.png, and the two pigeonhole pages
# docs/animations/pigeonhole-columns.html and pigeonhole-both.html (small: kept in the repository).
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
# The same puzzle with learning: its backjump to the root, in the tree and in the animation
# (step 13: the jump; docs/10-learning.md).
$cpsolve pigeonhole --learn --tree "$work/pigeonhole-learn.svg" --animate "$work/pigeonhole-learn.html" > /dev/null
shot "$work/pigeonhole-learn.svg" "$PWD/docs/images/tree-pigeonhole-learn.png"
page() { # page HTML PNG SIZE: the page at a given step (HTML ends in #N or #last)
    "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run \
        --user-data-dir="$work/profile" --hide-scrollbars --window-size="$3" \
        --screenshot="$PWD/docs/images/$2" "file://$1" 2>/dev/null
}
# The pigeonhole puzzle, both viewpoints channelled, at step 21 (a failure), and the column
# model alone at step 41 (a failure).
mkdir -p docs/animations
$cpsolve pigeonhole --animate docs/animations/pigeonhole-both.html > /dev/null
$cpsolve pigeonhole --viewpoint columns --animate docs/animations/pigeonhole-columns.html > /dev/null
page "$PWD/docs/animations/pigeonhole-both.html#20" animate-pigeonhole.png 900,460
page "$PWD/docs/animations/pigeonhole-columns.html#40" animate-pigeonhole-columns.png 900,460
page "$work/pigeonhole-learn.html#12" animate-pigeonhole-backjump.png 900,460
# A Star Battle after its first star (regions bordered), and a Kakuro's
# solution among its clue cells.
$cpsolve starbattle puzzles/instances/beyond/starbattle6-1-2.txt --animate "$work/starbattle.html" > /dev/null
page "$work/starbattle.html#9" animate-starbattle.png 900,460
$cpsolve kakuro puzzles/instances/seed/kakuro.txt --animate "$work/kakuro.html" > /dev/null
page "$work/kakuro.html#last" animate-kakuro.png 900,580
echo "wrote docs/images/tree-queens6.png docs/images/tree-pigeonhole.png docs/images/animate-*.png docs/animations/pigeonhole-*.html"
