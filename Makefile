# Everything runs inside .venv, created on first use. The install runs once per change of
# pyproject.toml (tracked by a stamp file inside .venv).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.install.stamp

.DEFAULT_GOAL := test
.PHONY: setup compile pure test test-pure test-fast lint format run bench clean distclean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# torch goes first with its exact pin: a CPU wheel for it is available locally, while any other
# spec (or letting stable-baselines3 pull it in) downloads gigabytes of CUDA packages.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install torch==2.13.0
	$(BIN)/pip install -e ".[all]"
	touch $@

setup: $(STAMP)

# The compiled engine: Cython builds each module of nanty_env/engine (and the encoders and the
# bots' look-ahead: nanty_env._build lists them) from its own .py, in place, once per change of
# a source (the manifest records the hashes it was built from). Without Cython or a C compiler
# it prints why and the pure-Python engine runs; NANTY_PURE=1 picks the pure one anyway.
# With gcc 10+ the first build is profile-guided (compiled twice around agents.pgo_workload);
# NANTY_PGO=0 builds plainly. `make pure` removes the compiled modules (and the profile).
COMPILED := nanty_env/_compiled_manifest.json
COMPILED_SRC := $(shell find nanty_env/engine agents -name '*.py') nanty_env/engine/state.pxd \
	nanty_env/engine/rng.pxd nanty_env/_build.py $(wildcard nanty_env/encoding/*.py)

$(COMPILED): $(COMPILED_SRC) | $(STAMP)
	@start=$$(date +%s); $(BIN)/python -m nanty_env._build; \
	echo "compiling the engine took $$(( $$(date +%s) - start )) s"

compile: $(COMPILED)

pure: setup
	$(BIN)/python -m nanty_env._build --clean

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: lint compile
	$(BIN)/pytest -n 2 -q

# The rules tests on the pure-Python engine, the reference (CI runs them after `make test`).
test-pure: setup
	NANTY_PURE=1 $(BIN)/pytest -n 2 -q tests/engine

# The quick loop while developing: everything but the tests marked slow.
test-fast: setup compile
	$(BIN)/pytest -n 2 -q -m "not slow"

run: compile
	$(BIN)/python -m training.run

bench: compile
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf build dist *.egg-info .ruff_cache .pytest_cache
	find nanty_env agents -name '*.so' -delete
	rm -f $(COMPILED)
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
