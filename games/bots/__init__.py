"""Pure-Python bots over the rule interface. A bot has ``choose(state, seat, rng) -> action``.

Bots only ever look at what their seat may see: a bot with hidden information to reason about
works on ``state.resample_hidden(seat, rng)``, never on the true state's secrets.

Levels: ``random`` (a uniformly random legal action), ``greedy`` (one move of look-ahead on the
game's evaluation) and ``mcts`` (information-set Monte Carlo tree search, with a budget of
iterations or seconds: ``get_bot("mcts", seconds=0.5)``).
"""

from games.bots.greedy import GreedyBot
from games.bots.mcts import MCTSBot
from games.bots.random_bot import RandomBot

BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}

# Each level in people's words, the one name pages, results and the log use for a bot's seat.
NAMES = {"random": "Random bot", "greedy": "Greedy bot", "mcts": "Search bot"}


def bot_name(level: str) -> str:
    """``level``'s bot as people call it: "Random bot", "Search bot"."""
    return NAMES.get(level) or f"{level.capitalize()} bot"


def get_bot(level: str, **budget):
    """A bot of ``level``; a ``budget`` (``iterations=``, ``seconds=``) only where it searches."""
    try:
        bot_class = BOTS[level]
    except KeyError:
        raise KeyError(f"unknown bot level {level!r}; known: {', '.join(BOTS)}") from None
    if budget and not getattr(bot_class, "takes_budget", False):
        raise ValueError(f"bot level {level!r} takes no budget")
    return bot_class(**budget)


__all__ = ["BOTS", "NAMES", "GreedyBot", "MCTSBot", "RandomBot", "bot_name", "get_bot"]
