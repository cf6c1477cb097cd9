# Two commands on a fresh machine: `make run` and `make test`. Only Python 3.11 and make needed.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint bench worker clean lock

# The versions pinned in requirements-dev.lock, the project itself on top.
$(STAMP): pyproject.toml requirements-dev.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# After changing a dependency in pyproject.toml: pin the whole tree again, with hashes.
lock:
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes --quiet \
		-o requirements.lock
	$(BIN)/uv pip compile pyproject.toml --extra dev --python-version 3.11 --generate-hashes \
		--quiet -o requirements-dev.lock

# Serve http://127.0.0.1:8000 with demo data: SQLite and Celery in eager mode unless
# DATABASE_URL / REDIS_URL say otherwise.
run: $(STAMP)
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# The whole suite, on every core. Tests needing PostgreSQL, Redis or a Celery worker skip with
# a reason unless DATABASE_URL / REDIS_URL / CELERY_WORKER are set (.ci/run sets them). The
# worker serves one test database, so the tests that talk to it run after, in one process.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto -m "not celery_worker"
	$(BIN)/python -m pytest -m celery_worker

# Everything but the slow and browser tests, for the edit-test loop.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n auto -m "not slow and not browser and not celery_worker" -q

# Lint, format and types, as CI checks them before the tests.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

worker: $(STAMP)
	$(BIN)/celery -A config worker --loglevel=info

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
