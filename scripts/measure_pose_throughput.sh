#!/usr/bin/env bash
# Instructions per line (callgrind, count(file) − count(empty file), over the lines) of
# `exact-collision query FILE` on the files of scripts/gen_pose_throughput.py.
# Usage: scripts/measure_pose_throughput.sh BINARY DIR
set -eu
bin=$1; dir=$2
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" query "$1" 2>&1 >/dev/null \
          | grep -o 'refs: *[0-9,]*' | tr -d ', ' | cut -d: -f2; }
empty=$(mktemp); base=$(count "$empty"); rm -f "$empty"
for f in "$dir"/pose_box_*.jsonl; do
  n=$(grep -c . "$f" || true); [ "$n" -gt 0 ] || continue; c=$(count "$f")
  printf "%-28s %12d instr/line\n" "$(basename "$f" .jsonl)" $(( (c - base) / n ))
done
