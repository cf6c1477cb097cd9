"""The tournament API: tournaments, rounds, entries, organisers, tables, standings and exports."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import ORGANISE, READ, RECORD, HasScope
from core import inputs
from core.errors import NotYourSeat, Refused, UnknownName
from games.records import table_results
from league import selectors, visibility
from league.api import serializers as s
from league.models import Tournament
from league.services import clubs, tournaments
from league.tournament_spec import TournamentSpec

_tournament = visibility.tournament_or_404


def _tournament_out(tournament: Tournament) -> dict:
    return s.TournamentOut(selectors.tournament_detail(tournament)).data


def _body(request, body_in: type[serializers.Serializer] | None) -> dict:
    """The request's body as ``body_in`` reads it (a 400 if it cannot), or nothing."""
    if body_in is None:
        return {}
    body = body_in(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)


def _tournament_changed(
    request,
    pk,
    change: Callable[..., Any],
    body_in: type[serializers.Serializer] | None = None,
    *,
    created: bool = False,
) -> Response:
    """The tournament, changed by ``change`` (a service taking it, who acts and the body's
    fields), and answered as it is now: 201 if ``created``, else 200. A tournament the caller
    may not see is a 404 before the body is read."""
    tournament = _tournament(pk, request.user)
    change(tournament=tournament, by=request.user, **_body(request, body_in))
    # The services change a copy they lock (the cap, check-in closed): read it again.
    tournament.refresh_from_db()
    code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
    return Response(_tournament_out(tournament), status=code)


def _round_changed(
    request,
    pk,
    number,
    change: Callable[..., Any],
    body_in: type[serializers.Serializer] | None = None,
) -> Response:
    """Round ``number``, changed by ``change`` (a service taking the tournament, the number,
    who acts and the body's fields, and returning the round), and answered as it is now, 201.
    The body is read first: a bad one is a 400 whatever the tournament."""
    fields = _body(request, body_in)
    round_ = change(
        tournament=_tournament(pk, request.user), number=number, by=request.user, **fields
    )
    return Response(s.RoundOut(selectors.round_out(round_)).data, status=status.HTTP_201_CREATED)


class TournamentListCreateApi(APIView):
    scopes = {"GET": READ, "POST": ORGANISE}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.TournamentListOut(many=True))
    def get(self, request):
        return Response(
            s.TournamentListOut(selectors.tournament_summaries(request.user), many=True).data
        )

    @extend_schema(request=s.TournamentIn, responses={201: s.TournamentOut})
    def post(self, request):
        data = _body(request, s.TournamentIn)
        league = selectors.league_named(data.pop("league"))
        season_name = data.pop("season")
        season = None
        if season_name is not None:
            if league is None:
                raise Refused("a season belongs to a league: name the league too")
            season = league.seasons.filter(name=season_name).first()
            number = inputs.whole_number_or_none(season_name, 1, inputs.BIGINT)
            if season is None and number is not None:
                season = league.seasons.filter(pk=number).first()
            if season is None:
                raise UnknownName(f"{league.name} has no season {season_name!r}")
        spec = TournamentSpec(**data, league=league, season=season)
        tournament = tournaments.tournament_create(spec=spec, created_by=request.user)
        return Response(_tournament_out(tournament), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    """GET the tournament; PATCH changes its settings (organisers), as far as its state
    allows (league.services.tournaments.editing)."""

    scopes = {"GET": READ, "PATCH": ORGANISE}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.TournamentOut)
    def get(self, request, pk):
        return Response(_tournament_out(_tournament(pk, request.user)))

    @extend_schema(request=s.TournamentIn(partial=True), responses={200: s.TournamentOut})
    def patch(self, request, pk):
        tournament = _tournament(pk, request.user)
        body = s.TournamentIn(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        # A setting the input does not know is passed on as sent: the service names it.
        changes = {name: request.data[name] for name in request.data}
        changes.update(body.validated_data)
        tournament = tournaments.tournament_edit(
            tournament=tournament, changes=changes, by=request.user
        )
        return Response(_tournament_out(tournament))


class TournamentRoundsApi(APIView):
    """GET lists the rounds; POST pairs the next one (organisers)."""

    scopes = {"GET": READ, "POST": ORGANISE}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.RoundOut(many=True))
    def get(self, request, pk):
        rounds = selectors.live_rounds(_tournament(pk, request.user))
        return Response(s.RoundOut([selectors.round_out(r) for r in rounds], many=True).data)

    @extend_schema(request=s.PairIn, responses={201: s.RoundOut})
    def post(self, request, pk):
        """Pair the next round: published at once (its tables with their games), or with
        ``{"draft": true}`` kept as the organisers' draft (answered as ``DraftOut``)."""
        draft = _body(request, s.PairIn)["draft"]
        tournament = _tournament(pk, request.user)
        round_ = tournaments.round_pair(tournament=tournament, by=request.user, draft=draft)
        if draft:
            return Response(
                s.DraftOut(selectors.draft_out(tournament)).data, status=status.HTTP_201_CREATED
            )
        return Response(
            s.RoundOut(selectors.round_out(round_)).data, status=status.HTTP_201_CREATED
        )


