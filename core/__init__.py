"""The ground floor: what every app stands on, and nothing of theirs.

errors (the service errors every service raises and the HTTP edge maps to statuses), direct
(statements sent straight to the database driver), parsers (the API's strict JSON), inputs
(the checks for input from any door), fields (the API's text field, the same check stated in
the schema) and backups (the whole database copied, and restored into an empty one). Not a
Django app: no models, no migrations. It imports Django, DRF and the standard library only:
never accounts, games, league or config.
"""
