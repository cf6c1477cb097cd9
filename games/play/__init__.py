"""Playing a game: creating it, seating people, moves, clocks, the end, analysis.

services (create, move, resign, bot moves, time-outs), lobby (invitations and open games),
clocks, away (clocks that wait for a member on vacation), endgame (what follows a finished
game), sweeper (the stalled-bot sweep), analysis (the post-game analysis's queue), leaving (a
member leaving for good settles their running games by events). It may import the store, the
models, the rules and bots, games.catalog, games.signals, core, accounts and the inbox; never live, tablelog, records, api, pages or
games.tasks: work for a worker goes out as a signal (games.signals) that games.tasks answers.
"""
