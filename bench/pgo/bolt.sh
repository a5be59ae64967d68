#!/usr/bin/env bash
# Post-link code layout (BOLT) for the builds users run: the command-line simulator (`make sim`)
# and the Python extension (`make build`).
#
# Usage: bench/pgo/bolt.sh sim BINARY           (a static airtcp-sim)
#        bench/pgo/bolt.sh extension LIBRARY PYTHON   (airtcp/_core.abi3.so, and the Python that
#                                                  imports it, with the package's dependencies)
#
# Rewrites the file in place with its machine code laid out by llvm-bolt from a measured
# profile: the blocks and functions that run together placed together, the cold paths moved out
# of the way. It must have been linked with --emit-relocs (the Makefile does). Results never
# depend on it: BOLT moves instructions, it does not change what they compute (no value, no
# order of events or random draws depends on where code lies); tests/test_dist_sim.py compares
# the simulator's output with the `release` build's, and the script itself checks one result
# before it keeps a layout. Measured in docs/performance.md ("Code layout after linking"): on
# the 802.11 chains and small cells 8-9% less CPU, first-level instruction-cache misses down by
# four fifths; about 1% on the wired dumbbells.
#
# Steps, each only when needed (the result is kept in target/bolt/, named by a hash of the input,
# this script, the training set and llvm-bolt's version, so an unchanged build is not trained
# again):
#   1. llvm-bolt -instrument: a copy that counts its branches;
#   2. training on the scaling generator's points (bench/scaling/gen.py; for the extension those
#      of bench/pgo/points.sh, the repository's scenarios and the studies' grid points
#      (bench/pgo/studies/), the profile-guided build's training set): the
#      extension writes its counts when Python exits; a static binary cannot write them at
#      exit (BOLT's limitation), so the simulator's counts are written every second and a
#      training run too short to be counted is run again, longer;
#   3. the counts summed over the runs, and llvm-bolt lays the file out with them.
#
# Needs llvm-bolt (Debian: apt-get install bolt-19), or the one AIRTCP_LLVM_BOLT names. Without
# it, with AIRTCP_BOLT=0, or if any step fails, the file is left as it is and the script says so
# on stderr (exit status 0: the build goes on).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
MODE="${1:-}"
FILE="${2:-}"
PY="${3:-}"
case "$MODE" in
    sim) [ -n "$FILE" ] ;;
    extension) [ -n "$FILE" ] && [ -n "$PY" ] ;;
    *) false ;;
esac || { echo "usage: bench/pgo/bolt.sh sim BINARY | extension LIBRARY PYTHON" >&2; exit 2; }
WORK="$ROOT/target/bolt/$MODE"

off() {
    echo "code layout (BOLT) off for $FILE: $1 (same results, a few percent slower on 802.11 runs)" >&2
    exit 0
}

[ "${AIRTCP_BOLT:-1}" = 0 ] && off "AIRTCP_BOLT=0"
[ -f "$FILE" ] || off "no such file"

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

command -v readelf >/dev/null 2>&1 || off "no readelf (binutils) to read its sections"

# A file BOLT already rewrote (an unchanged build run again) is left alone.
if readelf -S "$FILE" 2>/dev/null | grep -q '\.note\.bolt_info'; then
    echo "code layout (BOLT): $FILE is already laid out" >&2
    exit 0
fi
readelf -S "$FILE" 2>/dev/null | grep -q '\.rela\.text' || off "it was not linked with --emit-relocs"

key=$( {
    echo "$MODE"
    sha256sum <"$FILE"
    "$bolt" --version 2>&1
    cat bench/pgo/bolt.sh bench/pgo/points.sh bench/scaling/gen.py
    [ "$MODE" = extension ] && find scenarios bench/pgo/studies -name '*.toml' | LC_ALL=C sort | xargs cat
} | sha256sum | cut -d' ' -f1)
OUT="$WORK/$(basename "$FILE").${key:0:16}"

put_in_place() {
    # A new file, not a write through a hard link to cargo's own copy in deps/.
    rm -f "$FILE" && cp "$OUT" "$FILE" || off "could not put the laid-out file in place"
    echo "code layout (BOLT): $FILE laid out ($OUT)" >&2
    exit 0
}
[ -f "$OUT" ] && put_in_place

echo "code layout (BOLT): instrumenting and training $FILE (under a minute)" >&2
rm -rf "$WORK"
mkdir -p "$WORK/train" "$WORK/counts"
gen() { python3 bench/scaling/gen.py "$@"; }

