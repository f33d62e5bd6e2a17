#!/usr/bin/env bash
# Throughput and memory of the piped protocol against the C reference, side by side.
# Usage: bench/run.sh [LINES]   (default 2000000; RUNS=30 pairs; needs gcc, python3, hyperfine)
# Prints the ratio of medians (bloom-tutor / ref.c): below 1 means bloom-tutor is faster.
# It also times a counting filter (`--counting`, 4-bit counters) on the same script, in the
# same alternating runs, and prints its ratio to the plain filter.
# BASELINE=path/to/an/older/bloom-tutor times that binary in the same alternating runs, for a
# before-and-after comparison measured side by side.
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
cmp <("$bin" --counting < "$work/script.txt") <("$work/ref" < "$work/script.txt")
baseline=${BASELINE:-}
[ -z "$baseline" ] || cmp <("$baseline" < "$work/script.txt") <("$work/ref" < "$work/script.txt")

# Alternate the two programs run by run, so a machine that speeds up or slows down during
# the measurement affects both alike; hyperfine would time all of one, then all of the other.
python3 - "$bin" "$work/ref" "$work/script.txt" "$lines" "${RUNS:-30}" "$baseline" <<'PY'
import statistics, subprocess, sys, time
ours, ref, script, lines, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
baseline = sys.argv[6]

def once(program, *args):
    with open(script, "rb") as stdin:
        start = time.perf_counter()
        subprocess.run([program, *args], stdin=stdin, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start

for program in (ours, ref, baseline):  # warm-up
    if program:
        once(program)
t_ours, t_ref, t_base, t_count, pairs = [], [], [], [], []
for _ in range(runs):
    a, b = once(ours), once(ref)
    t_ours.append(a)
    t_ref.append(b)
    pairs.append(a / b)
    t_count.append(once(ours, "--counting"))
    if baseline:
        t_base.append(once(baseline))
m_ours, m_ref = statistics.median(t_ours), statistics.median(t_ref)
print(f"lines: {lines}, runs: {runs} alternating pairs")
print(f"median ns/line: bloom-tutor {m_ours / lines * 1e9:.0f}, ref.c {m_ref / lines * 1e9:.0f}")
print(f"ratio of medians (bloom-tutor / ref.c): {m_ours / m_ref:.2f}")
print(f"median of per-pair ratios: {statistics.median(pairs):.2f}")
m_count = statistics.median(t_count)
print(f"counting filter (--counting): median ns/line {m_count / lines * 1e9:.0f}, "
      f"ratio to ref.c {m_count / m_ref:.2f}, to the plain filter {m_count / m_ours:.2f}")
if baseline:
    m_base = statistics.median(t_base)
    print(f"baseline {baseline}: ratio of medians (baseline / ref.c): {m_base / m_ref:.2f}")
    print(f"ratio of medians (bloom-tutor / baseline): {m_ours / m_base:.2f}")
PY

# Peak memory must not grow with the script: compare a short and a long run.
head -n 1000 "$work/script.txt" > "$work/short.txt"
for f in short script; do
  for flags in "" "--explain" "--counting"; do
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
