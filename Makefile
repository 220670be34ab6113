# Huf: `make run` serves a standalone site at http://127.0.0.1:8000, `make test` runs every suite.
# Both set up on first use (system packages, .venv, editable installs).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SITE ?= huf.localhost
ADMIN_PASSWORD ?= admin
HOST ?= 127.0.0.1
PORT ?= 8000
export HUF_SITES_PATH := $(CURDIR)/sites

.PHONY: setup system-packages run site test lint bench clean

setup: system-packages $(VENV)/.installed

# redis-server lets the cache and RQ tests run against a real Redis instead of skipping.
system-packages:
	@if ! command -v redis-server >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; \
		else echo "redis-server missing: install it (sudo apt-get install redis-server) for the Redis/RQ tests"; fi; \
	fi

$(VENV)/.installed: pyproject.toml lite/pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ./lite -e ".[test]"
	@touch $@

site: setup
	@mkdir -p sites
	@grep -qx huf sites/apps.txt 2>/dev/null || echo huf >> sites/apps.txt
	@test -d sites/$(SITE) || $(BIN)/huf new-site $(SITE) --admin-password $(ADMIN_PASSWORD) --install-app huf
	$(BIN)/huf --site $(SITE) migrate

run: site
	$(BIN)/huf --site $(SITE) serve --host $(HOST) --port $(PORT)

test: setup
	$(BIN)/pytest -q

lint: setup
	$(BIN)/ruff check huf lite tests benchmarks

bench: setup
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) sites
