"""Table logs: a game played on a physical table, entered move by move by its scorekeeper.

services (start a log, enter a decision or a chance outcome, take the last entry back, the
seats' answers). It builds on play (the shared append-and-project steps) and the store; never
live, records, api, pages or games.tasks.
"""
