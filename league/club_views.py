"""Pages for a club's door and its people: an invite link's page, asking to join, the
organisers' tools (visibility, invite links, requests, roles, removing a member, handing the
club over), leaving, and a tournament's own organisers. Each changes things only through
league.services.clubs and comes back to the page it was sent from with a message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import InvalidInput, ServiceError
from league import selectors, visibility, webhook_views
from league.forms import ClubSettingsForm, InviteLinkForm, JoinAskForm, PlayerForm
from league.models import League, Membership
from league.services import clubs

ROLE_WORDS = {
    Membership.Role.OWNER: "owner",
    Membership.Role.ORGANISER: "organiser",
    Membership.Role.MEMBER: "member",
}


def club_panel(league: League, user) -> dict[str, Any]:
    """What the club page shows of its door and people beyond its members list, for ``user``:
    the organisers' tools, a member's way out, an outsider's way in."""
    mine = (
        Membership.objects.filter(league=league, user=user).first()
        if user.is_authenticated
        else None
    )
    organiser = selectors.is_league_organiser(league, user)
    panel: dict[str, Any] = {
        "mine": mine,
        "owner": mine is not None and mine.role == Membership.Role.OWNER,
        "leave_refusal": clubs.why_cannot_leave(league, user) if mine else "",
        "settings_form": ClubSettingsForm(initial={"visibility": league.visibility}),
        "ask_form": JoinAskForm(),
        "asked": user.is_authenticated
        and league.join_requests.filter(user=user, answer="waiting").exists(),
    }
    if organiser:
        links = list(league.invite_links.select_related("created_by")[:20])
        for link in links:
            link.state = clubs.link_state(link)
            link.url = clubs.link_url(link)
        panel.update(
            links=links,
            link_form=InviteLinkForm(),
            requests=clubs.join_requests(league),
            handover_form=PlayerForm(),
            **webhook_views.webhooks_panel(league),
        )
    return panel


def club_join(request, code: str):
    """An invite link's page: the club's door (its name and description) and a button to join;
    the reason, and a way to ask instead, once the link no longer opens."""
    link = clubs.link_named(code)
    if link is None:
        return render(request, "league/club_door.html", {"unknown": True}, status=404)
    league = link.league
    member = selectors.is_league_member(league, request.user)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            clubs.link_join(code=code, by=request.user)
        except ServiceError as exc:
            messages.error(request, _sentence(exc))
        else:
            messages.success(request, f"Welcome to {league.name}.")
            return redirect("league-detail", slug=league.slug)
    return render(
        request,
        "league/club_door.html",
        {
            "league": league,
            "link": link,
            "closed": clubs.why_link_closed(link),
            "member": member,
            "ask_form": JoinAskForm(initial={"code": code}),
            "asked": request.user.is_authenticated
            and league.join_requests.filter(user=request.user, answer="waiting").exists(),
        },
    )


@login_required
@require_POST
def club_ask(request, slug: str):
    """Ask to join: a public club from its page, a members-only one from an invite link's."""
    form = JoinAskForm(request.POST)
    code = request.POST.get("code", "")
    link = clubs.link_named(code)
    if link is not None and link.league.slug == slug:
        league = link.league
    else:
        league = visibility.league_or_404(slug, request.user, door=True)
    if form.is_valid():
        try:
            clubs.join_ask(league=league, by=request.user, message=form.cleaned_data["message"])
        except ServiceError as exc:
            messages.error(request, _sentence(exc))
        else:
            messages.success(
                request, f"You asked to join {league.name}: its organisers will answer."
            )
    else:
        messages.error(request, "Your message is too long: keep it under 500 characters.")
    if link is not None and not visibility.may_read_league(league, request.user):
        return redirect("club-join", code=link.code)
    return redirect("league-detail", slug=league.slug)


def _sentence(exc: Exception) -> str:
    text = str(exc)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _club_post(request, slug: str, act, done: str, *, anchor: str = "members"):
    """Run ``act(league)`` for a button on the club page; back to it with ``done`` or why not."""
    league = visibility.league_or_404(slug, request.user)
    try:
        said = act(league)
    except ServiceError as exc:
        messages.error(request, _sentence(exc))
    else:
        messages.success(request, said or done)
    return redirect(reverse("league-detail", args=[league.slug]) + f"#{anchor}")


