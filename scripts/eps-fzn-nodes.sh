#!/bin/bash
# Node counts of split FlatZinc models against the ordinary run (docs/PERFORMANCE.md,
# "Cluster: FlatZinc models"): the models of tests/minizinc/ split into 16 and 64 parts,
# every part solved one after the other, with and without a shared bound file for the
# optimisation model, then merged. Node counts do not depend on the machine's load.
#
#   scripts/eps-fzn-nodes.sh      (from the repository's root, after
#                                  cargo build --profile ci -p cli)
set -eu
cpsolve=${CPSOLVE:-$(pwd)/target/ci/cpsolve}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
field() { grep -o "\"$1\":[0-9A-Z_\"]*" | head -n 1 | cut -d: -f2 | tr -d '"'; }
printf "%-28s %6s %6s %10s %8s %s\n" model parts bound status nodes answer
run() {
    local name=$1 file=$2 flags=$3 parts=$4 bound=$5
    rm -rf "$work/results" "$work/best"
    "$cpsolve" split "$file" $flags --parts "$parts" > "$work/parts.jsonl"
    local total=$(($(wc -l < "$work/parts.jsonl") - 1)) i extra=()
    [ "$bound" = yes ] && extra=(--bound-file "$work/best")
    for ((i = 0; i < total; i++)); do
        "$cpsolve" solve-part "$work/parts.jsonl" --index "$i" -o "$work/results" "${extra[@]}"
    done
    local line
    line=$("$cpsolve" merge "$work/parts.jsonl" "$work/results")
    printf "%-28s %6s %6s %10s %8s %s\n" "$name $flags" "$total" "$bound" \
        "$(field status <<< "$line")" "$(field nodes <<< "$line")" \
        "$(field objective <<< "$line")$(field count <<< "$line")"
}
for model in "golomb tests/minizinc/split/golomb.fzn" "queens tests/minizinc/queens.fzn -a"; do
    set -- $model
    name=$1 file=$2 flags=${3:-}
    direct=$("$cpsolve" "$file" $flags -s)
    printf "%-28s %6s %6s %10s %8s %s\n" "$name $flags" "-" "-" "direct" \
        "$(grep -o 'nodes=[0-9]*' <<< "$direct" | cut -d= -f2)" \
        "$(grep -o 'objective=[0-9]*\|nSolutions=[0-9]*' <<< "$direct" | tail -n 1 | cut -d= -f2)"
    for parts in 16 64; do
        run "$name" "$file" "$flags" "$parts" no
        [ -z "$flags" ] && run "$name" "$file" "$flags" "$parts" yes
    done
done
