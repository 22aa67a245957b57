# Kingdoms Analytics: `make run` starts the app on the default dataset, `make test` runs the tests.
# Both set up .venv from nothing when it is missing or pyproject.toml changed.

VENV := .venv
PY := $(VENV)/bin/python
KINGDOMS := $(VENV)/bin/kingdoms
STAMP := $(VENV)/.installed

.PHONY: install browser run test bench lint

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The browser test drives Debian's chromium (never a downloaded browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser test"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

run: install
	$(KINGDOMS) score "+3 B1 A4 C1 -6 A1 / C2 GM +4 +1 MT WZ / +2 +4 B2 -5 -2 C1 / A2 DR +3 MT C1 +5 / -1 -3 C1 A3 +6 +2"

test: install browser
	$(PY) -m pytest -q

bench: install
	$(KINGDOMS) bench

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
