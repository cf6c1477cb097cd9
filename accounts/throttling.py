"""A burst of wrong passwords is refused for a while (HTTP 429), on the sign-in page and at
the token endpoint alike.

Built on DRF's throttling and Django's cache (Redis in production, so every worker counts
together): unlike DRF's own throttles it counts only failed attempts, per client address and
per username, so a member who types their password right is never slowed down.
"""

from __future__ import annotations

from rest_framework.throttling import SimpleRateThrottle


class FailedSignInThrottle(SimpleRateThrottle):
    scope = "sign_in_failures"

    def __init__(self, username: str = ""):
        super().__init__()
        self.username = username.strip().lower()[:150]

    def keys(self, request) -> list[str]:
        keys = [
            self.cache_format % {"scope": self.scope, "ident": f"addr:{self.get_ident(request)}"}
        ]
        if self.username:
            keys.append(self.cache_format % {"scope": self.scope, "ident": f"user:{self.username}"})
        return keys

    def allow_request(self, request, view=None) -> bool:
        """Whether another attempt may be made; counting nothing."""
        self.now = self.timer()
        for key in self.keys(request):
            history = [t for t in self.cache.get(key, []) if t > self.now - self.duration]
            if len(history) >= self.num_requests:
                self.history = history
                return False
        return True

    def record_failure(self, request) -> None:
        self.now = self.timer()
        for key in self.keys(request):
            history = [t for t in self.cache.get(key, []) if t > self.now - self.duration]
            self.cache.set(key, [self.now, *history], self.duration)
