# airtcp: two commands do everything on a fresh machine (Rust toolchain and Python 3.11+ only).
#
#   make demo   set up (local .venv, release build of the extension) and run the main job:
#               reproduce every study in quick mode and write the report (reports/index.html)
#   make test   set up and run the whole test suite with linters, then the quick reproduction of
#               every study with --strict and the quick matrix (what CI runs)
#
# Both are idempotent: a second run only rebuilds what changed.

PYTHON ?= python3
# Linker flag (GNU ld and lld, Linux) keeping the relocations that llvm-bolt needs to move code.
KEEP_RELOCS := -C link-arg=-Wl,--emit-relocs
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.deps-installed

.PHONY: demo test setup build sim lint rust-test py-test reproduce-quick matrix-quick bench clean

demo: build
	$(BIN)/airtcp reproduce all --quick --out reports

test: build lint rust-test py-test reproduce-quick matrix-quick

setup: $(STAMP)

# The virtual environment with maturin and the Python dependencies (re-done when pyproject changes).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "maturin>=1.7,<2"
	touch $@

# Builds the Rust extension (profile `dist`: release + fat LTO, see Cargo.toml) and installs the
# package (with dev extras) in .venv. Profile-guided when an llvm-profdata of LLVM 19+ is there
# (bench/pgo/profile.sh trains it once per source change), and on Linux its code then laid out by
# llvm-bolt when bolt-19 is there (bench/pgo/bolt.sh; it keeps its relocations for that); same
# results either way.
build: $(STAMP)
	flags="$$(bench/pgo/profile.sh)"; \
	[ "$$(uname -s)" = Linux ] && flags="$$flags $(KEEP_RELOCS)"; \
	RUSTFLAGS="$$flags" VIRTUAL_ENV=$(abspath $(VENV)) $(BIN)/maturin develop --profile dist --extras dev --quiet \
		&& if [ "$$(uname -s)" = Linux ]; then bench/pgo/bolt.sh extension python/airtcp/_core.abi3.so $(BIN)/python; fi

lint: $(STAMP)
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --release -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
	$(BIN)/ruff check python tests bench
	$(BIN)/ruff format --check python tests bench

rust-test:
	cargo test --workspace --exclude airtcp-py --release

py-test: build sim
	cargo build --release -p airtcp-cli  # airtcp-sim, which tests/test_safety_*.py run too
	$(BIN)/pytest -q

# Every study in quick mode (the issue's CI job), computed afresh (--no-store: a core changed
# without a version bump must not be hidden by stored results); fails if a published value is
# outside its tolerance.
reproduce-quick: build
	$(BIN)/airtcp reproduce all --quick --strict --no-store --out reports/quick

# Every scheme against every environment, reduced grid (docs/matrix.md), computed afresh; the
# studies' claims in the matrix's cells are findings, not a pass/fail gate (no --strict).
matrix-quick: build
	$(BIN)/airtcp matrix --quick --no-store --quiet --out reports/matrix-quick

# The optimised command-line simulator (target/dist/airtcp-sim), built as the extension is:
# what bench/scaling/run.py and the other whole-process benchmarks time. On Linux with glibc it
# is linked statically and not position-independent ($(STATIC_SIM), given to the last crate
# only: the profile's names and the dependencies stay those of the extension's build): no
# dynamic loader, no relocations at start-up, about 1 ms less per process (docs/performance.md,
# "Start-up of the command-line simulator"). If that link fails (no static libc), a dynamically
# linked one is built instead; results are the same bits either way.
# The static binary keeps its relocations (--emit-relocs) so that llvm-bolt can then lay its code
# out from a measured profile (bench/pgo/bolt.sh: same results, when bolt-19 is installed).
STATIC_SIM := -C target-feature=+crt-static -C relocation-model=static $(KEEP_RELOCS)
sim:
	flags="$$(bench/pgo/profile.sh)"; \
	if rustc -vV | grep -q '^host: .*-linux-gnu$$' \
		&& RUSTFLAGS="$$flags" cargo rustc --profile dist -p airtcp-cli --bin airtcp-sim -- $(STATIC_SIM); then \
		bench/pgo/bolt.sh sim target/dist/airtcp-sim; \
	else \
		echo "airtcp-sim: building a dynamically linked binary (same results, slower start-up)" >&2; \
		RUSTFLAGS="$$flags" cargo rustc --profile dist -p airtcp-cli --bin airtcp-sim; \
	fi

bench: build sim
	cargo bench -p airtcp-core --bench kernel
	$(BIN)/python bench/scenarios.py

clean:
	rm -rf $(VENV) target
