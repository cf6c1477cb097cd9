# The rule modules compiled to C by mypyc (games/rules/compiled.py), in a stage of their own
# with a C compiler; the image takes only the built extensions, beside their source.
FROM python:3.11-slim AS rules
ENV PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements-compile.lock ./
RUN pip install --require-hashes -r requirements-compile.lock
COPY pyproject.toml ./
COPY games/__init__.py ./games/
COPY games/rules ./games/rules
RUN HADAL_RULES=source python -m games.rules.compiled build

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# The compiled rules or nothing: an image whose build lost them fails at start, not slowly.
ENV HADAL_RULES=compiled
WORKDIR /app

COPY pyproject.toml requirements.lock README.md ./
RUN pip install --require-hashes -r requirements.lock
COPY core ./core
COPY config ./config
COPY accounts ./accounts
COPY inbox ./inbox
COPY games ./games
COPY --from=rules /app/games/rules ./games/rules
COPY league ./league
RUN pip install --no-deps .

COPY manage.py ./
COPY templates ./templates
COPY static ./static
RUN DEBUG=1 python manage.py collectstatic --no-input

# The erasure ledger's folder (HADAL_ERASURE_LEDGER), a volume of its own in the compose file:
# the app's user writes it.
RUN useradd --create-home hadal && mkdir -p /app/var && chown hadal /app/var
USER hadal
EXPOSE 8000
# ASGI (uvicorn workers) for the event streams; see docker-compose.yml.
CMD ["gunicorn", "config.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", \
     "--bind", "0.0.0.0:8000", "--workers", "3"]
