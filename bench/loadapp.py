"""The project's WSGI app with the DRF peer's URL added, for bench_load.py's gunicorn only."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
settings.ROOT_URLCONF = "bench.loadurls"
