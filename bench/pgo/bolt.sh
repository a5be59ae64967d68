#!/usr/bin/env bash
# Post-link code layout (BOLT) for the command-line simulator that `make sim` builds.
#
# Usage: bench/pgo/bolt.sh BINARY
#
# Rewrites BINARY (a static `airtcp-sim` linked with --emit-relocs, as `make sim` links it) with
# its machine code laid out by llvm-bolt from a measured profile: the blocks and functions that
# run together placed together, the cold paths moved out of the way. Results never depend on it:
# BOLT moves instructions, it does not change what they compute (no value, no order of events or
# random draws depends on where code lies), and tests/test_dist_sim.py compares the output with
# the `release` build's. Measured in docs/performance.md ("Code layout after linking"): 4-10%
# less CPU on the 802.11 chains and small cells, about 1% on the wired dumbbells.
#
# Steps, each only when needed (the result is kept in target/bolt/, named by a hash of the input
# binary, this script and llvm-bolt's version, so an unchanged binary is not trained again):
#   1. llvm-bolt -instrument: a copy of BINARY that counts its branches and writes the counts
#      every second (a static binary cannot write them at exit, BOLT's limitation);
#   2. training: long runs of the scaling generator's points (bench/scaling/gen.py), each over
#      a second so that its counts are written;
#   3. the counts summed over the runs, and llvm-bolt lays BINARY out with them.
#
# Needs llvm-bolt (Debian: apt-get install bolt-19), or the one AIRTCP_LLVM_BOLT names. Without
# it, with AIRTCP_BOLT=0, or if any step fails, BINARY is left as it is and the script says so
# on stderr (exit status 0: the build goes on).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
WORK="$ROOT/target/bolt"
BIN="${1:?usage: bench/pgo/bolt.sh BINARY}"

off() {
    echo "code layout (BOLT) off: $1 (same results, a few percent slower on 802.11 runs)" >&2
    exit 0
}

[ "${AIRTCP_BOLT:-1}" = 0 ] && off "AIRTCP_BOLT=0"
[ -x "$BIN" ] || off "no binary at $BIN"

bolt=""
if [ -n "${AIRTCP_LLVM_BOLT:-}" ]; then
    candidates=("$AIRTCP_LLVM_BOLT")
else
    candidates=(llvm-bolt $(for v in $(seq 30 -1 16); do echo "llvm-bolt-$v /usr/lib/llvm-$v/bin/llvm-bolt"; done))
fi
for candidate in "${candidates[@]}"; do
    if command -v "$candidate" >/dev/null 2>&1; then
        # Its real place: it finds its instrumentation runtime beside it (../lib).
        bolt=$(readlink -f "$(command -v "$candidate")")
        break
    fi
done
[ -n "$bolt" ] || off "no llvm-bolt found (${AIRTCP_LLVM_BOLT:-llvm-bolt, llvm-bolt-16 to -30}; Debian: apt-get install bolt-19)"

# A binary BOLT already rewrote (an unchanged build run again) is left alone.
if readelf -S "$BIN" 2>/dev/null | grep -q '\.note\.bolt_info'; then
    echo "code layout (BOLT): $BIN is already laid out" >&2
    exit 0
fi
readelf -S "$BIN" 2>/dev/null | grep -q '\.rela\.text' || off "$BIN was not linked with --emit-relocs"

key=$( {
    sha256sum <"$BIN"
    "$bolt" --version 2>&1
    cat bench/pgo/bolt.sh bench/scaling/gen.py
} | sha256sum | cut -d' ' -f1)
OUT="$WORK/airtcp-sim-${key:0:16}"

put_in_place() {
    # A new file, not a write through cargo's hard link to its own copy in deps/.
    rm -f "$BIN" && cp "$OUT" "$BIN" || off "could not install the laid-out binary"
    echo "code layout (BOLT): $BIN laid out ($OUT)" >&2
    exit 0
}
[ -x "$OUT" ] && put_in_place

echo "code layout (BOLT): instrumenting and training $BIN (about half a minute)" >&2
rm -rf "$WORK"
mkdir -p "$WORK/train" "$WORK/counts"
"$bolt" "$BIN" -instrument -instrumentation-sleep-time=1 -instrumentation-file="$WORK/counts/now.fdata" \
    -o "$WORK/instrumented" >"$WORK/log" 2>&1 || off "llvm-bolt could not instrument $BIN ($(tail -1 "$WORK/log"))"

# Each run lasts over a second (its counts are written every second), about two seconds here.
gen() { python3 bench/scaling/gen.py "$@"; }
gen chain 2 6000 >"$WORK/train/chain2.toml"
gen chain 8 4000 >"$WORK/train/chain8.toml"
gen cell 1 1500 >"$WORK/train/cell1.toml"
gen cell 100 600 >"$WORK/train/cell100.toml"
gen cell 400 600 >"$WORK/train/cell400.toml"
gen dumbbell 1 2000 >"$WORK/train/dumbbell1.toml"
gen dumbbell 10 300 >"$WORK/train/dumbbell10.toml"
gen dumbbell 1000 120 >"$WORK/train/dumbbell1000.toml"
gen mesh 16 1500 >"$WORK/train/mesh16.toml"
for scenario in "$WORK"/train/*.toml; do
    rm -f "$WORK/counts/now.fdata"
    "$WORK/instrumented" "$scenario" >/dev/null 2>"$WORK/last-error" \
        || echo "training run failed (left out): $scenario: $(head -c 300 "$WORK/last-error")" >&2
    sleep 1.1   # lets the counting process finish its last write
    if [ -s "$WORK/counts/now.fdata" ]; then
        mv "$WORK/counts/now.fdata" "$WORK/counts/$(basename "$scenario" .toml).fdata"
    else
        echo "training run too short to be counted (left out): $scenario" >&2
    fi
done

# BOLT's profile format: one branch per line, "1 FROM OFFSET 1 TO OFFSET MISPREDICTIONS COUNT".
python3 - "$WORK/counts" "$WORK/profile.fdata" <<'EOF' || off "the training counts could not be summed"
import sys
from pathlib import Path

total = {}
for f in sorted(Path(sys.argv[1]).glob("*.fdata")):
    for line in f.read_text().splitlines():
        *where, mispredicted, count = line.split()
        m, c = total.get(tuple(where), (0, 0))
        total[tuple(where)] = (m + int(mispredicted), c + int(count))
if not total:
    sys.exit("no counts")
Path(sys.argv[2]).write_text("".join(f"{' '.join(w)} {m} {c}\n" for w, (m, c) in total.items()))
EOF

"$bolt" "$BIN" -o "$OUT.tmp" -data="$WORK/profile.fdata" -reorder-blocks=ext-tsp -reorder-functions=cdsort \
    -split-functions -split-all-cold -split-eh -update-debug-sections >"$WORK/log" 2>&1 || off "llvm-bolt could not lay out $BIN ($(tail -1 "$WORK/log"))"
# The laid-out binary must give the input's result, byte for byte, on a training point.
check="$WORK/check.toml"
gen dumbbell 10 2 >"$check"
cmp -s <("$BIN" "$check") <("$OUT.tmp" "$check") || off "the laid-out binary gave a different result: left out"
mv "$OUT.tmp" "$OUT"
rm -f "$WORK/instrumented"
put_in_place
