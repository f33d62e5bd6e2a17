#!/usr/bin/env bash
# Throughput and memory of the piped protocol against the C reference, side by side.
# Usage: bench/run.sh [LINES]   (default 2000000; needs gcc, python3, hyperfine)
# Prints the ratio of medians (bloom-tutor / ref.c): below 1 means bloom-tutor is faster.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-2000000}
shared=${SHARED:-../shared/bench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet
python3 "$shared/gen.py" "$lines" > "$work/script.txt"
gcc -O2 -o "$work/ref" "$shared/ref.c"
bin=target/release/bloom-tutor

# Same answers first: a fast wrong program is no benchmark.
cmp <("$bin" < "$work/script.txt") <("$work/ref" < "$work/script.txt")

hyperfine --warmup 2 --runs "${RUNS:-30}" --export-json "$work/times.json" \
  "$bin < $work/script.txt > /dev/null" \
  "$work/ref < $work/script.txt > /dev/null" >&2

python3 - "$work/times.json" "$lines" <<'PY'
import json, statistics, sys
runs = json.load(open(sys.argv[1]))["results"]
ours, ref = (statistics.median(r["times"]) for r in runs)
print(f"lines: {sys.argv[2]}")
print(f"median ns/line: bloom-tutor {ours / int(sys.argv[2]) * 1e9:.0f}, ref.c {ref / int(sys.argv[2]) * 1e9:.0f}")
print(f"ratio of medians (bloom-tutor / ref.c): {ours / ref:.2f}")
PY

# Peak memory must not grow with the script: compare a short and a long run.
head -n 1000 "$work/script.txt" > "$work/short.txt"
for f in short script; do
  for flags in "" "--explain"; do
    kib=$( { /usr/bin/time -f %M "$bin" $flags "$work/$f.txt" > /dev/null; } 2>&1 | tail -n 1)
    echo "peak memory, $f script ${flags:-(plain)}: ${kib} KiB"
  done
done

# experiment: 1M keys added and 1M checked with murmur3, k = 7 (issue: well under a second).
hyperfine --warmup 1 --runs 10 --export-json "$work/exp.json" \
  "$bin experiment --scheme murmur3 -m 9585059 -k 7 -n 1000000 -q 1000000 --steps 1 > /dev/null" >&2
python3 - "$work/exp.json" <<'PY'
import json, statistics, sys
t = statistics.median(json.load(open(sys.argv[1]))["results"][0]["times"])
print(f"experiment, murmur3 k=7, 1M added + 1M checked: median {t:.2f} s")
PY
