"""Players as pages name them. Beside the bots rather than in games.bots, which is part of the
pure core (no Django): the accounts' names need the database."""

from __future__ import annotations

from accounts.bots import BOT_PREFIX, bot_level
from accounts.people import shown_username
from games.bots import bot_name


def player_words(username: str) -> str:
    """A player's account as pages name it: a house bot by its level ("Greedy bot"; a named
    bot player of a tournament with its name's tail, "Greedy bot 2" for bot-greedy-2), a former
    member as such, anyone else by their username."""
    level = bot_level(username)
    if level is None:
        return shown_username(username)
    tail = username.removeprefix(f"{BOT_PREFIX}{level}").removeprefix("-")
    return f"{bot_name(level)} {tail}" if tail else bot_name(level)
