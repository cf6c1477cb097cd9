"""The tournament pages: the list and the form for a new one, a tournament's page with its
tables, every action taken from it, and the pages for the venue.

The rooms, each importing only those before it:

- ``index``: the list of tournaments, and the form that sets up a new one;
- ``words``: a tournament in the page's words: the tie-breaks explained, the bracket, the
  final placings, how a tie at the line is broken;
- ``panels``: a table as its viewer sees it: its result so far, its links, its forms;
- ``page``: a tournament's page: rounds, standings, entries, the player's own table, and for
  its organisers the draft, the settings and the log;
- ``actions``: how an action answers: back to the page with a message, or the page again
  with the service's error;
- ``actions_entries``: who plays: late entries, walk-ins and claims, drops and re-entry,
  registering, check-in, a waiting player seated, an entry answered;
- ``actions_rounds``: running the event: its settings, pairing (and again), the draft, fixed
  tables, the round clock;
- ``actions_tables``: a table's result reported, confirmed or settled, a forfeit or an
  adjudication, extra time, a play-off's order;
- ``printouts``: for the venue: a round to print with its score slips, and the projector.

league/urls.py names each view by its room.
"""
