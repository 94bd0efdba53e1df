#!/usr/bin/env bash
# Speed of two mnk builds, run alternately (so that both see the same
# machine), as the medians of RUNS rounds: greedy games/s and search
# nodes/s from `mnk bench` (its search at depth $DEPTH, default 8, given
# to both builds: older builds' own default was 4), and depth-4 search
# games/s from a match.
#
#   scripts/compare-speed.sh OLD_MNK NEW_MNK [RUNS]
#
# Build the old one from its commit in a worktree, e.g.
#   git worktree add /tmp/old <commit> && (cd /tmp/old && cargo build --release)
#   scripts/compare-speed.sh /tmp/old/target/release/mnk target/release/mnk 5
set -euo pipefail
old=${1:?old mnk binary}
new=${2:?new mnk binary}
runs=${3:-5}
depth=${DEPTH:-8}

measure() {
    local bench match
    bench=$("$1" bench --depth "$depth" 2>&1)
    match=$("$1" --threads 1 match search:depth=4 search:depth=4 -n 40 2>&1)
    echo "$(echo "$bench" | awk '/greedy vs greedy/ {print $6}') \
$(echo "$bench" | sed -nE 's/^search depth.*: +([0-9]+) nodes\/s.*/\1/p') \
$(echo "$match" | sed -nE 's/.*\(([0-9.]+) games\/s\).*/\1/p')"
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

declare -a o n
for i in $(seq "$runs"); do
    o+=("$(measure "$old")")
    n+=("$(measure "$new")")
    echo "round $i: old ${o[-1]} | new ${n[-1]}" >&2
done
printf '%-28s %12s %12s %7s\n' figure old new ratio
for f in 1 2 3; do
    name=$(echo "greedy_games/s search_nodes/s depth4_games/s" | cut -d' ' -f"$f")
    a=$(printf '%s\n' "${o[@]}" | cut -d' ' -f"$f" | median)
    b=$(printf '%s\n' "${n[@]}" | cut -d' ' -f"$f" | median)
    awk -v n="$name" -v a="$a" -v b="$b" 'BEGIN {printf "%-28s %12s %12s %6.2fx\n", n, a, b, b / a}'
done
