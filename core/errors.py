"""The errors services raise when a caller is at fault; ``status`` is what the API answers."""


class ServiceError(Exception):
    """Base for errors a caller caused; ``status`` is the HTTP status the API gives it."""

    status = 400


class InvalidInput(ServiceError):
    status = 400


class Refused(InvalidInput):
    """Input of the right shape whose meaning is refused, for a reason a schema cannot state:
    a date in the future, ranks that are not in competition order, a player who has not
    entered (HTTP 422, like the rules' refusals)."""

    status = 422


class UnknownName(InvalidInput):
    """A name or id in the request that names nothing: no such member, league or season
    (HTTP 404, as for an address that names nothing)."""

    status = 404


class NotYourSeat(ServiceError):
    """Not the caller's to do (HTTP 403)."""

    status = 403


class Conflict(ServiceError):
    """The request clashes with what already happened (HTTP 409)."""

    status = 409


class RuleViolation(ServiceError):
    """The rules refuse the action (HTTP 422)."""

    status = 422


class KeyReused(RuleViolation):
    """An idempotency key sent again with a different request (HTTP 422)."""


class TooMany(ServiceError):
    """The caller has asked for more than their share (HTTP 429); ``retry_after`` seconds,
    when known, is when to ask again."""

    status = 429

    def __init__(self, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class Busy(TooMany):
    """The service as a whole has as much of this work as it takes now (HTTP 503)."""

    status = 503