class TournamentDraftApi(APIView):
    """Round N's draft, for its organisers: GET shows it with its repeats, POST applies one
    edit (swap, fix, bye) and says what it costs, DELETE discards it."""

    scopes = {"GET": READ, "POST": ORGANISE, "DELETE": ORGANISE}

    def _draft(self, request, pk, number) -> tuple[Tournament, dict]:
        tournament = _tournament(pk, request.user)
        if not selectors.is_tournament_organiser(tournament, request.user):
            raise NotYourSeat("only the tournament's organisers see a draft")
        out = selectors.draft_out(tournament)
        if out is None or out["number"] != number:
            raise UnknownName(f"round {number} has no draft")
        return tournament, out

    @extend_schema(responses=s.DraftOut)
    def get(self, request, pk, number):
        return Response(s.DraftOut(self._draft(request, pk, number)[1]).data)

    @extend_schema(request=s.DraftEditIn, responses={200: s.DraftEditOut})
    def post(self, request, pk, number):
        tournament = _tournament(pk, request.user)
        _, costs = tournaments.draft_edit(
            tournament=tournament, number=number, by=request.user, edit=request.data
        )
        out = {**selectors.draft_out(tournament), "costs": costs}  # type: ignore[dict-item]
        return Response(s.DraftEditOut(out).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, pk, number):
        tournament = _tournament(pk, request.user)
        tournaments.draft_discard(tournament=tournament, number=number, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentPublishApi(APIView):
    """Publish round N's draft: its games, notices and webhooks, as pairing at once."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=None, responses={201: s.RoundOut})
    def post(self, request, pk, number):
        return _round_changed(request, pk, number, tournaments.draft_publish)


class TournamentFixedTableApi(APIView):
    """``{"player", "table"}``: the player sits at that table number every round paired from
    now on (accessibility); ``"table": null`` frees them (organisers)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.FixedTableIn, responses={200: s.TournamentOut})
    def post(self, request, pk):
        return _tournament_changed(request, pk, tournaments.entry_fix_table, s.FixedTableIn)


