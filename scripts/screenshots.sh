#!/bin/sh
# Screenshots of the search pictures for docs/search-visualised.md: the search tree of
# 8-queens (every solution) and of the pigeonhole puzzle, drawn by `cpsolve --tree` and
# photographed by headless Chromium. Run from the repository's root:
#
#   sh scripts/screenshots.sh
#
# It builds cpsolve (profile ci) and writes docs/images/tree-queens8.png and
# docs/images/tree-pigeonhole.png.
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
shot() { # shot SVG PNG WIDTH HEIGHT
    "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run \
        --user-data-dir="$work/profile" --hide-scrollbars \
        --window-size="$3,$4" --screenshot="$2" "file://$1" 2>/dev/null
}
$cpsolve queens 8 -a --tree "$work/queens8.svg" > /dev/null
shot "$work/queens8.svg" "$PWD/docs/images/tree-queens8.png" 1400 420
$cpsolve pigeonhole --tree "$work/pigeonhole.svg" > /dev/null
shot "$work/pigeonhole.svg" "$PWD/docs/images/tree-pigeonhole.png" 1100 900
echo "wrote docs/images/tree-queens8.png docs/images/tree-pigeonhole.png"
