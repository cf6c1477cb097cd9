"""The Celery app. Tasks live in each Django app's tasks.py; settings use the CELERY_ prefix."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("hadal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
