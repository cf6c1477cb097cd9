# Two commands on a fresh machine: `make run` and `make test`. Only Python 3.11 and make needed.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint bench worker clean lock rules

# The versions pinned in requirements-dev.lock, the project itself on top.
$(STAMP): pyproject.toml requirements-dev.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# The rule modules compiled to C by mypyc (games/rules/compiled.py), again whenever one of them
# changes. Without a C compiler the build fails and the rules run from their source, as fast as
# Python runs them; CI and the Docker image insist on the compiled ones (HADAL_RULES=compiled).
RULES_SOURCE := $(shell find games/rules -name '*.py')
RULES_STAMP := build/rules.stamp

$(RULES_STAMP): $(STAMP) $(RULES_SOURCE)
	@mkdir -p build
	@echo "compiling the rules with mypyc (a few minutes; the compilers' output: build/rules.log)"
	@HADAL_RULES=source $(BIN)/python -W "ignore::RuntimeWarning:runpy" \
		-m games.rules.compiled build --log build/rules.log \
		&& echo "rules compiled (mypyc)" \
		|| echo "the rules could not be compiled (build/rules.log): they run from their source"
	@touch $@

rules: $(RULES_STAMP)

# After changing a dependency in pyproject.toml: pin the whole tree again, with hashes.
lock:
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes --quiet \
		-o requirements.lock
	$(BIN)/uv pip compile pyproject.toml --extra dev --python-version 3.11 --generate-hashes \
		--quiet -o requirements-dev.lock
	$(BIN)/uv pip compile pyproject.toml --extra compile --python-version 3.11 \
		--generate-hashes --quiet -o requirements-compile.lock

# Serve http://127.0.0.1:8000 with demo data: SQLite and Celery in eager mode unless
# DATABASE_URL / REDIS_URL say otherwise.
run: $(STAMP) $(RULES_STAMP)
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# The whole suite, on every core. Tests needing PostgreSQL, Redis or a Celery worker skip with
# a reason unless DATABASE_URL / REDIS_URL / CELERY_WORKER are set (.ci/run sets them). The
# worker serves one test database, so the tests that talk to it run after, in one process; so
# does the reliability suite, which runs the compose deployment on this machine and loads it.
# The slowest tests are listed at the end of the first run, so that CI's time can be read.
test: $(STAMP) $(RULES_STAMP)
	$(BIN)/python -m pytest -n auto -m "not celery_worker and not reliability" --durations=40
	$(BIN)/python -m pytest -m celery_worker
	$(BIN)/python -m pytest -m reliability tests/reliability

# Everything but the slow and browser tests, for the edit-test loop.
test-fast: $(STAMP) $(RULES_STAMP)
	$(BIN)/python -m pytest -n auto -m "not slow and not browser and not celery_worker and not reliability" -q

# Lint, format and types, as CI checks them before the tests.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP) $(RULES_STAMP)
	$(BIN)/python bench/run_all.py

worker: $(STAMP) $(RULES_STAMP)
	$(BIN)/celery -A config worker --loglevel=info

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles build
	find games/rules -name '*.so' -delete