@login_required
@require_POST
def club_settings(request, slug: str):
    form = ClubSettingsForm(request.POST)

    def act(league):
        if not form.is_valid():
            raise InvalidInput("choose who may see the club")
        clubs.league_update(league=league, by=request.user, **form.cleaned_data)
        if form.cleaned_data["visibility"] == League.Visibility.MEMBERS:
            return f"{league.name} is for its members only now: nobody else sees any of it."
        return f"{league.name} is public: anyone may read its page."

    return _club_post(request, slug, act, "", anchor="club-settings")


@login_required
@require_POST
def club_link_new(request, slug: str):
    form = InviteLinkForm(request.POST)

    def act(league):
        if not form.is_valid():
            raise InvalidInput(
                f"a link lasts 1 to {clubs.LINK_MAX_DAYS} days and lets in 1 to "
                f"{clubs.LINK_MAX_USES} people"
            )
        link = clubs.link_create(league=league, by=request.user, **form.cleaned_data)
        return (
            f"A new invite link: it lets in {link.max_uses} "
            f"{'person' if link.max_uses == 1 else 'people'} until "
            f"{link.expires_at:%d %B %Y}."
        )

    return _club_post(request, slug, act, "", anchor="invite-links")


@login_required
@require_POST
def club_link_revoke(request, slug: str, pk: int):
    def act(league):
        clubs.link_revoke(league=league, link_id=pk, by=request.user)
        return "The link is withdrawn: it opens nothing now."

    return _club_post(request, slug, act, "", anchor="invite-links")


@login_required
@require_POST
def club_request_answer(request, slug: str, player: str, answer: str):
    if answer not in ("accept", "decline"):
        raise Http404("no such answer")

    def act(league):
        clubs.join_answer(league=league, player=player, accept=answer == "accept", by=request.user)
        if answer == "accept":
            return f"{player} is a member of {league.name} now."
        return f"You declined {player}'s request; they are told."

    return _club_post(request, slug, act, "", anchor="join-requests")


@login_required
@require_POST
def club_member(request, slug: str, player: str, action: str):
    """A button by a member's name: make organiser, make member, hand over, remove."""
    if action not in ("remove", "owner", "organiser", "member"):
        raise Http404("no such action")

    def act(league):
        if action == "remove":
            clubs.member_remove(league=league, player=player, by=request.user)
            return f"{player} is no longer a member; their games stay in the standings."
        if action == "owner":
            clubs.hand_over(league=league, player=player, by=request.user)
            return f"{league.name} is {player}'s now; you stay on as an organiser."
        clubs.role_set(league=league, player=player, role=action, by=request.user)
        return f"{player} is {'an organiser' if action == 'organiser' else 'a member'} now."

    return _club_post(request, slug, act, "")


@login_required
@require_POST
def club_leave(request, slug: str):
    league = visibility.league_or_404(slug, request.user)
    try:
        clubs.member_leave(league=league, by=request.user)
    except ServiceError as exc:
        messages.error(request, _sentence(exc))
        return redirect(reverse("league-detail", args=[league.slug]) + "#members")
    messages.success(request, f"You have left {league.name}; your games stay in its standings.")
    if visibility.may_read_league(league, request.user):
        return redirect("league-detail", slug=league.slug)
    return redirect("leagues")


@login_required
@require_POST
def tournament_organiser(request, pk: int, action: str):
    """Add an organiser to a tournament, or take one off."""
    if action not in ("add", "remove"):
        raise Http404("no such action")
    tournament = visibility.tournament_or_404(pk, request.user)
    form = PlayerForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the organiser's username.")
    else:
        player = form.cleaned_data["player"]
        try:
            if action == "add":
                clubs.organiser_add(tournament=tournament, player=player, by=request.user)
                messages.success(request, f"{player} organises {tournament.name} with you now.")
            else:
                clubs.organiser_remove(tournament=tournament, player=player, by=request.user)
                messages.success(request, f"{player} no longer organises {tournament.name}.")
        except ServiceError as exc:
            messages.error(request, _sentence(exc))
    return redirect(reverse("tournament-detail", args=[tournament.pk]) + "#organisers")
