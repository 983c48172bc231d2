# Hanabi monorepo tasks. Needs only Python 3.11 and GNU make. `make` alone prints the targets.

PYTHON_BOOT := $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV        := .venv
PY          := $(VENV)/bin/python
STAMP       := $(VENV)/.installed
PYTEST_ARGS ?=
# make test runs the suite on this many pytest-xdist workers (whole files per worker), then
# the tests marked serial (they time wake-ups or flood sockets) alone. Two, on 2 cores: the
# browser and the servers keep both busy (three took 11:32 where two took 10:42, 2026-12-07).
# Files go out in collection order, the longest first (tests/conftest.py, LONGEST).
TEST_JOBS   ?= 2
XDIST       := -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder
# Python may keep compiled modules (__pycache__/, ignored by git) even where the machine says
# otherwise: with PYTHONDONTWRITEBYTECODE set, every pytest process rewrote the asserts of
# all 462 test modules again (collection 10 s of CPU against 4.4 s), and every server and
# client the tests start compiled the project's modules again.
unexport PYTHONDONTWRITEBYTECODE

# Message catalogues (docs/i18n.md): the .po sources in locale/ are the only ones; compiled
# here (not committed) into each package that reads them, and the web client's JSON.
LANGS       := en zh_Hans ru
PO          := $(foreach l,$(LANGS),locale/$(l)/LC_MESSAGES/hanabi.po)
I18N_STAMP  := $(VENV)/.i18n
# The refusal kinds and the engine's errors take their sentence as 2nd argument; Words, the
# engine's Phrase and the API's FieldMessage their 1st; Plural its 2nd and 3rd
# (server/hanabi/server/table/wording.py); the client's n_ is ngettext.
KEYWORDS    := $(foreach k,Refused Invalid Unauthorized Forbidden NotFound Conflict TooMany \
                 Unavailable IllegalAction SetupError ImportFormatError,-k $(k):2) \
               -k Words -k Phrase -k FieldMessage -k Plural:2,3 -k n_:1,2

# Three editable installs share the `hanabi` namespace package (no hanabi/__init__.py).
# editable_mode=compat puts each project dir on sys.path via a .pth file, which the
# namespace-package machinery merges cleanly (also for tools that read sys.path statically).
EDITABLE := --config-settings editable_mode=compat

.PHONY: help venv i18n i18n-compile test test-cluster browser lint format run openapi bench screenshots catalogue clean

.DEFAULT_GOAL := help

# The targets a person runs, one line each (`make` alone; nothing is built or run).
help:
	@echo 'make run          serve on http://127.0.0.1:8000 (embedded Redis unless REDIS_URL is set);'
	@echo '                  PORT=8080 HOST=0.0.0.0 WORKERS=4 CONNECTIONS=8000 DATA=var/redis to change'
	@echo 'make test         the linters, the test suite, and the API tests on a Redis Cluster'
	@echo 'make lint         ruff check and ruff format --check'
	@echo 'make format       ruff check --fix and ruff format'
	@echo 'make i18n         extract the messages and update locale/*/LC_MESSAGES/hanabi.po (docs/i18n.md)'
	@echo 'make i18n-compile compile the catalogues (also done by make venv, run and test)'
	@echo 'make openapi      write openapi.yaml from the code (the tests fail when it is stale)'
	@echo 'make bench        the engine benchmarks, against HLE built once (the others: python bench/<name>.py)'
	@echo 'make screenshots  retake docs/img/lobby.png, table.png and the table at each size (table-*.png)'
	@echo 'make catalogue    regenerate the hanab.live variant catalogue; HANABLIVE=<checkout or git dir>'
	@echo 'make clean        remove .venv and caches'

venv: $(STAMP) $(I18N_STAMP)

$(STAMP): shared/pyproject.toml server/pyproject.toml client/pyproject.toml requirements-dev.txt
	test -x $(PY) || $(PYTHON_BOOT) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install $(EDITABLE) -e shared -e server -e client -r requirements-dev.txt
	touch $@

