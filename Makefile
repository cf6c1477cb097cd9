# Two commands on a fresh machine: `make run` and `make test`. Only Python 3.11 and make needed.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast bench worker clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# Serve http://127.0.0.1:8000 with demo data: SQLite and Celery in eager mode unless
# DATABASE_URL / REDIS_URL say otherwise.
run: $(STAMP)
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# The whole suite. Tests needing PostgreSQL, Redis or a Celery worker skip with a reason
# unless DATABASE_URL / REDIS_URL / CELERY_WORKER are set (.ci/run sets them).
test: $(STAMP)
	$(BIN)/python -m pytest

# Everything but the slow and browser tests, for the edit-test loop.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow and not browser" -q

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

worker: $(STAMP)
	$(BIN)/celery -A config worker --loglevel=info

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
