#!/bin/sh
# One Slurm array task per part: each task solves the part named by SLURM_ARRAY_TASK_ID
# (solve-part reads it when --index is not given).
#
#   cpsolve split queens 15 --count --parts 512 > parts.jsonl
#   n=$(($(wc -l < parts.jsonl) - 1))
#   sbatch --array=0-$((n - 1))%64 docs/recipes/slurm-array.sh parts.jsonl results/
#   ... when the array has finished:
#   cpsolve merge parts.jsonl results/
#
# The parts file, the puzzle file and the results folder must be on a file system every
# node sees. A task that dies leaves no result (they are written by rename); merge lists the
# missing parts, and `sbatch --array=3,17 ...` reruns just those.
#SBATCH --job-name=cpsolve-part
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=cpsolve-part-%A_%a.out
set -eu
exec "${CPSOLVE:-cpsolve}" solve-part "$1" -o "$2"
