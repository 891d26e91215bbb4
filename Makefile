# Everything runs inside .venv, created on first use. The install runs once per change of
# pyproject.toml (tracked by a stamp file inside .venv).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.install.stamp

.DEFAULT_GOAL := test
.PHONY: setup test test-fast lint format run bench clean distclean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# torch goes first with its exact pin: a CPU wheel for it is available locally, while any other
# spec (or letting stable-baselines3 pull it in) downloads gigabytes of CUDA packages.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install torch==2.13.0
	$(BIN)/pip install -e ".[all]"
	touch $@

setup: $(STAMP)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: lint
	$(BIN)/pytest -n 2 -q

# The quick loop while developing: everything but the tests marked slow.
test-fast: setup
	$(BIN)/pytest -n 2 -q -m "not slow"

run: setup
	$(BIN)/python -m training.run

bench: setup
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf build dist *.egg-info .ruff_cache .pytest_cache
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
