"""The ground floor: what every app stands on, and nothing of theirs.

errors (the service errors every service raises and the HTTP edge maps to statuses), direct
(statements sent straight to the database driver), parsers (the API's strict JSON) and inputs
(the checks for input from any door). Not a Django app: no models, no migrations. It imports
Django and the standard library only: never accounts, games, league or config.
"""
