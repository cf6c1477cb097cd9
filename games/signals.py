"""What the games app announces to the apps above it, once the transaction that made it true
has committed. games knows nothing of ratings or leagues: they subscribe (league.apps).

- ``game_finished(game_id, slug)``: a game ended, played here or recorded from a table.
- ``result_corrected(game_id, slug)``: a finished game's result changed (a correction).
- ``consent_changed(game_id, slug)``: someone at a finished game agreed to it, or refused it,
  after it ended (a table log's seat accepted or declined): the ratings may take it in now, or
  know never to.
- ``turn_started(game, seat, user_id)``: it has become the person at ``seat``'s turn (``game``
  is the head, games.store.Head).
- ``invitation_sent(game, seat, user_id)``: a seat was offered to a person who has not taken
  it, at a new game or a rematch (games.live.push sees it in the write); the user stream
  (``/api/me/stream/``) passes it on.

- ``bot_levels_measured(slug, levels, games)``: ``manage.py simulate --rate`` let the bot
  levels play each other; ``levels`` maps each level (random, greedy, mcts) to the budget it
  played at (``"200 iterations a move"``, or ``""``), ``games`` lists every game as (the level
  in each seat, each seat's rank). League rates the levels and answers with their Elo.

And one question the pages ask upward, since only the apps above know the answer:

- ``record_correctable(game, user)``: may ``user`` correct this club record? Receivers answer
  True or False; :func:`may_correct` is True if any of them says so (league answers: whoever
  recorded it, a league organiser, staff).
- ``record_stewards(game)``: who settles a dispute of this club record or tournament table's
  result, beside whoever recorded it: receivers answer a list of user ids (league answers with
  the organisers of its league or tournament). Their inbox is told of the dispute
  (games.live.notices).
- ``game_over_panels(game)``: what to show at the end of a finished game beyond its result.
  Receivers answer ``(template name, context)`` or None; :func:`end_panels` collects them
  (league answers with each seat's rating change).
- ``invitation_panels(user)``: what else waits for ``user``'s answer beyond the seats offered
  to them, for their invitations page; answered as ``game_over_panels`` is, collected by
  :func:`invitations_elsewhere` (league answers with leagues to join and tournament entries).

A bulk writer (games.play.steps.announcements_batched) sends each once per game type for all its
games: ``game_id`` is the last of them and ``game_ids`` lists them all.
"""

from django.dispatch import Signal

game_finished = Signal()
result_corrected = Signal()
consent_changed = Signal()
bot_levels_measured = Signal()
record_correctable = Signal()
turn_started = Signal()
invitation_sent = Signal()
record_stewards = Signal()
# Work for a worker, sent once the transaction has committed; games.tasks answers each.
bot_to_move = Signal()  # game_id, seat, version: a bot's (or a resigned seat's) move is due
clock_started = Signal()  # game_id, seat, version, seconds: check the clock when it runs out
analysis_wanted = Signal()  # game_id: compute a finished game's analysis
game_over_panels = Signal()
invitation_panels = Signal()
pause_forbidden = Signal()


def may_correct(game, user) -> bool:
    if not user.is_authenticated:
        return False
    return any(answer for _, answer in record_correctable.send(sender=None, game=game, user=user))


def end_panels(game) -> list[tuple[str, dict]]:
    return [answer for _, answer in game_over_panels.send(sender=None, game=game) if answer]


def invitations_elsewhere(user) -> list[tuple[str, dict]]:
    if not user.is_authenticated:
        return []
    return [answer for _, answer in invitation_panels.send(sender=None, user=user) if answer]
