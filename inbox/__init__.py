"""The inbox: what waits for a member (their turn, an invitation, a record to confirm, a
dispute, a round paired...), stored as notices, each with its link and read or not, and carried
to them on the site (the nav's bell and /api/me/stream/), by Web Push and by e-mail as they
choose (inbox.kinds). The apps above (games, league) say what happened (inbox.services); the
inbox knows neither of them."""
