#!/usr/bin/env bash
# Issue 28 on a big machine that emulates a quiet 2-core one: every core but two gets a busy
# loop, and load N adds N more (busy loops = cores - 2 + N; on 13 cores: 11, 12, 13).
# CPU pinning (taskset) does not hold in the lent sandbox, hence loops instead of pinning.
#
#   benchmarks/verify_device_run.sh [cases [LOAD ...] | corpus [LOAD ...] | all]
#
#   cases     the 17 rewrites of benchmarks/verify_accuracy.py at loads 0 1 2 (default):
#             the decision matrix per load (measured: 146 s at busy 11, 210 s at busy 13)
#   corpus    `autoopt rewrite corpus/ --verify --no-cache` wall time at loads 0 and 2
#             (default), with no case run beside it (measured: about 30 minutes per load
#             at busy 11, 34 s per file at the median: longer than one device command)
#   parts LOAD K/N ...
#             the corpus wall time at one load in parts (part K of N of its files, in name
#             order), one `rewrite --verify` each, so that each command fits a time limit
#   all       both (default); where a command is capped at 10 minutes run `cases 0 2`,
#             then `cases 1`, as separate commands
#
# JOBS=N (default 1) verifies N cases, and N corpus files, at once (--verify-jobs N);
# BUDGET=S gives each corpus file S seconds (--verify-budget S; default the CLI's).
# JSON and the log go to $OUT (the device's output folder) or /tmp; the CPU backend is used.
# Prerequisites there: jax, and autoopt's dependencies on PYTHONPATH (the .whl-tpu recipe).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp}
stage=${1:-all}
shift || true
export JAX_PLATFORMS=cpu PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
accuracy() {
    python benchmarks/verify_accuracy.py --cores 2 --jobs "${JOBS:-1}" \
        ${BUDGET:+--corpus-budget "$BUDGET"} "$@"
}

echo "$(date -u +%H:%M:%S) cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg)"
loads=("$@")
cases() {
    accuracy --busy "$@" --json "$out/verify_cases.json" 2>"$out/verify_cases.log"
}
corpus() {
    accuracy --no-cases --busy "$@" --corpus --json "$out/verify_corpus.json" \
        2>"$out/verify_corpus.log"
}
parts() {
    local load=$1
    shift
    for part in "$@"; do
        accuracy --no-cases --busy "$load" --corpus --corpus-part "$part" \
            --json "$out/verify_corpus_${part/\//of}.json" 2>>"$out/verify_corpus.log"
        echo "$(date -u +%H:%M:%S) part $part done"
    done
}
case $stage in
cases) if ((${#loads[@]})); then cases "${loads[@]}"; else cases 0 1 2; fi ;;
corpus) if ((${#loads[@]})); then corpus "${loads[@]}"; else corpus 0 2; fi ;;
parts) parts "${loads[@]}" ;;
all) cases 0 1 2 && corpus 0 2 ;;
*)
    echo "usage: $0 [cases [LOAD ...] | corpus [LOAD ...] | parts LOAD K/N ... | all]" >&2
    exit 2
    ;;
esac
echo "$(date -u +%H:%M:%S) done"
