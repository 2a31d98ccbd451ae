# Castellan: `make run` serves the app on the LAN, `make test` runs every test.
# Both start from a fresh clone: they make the virtual environment and install what they need.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 5000
# Debian packages the tests use: a real browser, a QR decoder, a PDF renderer, a PostgreSQL server
# (the store's tests start a throwaway one, see tests/pg.py).
TEST_DEBS := chromium zbar-tools poppler-utils postgresql

.PHONY: run test lint bench debs clean translations icons

$(BIN)/castellan: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip 'setuptools>=77'  # the build's own, as pyproject's build-system asks: tests build with it
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# Extract every marked sentence, bring the French and Polish catalogs in line, compile them
# (docs/translating.md). The app also compiles a stale catalog when it starts.
translations: $(BIN)/castellan
	$(BIN)/python companion/i18n/catalogs.py

# The installable app's PNG icons, drawn from castellan.svg by the tests' Chromium (they are committed).
icons: $(BIN)/castellan debs
	$(BIN)/python tools/draw_icons.py

run: $(BIN)/castellan
	$(BIN)/castellan serve --host $(HOST) --port $(PORT)

debs:
	@missing=""; \
	for cmd in chromium:chromium zbarimg:zbar-tools pdftoppm:poppler-utils; do \
	  command -v $${cmd%%:*} >/dev/null 2>&1 || missing="$$missing $${cmd##*:}"; \
	done; \
	ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

lint: $(BIN)/castellan
	$(BIN)/ruff check companion printables tests bench tools
	$(BIN)/ruff format --check companion printables tests bench tools

test: $(BIN)/castellan debs lint
	$(BIN)/pytest

bench: $(BIN)/castellan
	@command -v wrk >/dev/null 2>&1 || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq wrk >/dev/null; }
	$(BIN)/python -m bench.bench

clean:
	rm -rf $(VENV) build *.egg-info companion/i18n/translations/*/LC_MESSAGES/*.mo
