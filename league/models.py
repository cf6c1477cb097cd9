"""Players, leagues, tournaments and ratings (their issues build them here)."""
