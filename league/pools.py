"""Pools, then a playoff, pure Python (no Django): who plays in which pool, and the playoff's
seeds from the pools' standings.

The seeds are dealt to the pools in snake order (1 to A, 2 to B, ..., then back), so each
pool has one of the top seeds and the pools are as even as the seeds. Each pool plays a round
robin (league.pairing.round_robin). The playoff takes the top ``advance`` of each pool and
seeds them by place in their pool first (every pool winner above every runner-up, and so
on), and within a place by the overall standings. Within a place, the order is then chosen
so that, in a standard seeded bracket (seed s meets seed N + 1 - s, N the next power of two),
no one meets a pool mate in the first playoff round where another order allows it.
"""

from __future__ import annotations

from collections.abc import Sequence


def pools_of(seeds: Sequence[str], count: int) -> list[list[str]]:
    """The seeds dealt to ``count`` pools in snake order, best seed first in each."""
    if count < 1:
        raise ValueError("at least one pool")
    pools: list[list[str]] = [[] for _ in range(count)]
    for index, player in enumerate(seeds):
        row, column = divmod(index, count)
        pools[column if row % 2 == 0 else count - 1 - column].append(player)
    return pools


def playoff_seeds(
    pool_standings: Sequence[Sequence[str]], overall: Sequence[str], advance: int
) -> list[str]:
    """The playoff's seeds, best first: the top ``advance`` of each pool's standings (players
    still in, best first), by place in the pool, then by ``overall`` standing, then reordered
    within a place to keep pool mates apart in the first round (see the module's doc)."""
    rank = {player: index for index, player in enumerate(overall)}
    pool_of = {player: i for i, pool in enumerate(pool_standings) for player in pool}
    tiers = [
        sorted(
            (pool[place] for pool in pool_standings if len(pool) > place),
            key=lambda p: rank.get(p, len(rank)),
        )
        for place in range(advance)
    ]
    total = sum(len(tier) for tier in tiers)
    size = 1
    while size < total:
        size *= 2
    seeds: list[str] = []
    for tier in tiers:
        waiting = list(tier)
        while waiting:
            position = len(seeds) + 1  # the seed this one takes
            facing = size + 1 - position
            opponent = seeds[facing - 1] if facing < position else None
            choice = next(
                (p for p in waiting if opponent is None or pool_of[p] != pool_of[opponent]),
                waiting[0],
            )
            waiting.remove(choice)
            seeds.append(choice)
    return seeds
