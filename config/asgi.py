"""The ASGI application: what production serves (gunicorn with uvicorn workers), so that the
event streams (games.api.live) are held open by an event loop, not a thread each."""

import os

from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from django.conf import settings  # noqa: E402  (configured by the line above)

from config.edge import Edge  # noqa: E402

application = Edge(django_application)

if any(db.get("CONN_MAX_AGE") for db in settings.DATABASES.values()):
    # Django runs each ASGI request in a context of its own and never gives a kept connection
    # back: with CONN_MAX_AGE above 0 every request leaves one open until the server is full.
    raise ImproperlyConfigured(
        "CONN_MAX_AGE must be 0 under ASGI (persistent connections are never closed there); "
        "set DB_POOL=1 to pool the connections instead"
    )
