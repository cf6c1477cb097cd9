"""Pure-Python bots over the rule interface. A bot has ``choose(state, seat, rng) -> action``.

Bots only ever look at what their seat may see: a bot with hidden information to reason about
works on ``state.resample_hidden(seat, rng)``, never on the true state's secrets.
"""

from games.bots.random_bot import RandomBot

BOTS = {"random": RandomBot}


def get_bot(level: str):
    try:
        return BOTS[level]()
    except KeyError:
        raise KeyError(f"unknown bot level {level!r}; known: {', '.join(BOTS)}") from None


__all__ = ["BOTS", "RandomBot", "get_bot"]
