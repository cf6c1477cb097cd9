FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

COPY pyproject.toml requirements.lock README.md ./
RUN pip install --require-hashes -r requirements.lock
COPY config ./config
COPY accounts ./accounts
COPY games ./games
COPY league ./league
RUN pip install --no-deps .

COPY manage.py ./
COPY templates ./templates
COPY static ./static
RUN DEBUG=1 python manage.py collectstatic --no-input

RUN useradd --create-home hadal
USER hadal
EXPOSE 8000
# ASGI (uvicorn workers) for the event streams; see docker-compose.yml.
CMD ["gunicorn", "config.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", \
     "--bind", "0.0.0.0:8000", "--workers", "3"]
