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

FRONTEND_BUILD := huf/public/frontend/index.html
FRONTEND_SOURCES := $(shell find frontend/src -type f 2>/dev/null) frontend/index.html frontend/vite.config.ts \
	frontend/tailwind.config.js frontend/postcss.config.js frontend/tsconfig.json

.PHONY: setup system-packages frontend frappe-source run site test test-frappe lint types bench load-test clean

setup: system-packages $(VENV)/.installed frontend

# redis-server: the cache and RQ tests run against a real Redis; chromium: the browser tests.
SYSTEM_PACKAGES := redis-server:redis-server chromium:chromium
system-packages:
	@missing=""; for pair in $(SYSTEM_PACKAGES); do \
		command -v $${pair%%:*} >/dev/null 2>&1 || missing="$$missing $${pair#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
		else echo "missing system packages:$$missing (sudo apt-get install$$missing); their tests will skip"; fi; \
	fi

$(VENV)/.installed: pyproject.toml lite/pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ./lite -e ".[test]"
	@touch $@

frontend: $(FRONTEND_BUILD)

# npm workspaces: the root package.json and lockfile install frontend/'s dependencies into node_modules/.
node_modules/.installed: package.json package-lock.json frontend/package.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The dashboard, built into huf/public/frontend (served at /assets/huf/frontend/, page at /huf).
$(FRONTEND_BUILD): node_modules/.installed $(FRONTEND_SOURCES)
	npm run build

site: setup
	@mkdir -p sites
	@grep -qx huf sites/apps.txt 2>/dev/null || echo huf >> sites/apps.txt
	@test -d sites/$(SITE) || $(BIN)/huf new-site $(SITE) --admin-password $(ADMIN_PASSWORD) --install-app huf
	$(BIN)/huf --site $(SITE) migrate

run: site
	$(BIN)/huf --site $(SITE) serve --host $(HOST) --port $(PORT)

# Real Frappe's source, when ../shared/frappe has it: tests/lite checks Lite's API surface against it
FRAPPE_TARBALL ?= $(wildcard ../shared/frappe/frappe.tar.gz)
FRAPPE_15_TARBALL ?= $(wildcard ../shared/frappe/frappe-15.tar.gz)
FRAPPE_SOURCE_DIR := .cache/frappe-source
FRAPPE_15_SOURCE_DIR := .cache/frappe-15-source
# Real Frappe's source, read by the Lite API check (tests/lite/test_frappe_api_surface.py): 16 and 15
frappe-source:
	@if [ -n "$(FRAPPE_TARBALL)" ] && [ ! -f $(FRAPPE_SOURCE_DIR)/frappe/frappe/__init__.py ]; then \
		mkdir -p $(FRAPPE_SOURCE_DIR) && tar -xzf $(FRAPPE_TARBALL) -C $(FRAPPE_SOURCE_DIR); fi
	@if [ -n "$(FRAPPE_15_TARBALL)" ] && [ ! -f $(FRAPPE_15_SOURCE_DIR)/frappe/frappe/__init__.py ]; then \
		mkdir -p $(FRAPPE_15_SOURCE_DIR) && tar -xzf $(FRAPPE_15_TARBALL) -C $(FRAPPE_15_SOURCE_DIR); fi

# HUF_TEST_REPORT: every Huf test's outcome, compared test by test with the real-bench runs (test-frappe)
test: setup lint frappe-source
	npm test
	@mkdir -p .test-results && rm -f .test-results/lite.jsonl
	FRAPPE_SOURCE=$(CURDIR)/$(FRAPPE_SOURCE_DIR)/frappe FRAPPE_15_SOURCE=$(CURDIR)/$(FRAPPE_15_SOURCE_DIR)/frappe \
		HUF_TEST_REPORT=$(CURDIR)/.test-results/lite.jsonl $(BIN)/pytest -q

# The same Huf tests with Frappe's own runner on real benches (MariaDB, Redis, a worker) built from
# ../shared/frappe, one per Frappe line (FRAPPE=16, FRAPPE=15; default both, at once: tools/test_frappe_lines.sh),
# kept in ~/.cache/huf-bench and ~/.cache/huf-bench-15; run `make test` first for the side-by-side counts.
# Every line runs, and the target fails if one did.
FRAPPE ?= 16 15
test-frappe: frontend
	tools/test_frappe_lines.sh $(FRAPPE)

lint: setup
	$(BIN)/ruff check huf lite tests benchmarks tools
	$(BIN)/ruff format --check --quiet huf lite tests benchmarks tools
	$(BIN)/lint-imports --no-cache  # the layers of huf.ai, no import circles (pyproject.toml, docs/architecture.md)

# The auto-generated types block of every DocType controller, written from its JSON by Frappe's exporter
# (docs/testing.md, "Typed controllers")
types: $(VENV)/.installed
	$(BIN)/python tools/export_types.py

bench: setup
	$(BIN)/python benchmarks/run.py

# 20 conversations x 2 turns against `huf serve --production` (benchmarks/load_test.py --short, under two
# minutes): fails on a run lost, stuck or run twice
load-test: setup
	$(BIN)/python benchmarks/load_test.py --short

clean:
	rm -rf $(VENV) sites node_modules frontend/node_modules huf/public/frontend
