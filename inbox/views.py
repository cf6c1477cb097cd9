"""The inbox page (``/inbox/``): a member's notices, newest first, what still waits for them
marked so; following a notice marks it read; "Mark all read". The devices told of notices
(Web Push: inbox.push) and removing one; the service worker that shows a push (``/sw.js``)
and the web app manifest that makes the site installable on a phone."""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core import inputs
from core.errors import UnknownName
from inbox import kinds, push, services
from inbox.models import Notice

PAGE = 50


@never_cache
@login_required
def inbox_page(request):
    before = inputs.whole_number_or_none(request.GET.get("before"), 1, inputs.BIGINT)
    unread = request.GET.get("show") == "unread"
    rows = services.notices_of(request.user, unread=unread, before=before, limit=PAGE + 1)
    more = len(rows) > PAGE
    rows = rows[:PAGE]
    return render(
        request,
        "inbox/inbox.html",
        {
            "notices": [(n, n.done_at is None and n.kind in kinds.WAITING) for n in rows],
            "unread_only": unread,
            "older": rows[-1].pk if more else None,
        },
    )


@never_cache
@login_required
def notice_open(request, pk: int):
    """Follow a notice: it is read, and its page opens."""
    notice = Notice.objects.filter(pk=pk, user=request.user).first()
    if notice is None:
        raise Http404("no such notice of yours")
    services.mark_read(request.user, [notice.pk])
    return redirect(notice.url if notice.url.startswith("/") else "inbox")


@require_POST
@login_required
def read_all(request):
    services.mark_read(request.user)
    return redirect("inbox")


@require_POST
@login_required
def device_remove(request, pk: int):
    """ "Remove" on the devices list: that device is told nothing more."""
    try:
        push.push_device_remove(user=request.user, device_id=pk)
    except UnknownName:
        raise Http404("no such device of yours") from None
    messages.success(request, "That device will not be told any more.")
    back = request.POST.get("next") or ""
    here = url_has_allowed_host_and_scheme(back, allowed_hosts=None) and back.startswith("/")
    return redirect(back if here else "inbox")


# -- installing the site, and the service worker ---------------------------------------------------

THEME = "#04101d"  # static/css/hadal.css's --abyss, the header's water


@lru_cache(maxsize=1)
def _service_worker() -> bytes:
    return (settings.BASE_DIR / "static" / "sw.js").read_bytes()


@require_GET
def service_worker(request):
    """static/sw.js at the site's root, so that it may control every page (a worker's scope
    is at most its own folder, unless Service-Worker-Allowed says more). Browsers look for a
    new one at least daily, and at every registration when it is not cached."""
    response = HttpResponse(_service_worker(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request):
    """The web app manifest: a phone can add Hadal to its home screen and open it as an app
    (on iPhones, only such an installed site may be pushed to)."""
    icon = [
        {"src": static("img/hadal-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("img/hadal-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("img/hadal-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("img/hadal.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    body = {
        "name": "Hadal",
        "short_name": "Hadal",
        "description": "Deep-sea board games for clubs and tournaments",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": icon,
    }
    response = HttpResponse(json.dumps(body, indent=1), content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response
