"""The inbox page (``/inbox/``): a member's notices, newest first, what still waits for them
marked so; following a notice marks it read; "Mark all read"."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core import inputs
from inbox import kinds, services
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
