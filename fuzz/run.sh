#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for SECONDS each, one after
# another, at the lowest CPU priority, and prints the executions and
# crashes of each. Exits non-zero if any target crashed.
#
#   fuzz/run.sh SECONDS [TARGET...]
#   MNK_FUZZ_RUNS=10000000 fuzz/run.sh 0 weights_toml   # stop after 10^7 inputs
#
# SECONDS = 0 means no time limit (then set MNK_FUZZ_RUNS). Each target's
# corpus is fuzz/corpus/TARGET, seeded from the committed fuzz/seeds/TARGET;
# crashes land in fuzz/artifacts/TARGET, logs in fuzz/logs/TARGET.log.
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -euo pipefail

if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
    echo "usage: $0 SECONDS [TARGET...]" >&2
    exit 2
fi
seconds=$1
shift
cd "$(dirname "$0")"

# No sanitizer (the library is safe Rust; a panic is the bug looked for)
# and debug assertions on, so arithmetic overflow panics too.
flags=(--sanitizer none --debug-assertions)
if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

nice -n 19 cargo +nightly fuzz build "${flags[@]}"

mkdir -p logs
extra=()
if [[ -n ${MNK_FUZZ_RUNS:-} ]]; then
    extra+=("-runs=$MNK_FUZZ_RUNS")
fi
failed=0
printf '%-14s %12s %8s %s\n' target executions seconds result
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    cp -n "seeds/$t"/* "corpus/$t/" 2>/dev/null || true
    start=$(date +%s)
    status=0
    nice -n 19 cargo +nightly fuzz run "${flags[@]}" "$t" "corpus/$t" -- \
        -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="artifacts/$t/" "${extra[@]}" >"logs/$t.log" 2>&1 || status=$?
    took=$(($(date +%s) - start))
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' | tail -1)
    # libFuzzer's own time, without the build; the wall time if it has none.
    fuzzed=$(grep -o 'runs in [0-9]* second' "logs/$t.log" | grep -o '[0-9]\+' | tail -1)
    if [[ $status -eq 0 ]]; then
        result="ok, no crash"
    else
        result="CRASH (exit $status): see logs/$t.log and artifacts/$t/"
        failed=1
    fi
    printf '%-14s %12s %8s %s\n' "$t" "${execs:-?}" "${fuzzed:-$took}" "$result"
done
exit $failed
