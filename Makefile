# Two commands do everything from a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-deps compiled lint typecheck pytest bench bench-web venv clean

# `make run` installs only what the browser game needs (`.[web]`, about 115 MB); `make test`
# installs everything the tests use (`.[dev]`: the research environments, torch, playwright...),
# which includes the browser game's packages.
RUN_STAMP := $(VENV)/.installed-web

$(VENV)/bin/python:
	@echo "creating the virtual environment in $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(VENV)/bin/python
	@echo "installing the browser game's packages (.[web]: FastAPI, uvicorn, SQLAlchemy, ...)"
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	@echo "installing everything the tests use (.[dev]: a few GB the first time; minutes)"
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

venv: $(STAMP)

# The main job: the browser game on http://127.0.0.1:8000 (`truco serve`; SQLite in
# ./truco-web.sqlite3 unless DATABASE_URL says otherwise). The terminal game: `.venv/bin/truco play`.
run: $(RUN_STAMP)
	@echo "starting the browser game: open http://127.0.0.1:8000 (Ctrl+C stops it)"
	$(BIN)/truco serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples tools
	$(BIN)/ruff format --check src tests benchmarks examples tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# The compiled build of the engine's hot path (docs/engine.md): mypyc, from .[dev], and a C
# compiler. Rebuilt only when a compiled module's source changed (about 40 s); its log is kept
# in .venv/compile-core.log. `make run` never needs it: without it the pure core runs.
compiled: $(STAMP) test-deps
	@$(BIN)/python tools/compile_core.py --check >/dev/null 2>&1 || { \
	  echo "compiling the engine's core with mypyc (docs/engine.md)"; \
	  $(BIN)/python tools/compile_core.py >$(VENV)/compile-core.log 2>&1 \
	    || { tail -30 $(VENV)/compile-core.log; exit 1; }; }

# The rules core's own tests, run a second time on the pure core (TRUCO_PURE=1): both builds
# pass the same tests (tests/test_compiled_core.py compares them game by game); the property
# tests take 3 examples per configuration there, not 10.
CORE_TESTS := $(wildcard tests/test_rules_*.py) tests/test_properties.py tests/test_records.py \
  tests/test_fuzz_replay.py tests/test_engine_fast_paths.py tests/test_hand_points.py \
  tests/test_points_by_reason.py tests/test_core_alone.py \
  src  # the doctests: a compiled module's are not found, so they run here

# Two processes, a test file each at a time (its module fixtures, a browser or a server, stay
# in one process): the suite takes about 60% of the time it takes on one.
pytest: $(STAMP) test-deps compiled
	$(BIN)/pytest -q -n 2 --dist loadfile
	TRUCO_PURE=1 TRUCO_EXAMPLES=3 $(BIN)/pytest -q -n 2 --dist loadfile $(CORE_TESTS)

# The browser tests drive Debian's chromium, the PostgreSQL test starts a throwaway
# cluster (initdb/pg_ctl, in a temp dir, on a free port) and the cluster tests a throwaway
# redis-server too, and the compiled core gcc and Python's headers: install them when missing.
# CI runs as root with no stdin; without root the step says what is missing and those tests
# skip (the compiled core's build then fails and says why).
test-deps:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v gcc >/dev/null 2>&1 || missing="$$missing gcc"; \
	$(PYTHON) -c "import sysconfig, os, sys; \
	  sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" \
	  || missing="$$missing python3-dev"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
	  || missing="$$missing postgresql"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq </dev/null && apt-get install -y -qq $$missing </dev/null; \
	else \
	  echo "note: missing$$missing (run 'make test' as root to install); their tests are skipped"; \
	fi

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/truco bench --all --seconds 5

# The web server under load: bot-vs-bot tables driven over real WebSockets (README figures).
bench-web: $(STAMP)
	$(BIN)/python benchmarks/web_load.py --tables 500 --seconds 60

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