class TournamentRepairApi(APIView):
    """Pair the latest round again, before any move or result (organisers)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=None, responses={201: s.RoundOut})
    def post(self, request, pk, number):
        return _round_changed(request, pk, number, tournaments.round_repair)


class TournamentEntryApi(APIView):
    """enter/ (a late entry, organisers) and drop/ (organisers, or a player for themself)."""

    scopes = {"POST": ORGANISE}

    action = ""

    @extend_schema(request=s.PlayerNameIn, responses={201: s.TournamentOut})
    def post(self, request, pk):
        change = tournaments.entry_add if self.action == "enter" else tournaments.entry_drop
        return _tournament_changed(request, pk, change, s.PlayerNameIn, created=True)


class TournamentEntryAnswerApi(APIView):
    """accept/: the player an organiser entered says yes, and the tournament's games they
    played are rated once everyone at each has agreed; decline/: they say no and are
    withdrawn. Only your own entry; entering yourself (register/) needs no answer."""

    scopes = {"POST": ORGANISE}

    action = ""

    @extend_schema(
        request=s.AnswerInvitationIn,
        responses={
            201: s.TournamentOut,
            403: OpenApiResponse(s.ErrorOut, description="another player's entry"),
            404: OpenApiResponse(s.ErrorOut, description="no such tournament"),
            409: OpenApiResponse(
                s.ErrorOut, description="not entered, or answered already (accepted, declined)"
            ),
        },
    )
    def post(self, request, pk):
        answer = tournaments.entry_accept if self.action == "accept" else tournaments.entry_decline
        return _tournament_changed(request, pk, answer, s.AnswerInvitationIn, created=True)


class TournamentOrganisersApi(APIView):
    """POST ``{"player"}``: another organiser for this tournament (its organisers add them; at
    a club's tournament, a member of the club)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.PlayerIn, responses={201: s.TournamentOut})
    def post(self, request, pk):
        return _tournament_changed(request, pk, clubs.organiser_add, s.PlayerIn, created=True)


class TournamentOrganiserApi(APIView):
    """DELETE: take a player off the tournament's organisers (a tournament keeps one)."""

    scopes = {"DELETE": ORGANISE}

    @extend_schema(request=None, responses={200: s.TournamentOut})
    def delete(self, request, pk, player):
        return _tournament_changed(request, pk, partial(clubs.organiser_remove, player=player))


class TournamentReenterApi(APIView):
    """An organiser re-enters a dropped player: they play from the next round paired."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.PlayerNameIn, responses={201: s.TournamentOut})
    def post(self, request, pk):
        return _tournament_changed(
            request, pk, tournaments.entry_reenter, s.PlayerNameIn, created=True
        )


class TournamentRegisterApi(APIView):
    """Open entry: the player enters themself before round 1 (beyond the cap: the waitlist)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=None, responses={201: s.TournamentOut})
    def post(self, request, pk):
        return _tournament_changed(request, pk, tournaments.entry_register, created=True)


class TournamentFinishApi(APIView):
    """End a Swiss, round robin or pools event now (organisers), after a complete round: the
    standings as they stand are final (league.services.tournaments.rounds.tournament_finish)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=None, responses={200: s.TournamentOut})
    def post(self, request, pk):
        tournament = _tournament(pk, request.user)
        tournament = tournaments.tournament_finish(tournament=tournament, by=request.user)
        return Response(_tournament_out(tournament))


class TournamentWalkInsApi(APIView):
    """Walk-ins (organisers): GET lists them with the codes they claim their entries with;
    POST enters one by name, at an event played at the venue (league.services.tournaments.
    walk_ins says what a walk-in is and what claiming does)."""

    scopes = {"GET": ORGANISE, "POST": ORGANISE}

    @extend_schema(responses=s.WalkInOut(many=True))
    def get(self, request, pk):
        tournament = _tournament(pk, request.user)
        if not selectors.is_tournament_organiser(tournament, request.user):
            raise NotYourSeat("only the tournament's organisers see the walk-ins' codes")
        return Response(s.WalkInOut(selectors.walk_ins(tournament), many=True).data)

    @extend_schema(request=s.WalkInIn, responses={201: s.WalkInOut})
    def post(self, request, pk):
        tournament = _tournament(pk, request.user)
        name = _body(request, s.WalkInIn)["name"]
        entry = tournaments.entry_walk_in(tournament=tournament, name=name, by=request.user)
        return Response(
            s.WalkInOut(selectors.walk_in_out(entry)).data, status=status.HTTP_201_CREATED
        )


class TournamentClaimApi(APIView):
    """A member claims a walk-in's entry with the code from its slip: it is theirs from now on."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.ClaimIn, responses={200: s.TournamentOut})
    def post(self, request, pk):
        return _tournament_changed(request, pk, tournaments.entry_claim, s.ClaimIn)


