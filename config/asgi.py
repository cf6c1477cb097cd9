"""The ASGI application: what production serves (gunicorn with uvicorn workers), so that the
event streams (games.api.streams) are held open by an event loop, not a thread each."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
