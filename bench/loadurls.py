"""The project's URLs and the peer's, for bench_load.py."""

from django.urls import path

from bench.peer import Peer
from config.urls import urlpatterns as project

urlpatterns = [*project, path("bench/peer/", Peer.as_view())]