if [ "$MODE" = sim ]; then
    "$bolt" "$FILE" -instrument -instrumentation-sleep-time=1 -instrumentation-file="$WORK/counts/now.fdata" \
        -o "$WORK/instrumented" >"$WORK/log" 2>&1 || off "llvm-bolt could not instrument it ($(tail -1 "$WORK/log"))"
    # Counts are written every second, so a run shorter than a second leaves none: a point's
    # run that was too short is run again with four times its simulated duration (up to three
    # times), so that every point is counted however fast the build and the machine are (the
    # durations below last about a second or two here; before, a run that had become faster than
    # a second was silently left out of the training).
    train_point() { # NAME KIND SIZE DURATION_S
        local name=$1 kind=$2 size=$3 dur=$4 try
        for try in 1 2 3 4; do
            gen "$kind" "$size" "$dur" >"$WORK/train/$name.toml"
            rm -f "$WORK/counts/now.fdata"
            if ! "$WORK/instrumented" "$WORK/train/$name.toml" >/dev/null 2>"$WORK/last-error"; then
                echo "training run failed (left out): $name: $(head -c 300 "$WORK/last-error")" >&2
                return
            fi
            sleep 1.1 # lets the counting process finish its last write
            if [ -s "$WORK/counts/now.fdata" ]; then
                mv "$WORK/counts/now.fdata" "$WORK/counts/$name.fdata"
                return
            fi
            dur=$((dur * 4))
        done
        echo "training run too short to be counted even at $((dur / 4)) s simulated (left out): $name" >&2
    }
    train_point chain2 chain 2 6000
    train_point chain8 chain 8 4000
    train_point cell1 cell 1 1500
    train_point cell100 cell 100 600
    train_point cell400 cell 400 600
    train_point dumbbell1 dumbbell 1 2000
    train_point dumbbell10 dumbbell 10 300
    train_point dumbbell1000 dumbbell 1000 120
    train_point mesh16 mesh 16 1500
else
    "$bolt" "$FILE" -instrument -instrumentation-file-append-pid -instrumentation-file="$WORK/counts/run" \
        -o "$WORK/instrumented.so" >"$WORK/log" 2>&1 || off "llvm-bolt could not instrument it ($(tail -1 "$WORK/log"))"
    # The package as it is, with the instrumented library in it, imported from there.
    pkg=$(dirname "$FILE")
    mkdir -p "$WORK/pkg"
    cp -r "$pkg" "$WORK/pkg/" && cp "$WORK/instrumented.so" "$WORK/pkg/$(basename "$pkg")/$(basename "$FILE")" \
        || off "could not set up the training package"
    bench/pgo/points.sh "$WORK/train" || off "the training points could not be written"
    PYTHONPATH="$WORK/pkg" "$PY" - "$WORK"/train/*.toml scenarios/*.toml bench/pgo/studies/*.toml <<'EOF' \
        || off "the training runs failed"
import sys
from pathlib import Path

from airtcp import _core

for name in sys.argv[1:]:
    path = Path(name)
    try:
        _core.run(path.read_text(), str(path), str(path.parent.resolve()))
    except Exception as e:  # a scenario that cannot run is left out of the training
        print(f"training run failed (left out): {path}: {str(e)[:300]}", file=sys.stderr)
EOF
fi

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

"$bolt" "$FILE" -o "$OUT.tmp" -data="$WORK/profile.fdata" -reorder-blocks=ext-tsp -reorder-functions=cdsort \
    -split-functions -split-all-cold -split-eh -update-debug-sections >"$WORK/log" 2>&1 \
    || off "llvm-bolt could not lay it out ($(tail -1 "$WORK/log"))"

# The laid-out file must give the input's result, byte for byte, on a point of each kind.
result() { # FILE-TO-RUN SCENARIO OUTPUT
    if [ "$MODE" = sim ]; then
        "$1" "$2" >"$3"
    else
        local pkg="$WORK/check-pkg"
        rm -rf "$pkg" && mkdir -p "$pkg" && cp -r "$(dirname "$FILE")" "$pkg/" &&
            cp "$1" "$pkg/$(basename "$(dirname "$FILE")")/$(basename "$FILE")" &&
            PYTHONPATH="$pkg" "$PY" -c 'import sys
from airtcp import _core
sys.stdout.buffer.write(_core.run_json(open(sys.argv[1]).read()))' "$2" >"$3"
    fi
}
for point in "dumbbell 10 2" "chain 4 20" "cell 20 3"; do
    gen $point >"$WORK/check.toml"
    result "$FILE" "$WORK/check.toml" "$WORK/before.json" && [ -s "$WORK/before.json" ] \
        || off "the file to lay out could not run gen.py $point ($(tail -c 300 "$WORK/before.json"))"
    result "$OUT.tmp" "$WORK/check.toml" "$WORK/after.json" && cmp -s "$WORK/before.json" "$WORK/after.json" \
        || off "the laid-out file gave a different result on gen.py $point: left out"
done
mv "$OUT.tmp" "$OUT"
rm -rf "$WORK/instrumented" "$WORK/instrumented.so" "$WORK/pkg" "$WORK/check-pkg" "$WORK/counts"
put_in_place
