#!/bin/sh
# Solve every part of a parts file with GNU parallel, then merge.
#
#   docs/recipes/parallel.sh PARTS RESULTS [parallel options...]
#
# Local job slots:  docs/recipes/parallel.sh parts.jsonl results/ -j 2
# Over ssh:         docs/recipes/parallel.sh parts.jsonl results/ --sshlogin 8/node1,8/node2
#   (each host needs cpsolve on its PATH, or CPSOLVE set to its path, and the puzzle file
#   and parts file at the same path, e.g. on a shared file system; the results folder must
#   be shared too, or collected afterwards with --return / rsync.)
# Parts are numbered from 0; the header line is not a part. Rerunning the script reruns
# every part, each result replacing the last; merge counts each part once.
set -eu
parts=$1
results=$2
shift 2
cpsolve=${CPSOLVE:-cpsolve}
count=$(($(wc -l < "$parts") - 1))
mkdir -p "$results"
if [ "$count" -gt 0 ]; then
    seq 0 $((count - 1)) |
        parallel "$@" "$cpsolve" solve-part "$parts" --index {} -o "$results"
fi
"$cpsolve" merge "$parts" "$results"
