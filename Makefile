# Kingdoms Analytics: `make run` starts the app on the default dataset, `make test` runs the tests
# (`make test-fast` without the slow ones), `make lint` checks style, layering and types.
# All set up .venv from nothing when it is missing or pyproject.toml changed.

VENV := .venv
PY := $(VENV)/bin/python
KINGDOMS := $(VENV)/bin/kingdoms
STAMP := $(VENV)/.installed
LAKE ?= data/lake
BENCH_LAKE ?= data/bench-lake

.PHONY: install browser lake run test test-fast bench lint screenshots

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The browser test and the screenshots drive Debian's chromium (never a downloaded browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser test"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The default dataset: the corpus of strong play (data/corpus/), simulated games of every player
# count and the example records. Does nothing when the lake already holds games; an altered,
# damaged or missing corpus stops it with one line (exit 2), the lake left empty.
lake: install
	$(KINGDOMS) simulate --default-lake --lake $(LAKE)

run: lake
	$(KINGDOMS) dashboard --lake $(LAKE)

test: install browser
	$(PY) -m pytest -q

# The inner loop: every test but those marked slow (the browser test among them).
test-fast: install
	$(PY) -m pytest -q -m "not slow"

# The benchmarks (bench/, not installed) keep their lakes under $(BENCH_LAKE) for the next run.
bench: install
	$(PY) -m bench --lake $(BENCH_LAKE)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/mypy

screenshots: install browser lake
	KINGDOMS_LAKE=$(LAKE) $(PY) -m tests.dashboard.screenshots --out docs/screenshots
