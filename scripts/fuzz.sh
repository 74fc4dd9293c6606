#!/usr/bin/env bash
# Builds one libFuzzer target with -sanitize=fuzzer,address and runs it for SECONDS.
#   scripts/fuzz.sh images|csv|json SECONDS
# The build goes to .build-fuzz (its own scratch path, so the normal .build is untouched), the
# corpus to .build-fuzz/corpus/TARGET (seeded from SampleImages/ or Fuzz/seeds/, plus the committed
# regression inputs), crashing inputs to .build-fuzz/artifacts/TARGET/. One fuzzing process at a
# time (what -jobs=1 gives, without its log redirection); after a crash it starts again until the
# time is used up. Prints the executions and the crashes, and exits 1 when there was a crash.
# Environment: FUZZ_RSS_MB (2048), FUZZ_MAX_LEN (per target), FUZZ_NO_BUILD=1 to reuse the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: scripts/fuzz.sh images|csv|json SECONDS}"
seconds="${2:?usage: scripts/fuzz.sh images|csv|json SECONDS}"
scratch=".build-fuzz"
case "$target" in
    images) seeds=(SampleImages); max_len=262144; extra=(-malloc_limit_mb=256) ;;
    csv)    seeds=(Fuzz/seeds/csv); max_len=16384; extra=(-dict=Fuzz/csv.dict) ;;
    json)   seeds=(Fuzz/seeds/json); max_len=8192; extra=(-dict=Fuzz/json.dict) ;;
    *) echo "unknown target '$target': use images, csv or json" >&2; exit 2 ;;
esac
seeds+=("Tests/FuzzRegressionTests/FuzzRegressions/$target")
max_len="${FUZZ_MAX_LEN:-$max_len}"

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    echo "building fuzz-$target (release, fuzzer+address sanitizers) in $scratch…"
    swift build -c release --scratch-path "$scratch" --product "fuzz-$target" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING -Xswiftc -use-ld=lld >&2
fi
binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/fuzz-$target"

corpus="$scratch/corpus/$target"
artifacts="$scratch/artifacts/$target"
logs="$scratch/logs/$target"
mkdir -p "$corpus" "$artifacts" "$logs"
if [ -z "$(ls -A "$corpus")" ]; then
    for folder in "${seeds[@]}"; do
        find "$folder" -maxdepth 1 -type f ! -name '*.txt' ! -name '*.py' -exec cp {} "$corpus/" \;
    done
fi

findings() { find "$artifacts" -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' -o -name 'leak-*' \) | wc -l; }
crashes_before=$(findings)
executions=0 runs=0
deadline=$(( $(date +%s) + seconds ))
while :; do
    left=$(( deadline - $(date +%s) ))
    [ "$left" -gt 0 ] || break
    runs=$((runs + 1))
    log="$logs/run-$(date +%Y%m%dT%H%M%S)-$runs.log"
    set +e
    "$binary" "$corpus" -max_total_time="$left" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len="$max_len" \
        -timeout=60 -print_final_stats=1 -artifact_prefix="$artifacts/" "${extra[@]}" >"$log" 2>&1
    status=$?
    set -e
    count=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    executions=$(( executions + ${count:-0} ))
    if [ "$status" -ne 0 ]; then
        echo "run $runs stopped (exit $status) after ${count:-?} executions; see $log:"
        grep -E '^==[0-9]+==ERROR|^SUMMARY|Fatal error|Test unit written|^MS:' "$log" | head -8 || true
        now=$(findings)
        if [ "$now" -eq "${last_findings:-$crashes_before}" ]; then echo "no new input was written; stopping" >&2; break; fi
        last_findings=$now
    fi
done
crashes=$(( $(findings) - crashes_before ))
echo "target: fuzz-$target  seconds: $seconds  runs: $runs  executions: $executions  corpus: $(ls "$corpus" | wc -l) files"
echo "crashes: $crashes (new files in $artifacts)"
[ "$crashes" -eq 0 ]
