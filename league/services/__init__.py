"""The league app's writes, each module named after what it changes: ``ratings`` (taking
finished games into the ratings), ``leagues`` (clubs, members, seasons and their records) and
``tournaments`` (entries, pairings, table results). Reads and permission questions are in
league.selectors."""
