"""The JSON API, one module per room: play (games, moves, seats, the lobby's answers),
tablelog (starting a log, undoing, what is due), live (the event streams), records (exports),
analysis; serializers and fields are what they share. With games.pages the top of the app: it
may import any room below, never games.pages or games.tasks. Views parse and present; every
decision is a service's.
"""