i18n: $(STAMP)
	$(VENV)/bin/pybabel extract -F locale/babel.cfg $(KEYWORDS) --add-location=file --sort-output \
	  --no-wrap --project=hanabi --copyright-holder="the Hanabi service's authors" \
	  -o locale/hanabi.pot .
	for lang in $(LANGS); do \
	  test -f locale/$$lang/LC_MESSAGES/hanabi.po || \
	    $(VENV)/bin/pybabel init -i locale/hanabi.pot -d locale -D hanabi -l $$lang --no-wrap; \
	done
	# English is the ids themselves: no guessed ("fuzzy") entries there to clear by hand.
	$(VENV)/bin/pybabel update -i locale/hanabi.pot -d locale -D hanabi -l en --no-wrap \
	  --ignore-obsolete --no-fuzzy-matching
	for lang in $(filter-out en,$(LANGS)); do \
	  $(VENV)/bin/pybabel update -i locale/hanabi.pot -d locale -D hanabi -l $$lang --no-wrap \
	    --ignore-obsolete; \
	done
	$(MAKE) --no-print-directory i18n-compile
	@echo 'Now translate every empty or "#, fuzzy" entry of locale/zh_Hans and locale/ru (docs/i18n.md),'
	@echo 'then: make i18n-compile && $(PY) -m pytest -q tests/test_i18n_catalogues.py'

i18n-compile: $(STAMP)
	$(VENV)/bin/pybabel compile -d locale -D hanabi --statistics
	$(PY) tools/i18n.py publish
	touch $(I18N_STAMP)

$(I18N_STAMP): $(PO) tools/i18n.py $(wildcard docs/rules*.md) | $(STAMP)
	$(MAKE) --no-print-directory i18n-compile

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

test: $(STAMP) $(I18N_STAMP) browser
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest $(XDIST) -m "not serial" $(PYTEST_ARGS)
	$(PY) -m pytest -m serial $(PYTEST_ARGS)
	$(MAKE) --no-print-directory test-cluster

# The API's tests marked cluster once more, on a private 3-master Redis Cluster the run
# starts itself: what a Cluster does differently (its client, redirections, per-node
# pub/sub) on every storage module's paths. Cross-slot keys need no Cluster to be found:
# every run refuses them on the single Redis too (HANABI_CHECK_SLOTS, tests/conftest.py).
test-cluster: $(STAMP) $(I18N_STAMP)
	HANABI_TEST_REDIS=cluster $(PY) -m pytest tests/server $(XDIST) -q \
	  -m "cluster and not single_redis and not serial"
	HANABI_TEST_REDIS=cluster $(PY) -m pytest tests/server -q -m "cluster and serial and not single_redis"

# The browser tests (the API docs, the web client in tests/web) drive Debian's chromium:
# installed here when missing (root on Debian), otherwise this stops with the one command.
browser:
	.ci/ensure-chromium

# make run PORT=8080 HOST=0.0.0.0 WORKERS=4 CONNECTIONS=8000 DATA=var/redis (each optional; only
# from the command line: zsh sets HOST in the environment). Otherwise HANABI_* decide.
given = $(if $(filter command line,$(origin $(1))),$(2) $($(1)))
RUN_ARGS := $(call given,PORT,--port) $(call given,HOST,--host) \
            $(call given,WORKERS,--workers) $(call given,CONNECTIONS,--connections) \
            $(call given,DATA,--data)

run: $(STAMP) $(I18N_STAMP)
	$(PY) -m hanabi.server $(strip $(RUN_ARGS))

openapi: $(STAMP)
	$(PY) -m hanabi.server.api.spec openapi.yaml

# The README's and docs/web.md's pictures of the web client (docs/img/lobby.png, table.png, table-WxH.png).
screenshots: $(STAMP) $(I18N_STAMP) browser
	$(PY) tests/web/screenshots.py docs/img

# The engine benchmarks; the reference engine (HLE, requirements-bench.txt) is built once.
BENCH_STAMP := $(VENV)/.bench
$(BENCH_STAMP): $(STAMP) requirements-bench.txt
	CMAKE_POLICY_VERSION_MINIMUM=3.5 $(PY) -m pip install -r requirements-bench.txt
	touch $@

bench: $(BENCH_STAMP)
	$(PY) bench/engine.py
	$(PY) bench/variants.py

# The hanab.live variant catalogue (shared/hanabi/game/catalogue.json, committed) from a
# checkout or bare git directory of hanab.live's repository (docs/variants.md).
HANABLIVE ?= /work/.mirror/Hanabi-Live+hanabi-live/repo
catalogue:
	$(PYTHON_BOOT) tools/catalogue.py "$(HANABLIVE)"

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name '*.egg-info' -type d -prune -exec rm -rf {} +
