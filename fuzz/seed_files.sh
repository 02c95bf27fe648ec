#!/usr/bin/env bash
# Prints the seed corpus of a fuzz target: the files matched by the globs of fuzz/seeds/NAME.txt
# (relative to the source root, or absolute) and the inputs of fuzz/regressions/NAME/.
#   fuzz/seed_files.sh SOURCE_DIR NAME
set -euo pipefail
src=$1; name=$2
list=$src/fuzz/seeds/$name.txt
[ -f "$list" ] || { echo "seed_files: no seed list $list" >&2; exit 2; }
cd "$src"
while read -r pattern; do
  case "$pattern" in ''|'#'*) continue ;; esac
  for f in $pattern; do [ -f "$f" ] && { case "$f" in /*) echo "$f" ;; *) echo "$src/$f" ;; esac; }; done
done < "$list"
if [ -d "fuzz/regressions/$name" ]; then
  for f in fuzz/regressions/"$name"/*; do [ -f "$f" ] && echo "$src/$f"; done
fi
exit 0
