"""The inbox page (``/inbox/``): a member's notices, newest first, what still waits for them
marked so; following a notice marks it read; "Mark all read". The choices page
(``/inbox/choices/``): how each kind reaches the member, and the devices told of notices (Web
Push: inbox.push) with removing one. The unsubscribe link of a mail
(``/inbox/unsubscribe/<token>/``): a GET asks, a POST (the button, or the mail client's
one-click) stops that mail, no signing in needed. The service worker that shows a push
(``/sw.js``) and the web app manifest that makes the site installable on a phone."""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.addresses import verified_address
from core import inputs
from core.errors import InvalidInput, UnknownName
from inbox import choices, kinds, mail, push, services
from inbox.forms import ChoicesForm
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
    return redirect(back if here else "inbox-choices")


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


@never_cache
@login_required
def choices_page(request):
    current = choices.choices_get(user=request.user)
    form = ChoicesForm(
        request.POST if request.method == "POST" else None,
        initial=ChoicesForm.initial_from(current),
    )
    if request.method == "POST" and form.is_valid():
        try:
            choices.choices_update(user=request.user, replace=True, **form.chosen())
        except InvalidInput as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "Your choices are saved.")
            return redirect("inbox-choices")
    return render(
        request,
        "inbox/choices.html",
        {
            "form": form,
            "has_address": verified_address(request.user) is not None,
            # Never saved: the page may offer the browser's time zone in place of UTC.
            "guess_zone": choices.choices_of(request.user) is None,
        },
        status=400 if form.is_bound else 200,
    )


@csrf_exempt  # mail clients POST it (RFC 8058), with no cookie and no form of ours
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """A GET only asks (link scanners follow links); a POST stops the mail."""
    found = mail.unsubscribe_read(token)
    member = None
    if found is not None:
        member = get_user_model().objects.filter(pk=found[0]).first()
    if member is None:
        return render(request, "inbox/unsubscribe.html", {"bad": True}, status=400)
    what = found[1]
    context = {"member": member, "stops": choices.stop_words(what), "token": token}
    if request.method == "POST":
        choices.choices_mail_stop(user_id=member.pk, what=what)
        context["done"] = True
    return render(request, "inbox/unsubscribe.html", context)