class TournamentCheckInApi(APIView):
    """Check in before round 1: yourself, or (organisers) a named player."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.CheckInIn, responses={201: s.TournamentOut})
    def post(self, request, pk):
        tournament = _tournament(pk, request.user)
        player = _body(request, s.CheckInIn).get("player", request.user.username)
        tournaments.entry_check_in(tournament=tournament, player=player, by=request.user)
        return Response(_tournament_out(tournament), status=status.HTTP_201_CREATED)


class TournamentCheckInCloseApi(APIView):
    """Close check-in before round 1 (organisers): the no-shows are dropped and their places
    go to waiting players who checked in, in waitlist order."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=None, responses={200: s.TournamentOut})
    def post(self, request, pk):
        return _tournament_changed(request, pk, tournaments.check_in_close)


class TournamentSeatApi(APIView):
    """Seat a waiting player before round 1, beyond the cap if need be (organisers)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.PlayerNameIn, responses={201: s.TournamentOut})
    def post(self, request, pk):
        return _tournament_changed(
            request, pk, tournaments.entry_seat, s.PlayerNameIn, created=True
        )


class TournamentCapApi(APIView):
    """Change the cap before round 1 (organisers); a higher cap moves waiting players up."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.CapIn, responses={200: s.TournamentOut})
    def post(self, request, pk):
        return _tournament_changed(request, pk, tournaments.tournament_cap, s.CapIn)


class TournamentRoundStartApi(APIView):
    """Start a round's clock (table mode, organisers)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.RoundStartIn, responses={201: s.RoundOut})
    def post(self, request, pk, number):
        return _round_changed(request, pk, number, tournaments.round_start, s.RoundStartIn)


class TournamentRoundPauseApi(APIView):
    """pause/ and resume/ a round's clock (table mode, organisers)."""

    scopes = {"POST": ORGANISE}

    action = ""

    @extend_schema(request=None, responses={201: s.RoundOut})
    def post(self, request, pk, number):
        change = tournaments.round_pause if self.action == "pause" else tournaments.round_resume
        return _round_changed(request, pk, number, change)


class TournamentRoundExtendApi(APIView):
    """``{"minutes"}`` more for a round (table mode, organisers)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.MinutesIn, responses={201: s.RoundOut})
    def post(self, request, pk, number):
        return _round_changed(request, pk, number, tournaments.round_extend, s.MinutesIn)


class TableExtraTimeApi(APIView):
    """``{"minutes"}`` more for one table beyond the round's clock (table mode, organisers)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.MinutesIn, responses={201: s.TableOut})
    def post(self, request, pk, table):
        tournament = _tournament(pk, request.user)
        fields = _body(request, s.MinutesIn)
        table_ = tournaments.table_extra_time(
            tournament=tournament,
            table=tournaments.table_get(tournament, table),
            by=request.user,
            **fields,
        )
        return Response(
            s.TableOut(selectors.table_out(table_)).data, status=status.HTTP_201_CREATED
        )


