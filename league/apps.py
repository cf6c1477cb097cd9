from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues and ratings"

    def ready(self):
        from games import audience, store
        from games.signals import (
            bot_levels_measured,
            consent_changed,
            game_finished,
            game_over_panels,
            invitation_panels,
            pause_forbidden,
            record_correctable,
            record_stewards,
            result_corrected,
        )
        from league.notices import record_stewards as record_stewards_of
        from league.services.bot_levels import on_measured
        from league.visibility import closed_games
        from league.webhooks import outbox

        # games announces results; the ratings here take them in (the beat's sweep of unrated
        # games, league.tasks, is the backstop for an announcement that was lost).
        game_finished.connect(_rate, dispatch_uid="league.rate.finished")
        result_corrected.connect(_rate, dispatch_uid="league.rate.corrected")
        # A finished game held for someone's agreement (league.consent) who has now answered.
        consent_changed.connect(_rate, dispatch_uid="league.rate.consent")
        record_correctable.connect(_may_correct, dispatch_uid="league.may_correct")
        # A disputed record waits for its league's (or tournament's) organisers.
        record_stewards.connect(record_stewards_of, dispatch_uid="league.record_stewards")
        game_finished.connect(_end_tournaments, dispatch_uid="league.tournament.end")
        # The end of a game on its page shows what it did to each player's rating.
        game_over_panels.connect(_rating_panel, dispatch_uid="league.rating_panel")
        # A member's invitations page lists the leagues (and tournaments) asking them too.
        invitation_panels.connect(_invitations_panel, dispatch_uid="league.invitations")
        bot_levels_measured.connect(on_measured, dispatch_uid="league.bot_levels")
        # A tournament that does not allow vacations keeps its tables' clocks running.
        pause_forbidden.connect(_no_vacation, dispatch_uid="league.no_vacation")
        # A result or a dispute is news for the clubs' webhooks, written with the game's own
        # write so that it commits with it (league.webhooks.outbox).
        store.within_write(outbox.on_game_write, outbox.GAME_KINDS)
        # A members-only club's games are closed to whoever is not in it, everywhere in games.
        audience.close_with(closed_games)


def _rate(sender, *, slug: str, game_id: int | None = None, game_ids=None, **kwargs):
    from league.tasks import rate_finished_games

    # One game: only it is checked (O(1) in the games rated). A batch (an import of plays,
    # which may all lie before games already rated): every game is, as the sweep does.
    one = game_id if not game_ids or len(game_ids) == 1 else None
    rate_finished_games.delay(slug, one)


def _may_correct(sender, *, game, user, **kwargs) -> bool:
    from league.selectors import may_correct_record

    return may_correct_record(game, user)


def _end_tournaments(sender, *, game_id: int | None = None, game_ids=None, **kwargs):
    from league.services.tournaments import tournaments_end_if_over

    # A tournament whose last table this was ends by itself.
    tournaments_end_if_over(game_ids=list(game_ids or [game_id]))


def _no_vacation(sender, *, game_ids, **kwargs) -> set[int]:
    from league.selectors import games_without_vacation

    return games_without_vacation(game_ids)


def _rating_panel(sender, *, game, **kwargs):
    from league.selectors import rating_changes_of

    return "league/_rating_changes.html", rating_changes_of(game)


def _invitations_panel(sender, *, user, **kwargs):
    from games.catalog import game_name
    from games.records.reads import records_waiting_for
    from league.selectors import entries_asking, league_invitations_of

    return "league/_invitations.html", {
        "leagues": league_invitations_of(user),
        "entries": entries_asking(user),
        # Club records naming them that wait for their confirmation (an import's, say).
        "records": [
            {"game": game, "name": game_name(game.slug), "state": state}
            for game, state in records_waiting_for(user)
        ],
    }
