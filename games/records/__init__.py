"""Recorded games: results reported from a table, confirmed by those who played.

services (a club's record, confirmed, disputed, corrected; in bulk for an import),
table_results (a tournament table's report, confirmation and the organiser's override),
reads (where a record stands), oceans (the Oceans score sheet), export (a finished game's
bundle) and verify (the bundle's checker, runnable with nothing but Python: this package's
__init__ imports nothing, so ``games.records.verify`` stays free of Django). It may import
play, the store and the models; never live, tablelog, api, pages or games.tasks.
"""