class TableResultApi(APIView):
    """report/, confirm/ and override/ for a table-mode table."""

    scopes = {"POST": RECORD}  # override/ needs ORGANISE: league.api.urls says so

    action = ""

    @extend_schema(request=s.TableResultIn, responses={201: s.RecordOut})
    def post(self, request, pk, table):
        tournament = _tournament(pk, request.user)
        fields = _body(request, s.TableResultIn)
        results, bid = fields["results"], fields["bid"]
        table_ = tournaments.table_get(tournament, table)
        if self.action == "report":
            state = tournaments.table_report(
                tournament=tournament, table=table_, user=request.user, results=results, bid=bid
            )
        elif self.action == "confirm":
            state = tournaments.table_confirm(
                tournament=tournament,
                table=table_,
                user=request.user,
                results=results,
                # A confirmation that names no bid confirms the one reported with the result.
                bid=bid if "bid" in request.data else table_results.UNSTATED,
            )
        else:
            state = tournaments.table_override(
                tournament=tournament,
                table=table_,
                by=request.user,
                results=results,
                # An override that names no bid keeps the one reported.
                bid=bid if "bid" in request.data else table_results.UNSTATED,
            )
        return Response(s.RecordOut(state).data, status=status.HTTP_201_CREATED)


class TableForfeitApi(APIView):
    """An organiser ends an absent player's part at a table (``{"player", "reason"}``), or
    adjudicates the table (``{"results", "reason"}``)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(
        request=s.TableForfeitIn,
        responses={
            201: s.TableOut,
            403: OpenApiResponse(s.ErrorOut, description="not an organiser"),
            404: OpenApiResponse(s.ErrorOut, description="no such tournament or table"),
            422: OpenApiResponse(s.ErrorOut, description="not at the table, table finished"),
        },
    )
    def post(self, request, pk, table):
        tournament = _tournament(pk, request.user)
        fields = _body(request, s.TableForfeitIn)
        table_ = tournaments.table_get(tournament, table)
        tournaments.table_forfeit(tournament=tournament, table=table_, by=request.user, **fields)
        return Response(
            s.TableOut(selectors.table_out(tournaments.table_get(tournament, table))).data,
            status=status.HTTP_201_CREATED,
        )


class StandingsApi(APIView):
    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    @extend_schema(parameters=[s.STANDINGS_ROUND], responses=s.StandingOut(many=True))
    def get(self, request, pk):
        """The standings now (with the final places once decided), or with ``?round=N`` as
        they stood after round N."""
        tournament = _tournament(pk, request.user)
        after = selectors.standings_round(tournament, request.query_params.get("round"))
        rows = selectors.tournament_standings(tournament, after_round=after)
        if after is None:
            rows = selectors.with_places(tournament, rows)
        return Response(s.StandingOut(rows, many=True).data)


class TableTiebreakApi(APIView):
    """An organiser records who goes through a bracket's table tied across the line."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=s.TiebreakIn, responses={201: s.TiebreakOut})
    def post(self, request, pk, table):
        tournament = _tournament(pk, request.user)
        order = _body(request, s.TiebreakIn)["order"]
        decided = tournaments.table_tiebreak(
            tournament=tournament,
            table=tournaments.table_get(tournament, table),
            by=request.user,
            order=order,
        )
        return Response(s.TiebreakOut(decided).data, status=status.HTTP_201_CREATED)


class BracketApi(APIView):
    """The bracket as it stands (docs/api.md): of an elimination event, a top cut or a pools
    event's playoff; a double elimination event's has its sides."""

    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, 404: OpenApiResponse(description="no bracket")}
    )
    def get(self, request, pk):
        tournament = _tournament(pk, request.user)
        double = selectors.double_bracket(tournament)  # None unless double elimination
        if double is not None:
            return Response(s.BracketOut(double).data)
        bracket = tournaments.tournament_bracket(tournament)
        if bracket is None:
            raise UnknownName("this tournament has no bracket")
        return Response(bracket)


class CsvApi(APIView):
    """The standings or every table's result, as CSV."""

    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]
    which = "standings"

    @extend_schema(responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR)})
    def get(self, request, pk):
        t = _tournament(pk, request.user)
        text = (
            tournaments.standings_csv(t)
            if self.which == "standings"
            else tournaments.results_csv(t)
        )
        response = HttpResponse(text, content_type="text/csv")
        response["Content-Disposition"] = (
            f'attachment; filename="tournament-{t.pk}-{self.which}.csv"'
        )
        return response
