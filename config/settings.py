"""Settings for every environment, read from environment variables.

With nothing set you get the embedded default: SQLite in the project folder and Celery in eager
mode, so `make run` needs no services. Production sets DATABASE_URL, REDIS_URL, SECRET_KEY,
DEBUG=0 and ALLOWED_HOSTS (see docker-compose.yml).
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# -- core ------------------------------------------------------------------------------------
DEBUG = env_bool("DEBUG", True)
# The fallback key is only good for the embedded default; production must set SECRET_KEY.
SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-not-secret-hadal")
if not DEBUG and SECRET_KEY.startswith("dev-only"):
    raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the Swagger UI from our own static files, not a CDN
    "allauth",
    "allauth.account",  # e-mail addresses, their verification, password reset (no social)
    "accounts",
    "inbox",
    "games",
    "league",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.http.SitePagesMiddleware",
    "config.http.RequestGuardMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
CSRF_FAILURE_VIEW = "config.http.csrf_failure"  # the API's JSON 403 on API paths
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"  # production: uvicorn workers (the streams)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "inbox.context.nav",  # the nav: the bell, "your turn", invitations
                "inbox.context.push_key",  # Web Push: the key a browser subscribes with
                "accounts.context.link_lifetimes",  # "the link works for 3 days"
            ],
        },
    },
]

# -- database ----------------------------------------------------------------------------------
# CONN_MAX_AGE keeps a connection between requests, for a server that runs each request on a
# thread of its own (Celery's worker, runserver). Never under ASGI (config.asgi refuses it):
# there every request has a context of its own and a kept connection is never given back. The
# ASGI web service pools its connections instead (DB_POOL, below).
CONN_MAX_AGE = int(os.environ.get("CONN_MAX_AGE", "0"))
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=CONN_MAX_AGE,
        conn_health_checks=CONN_MAX_AGE > 0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers queue instead of failing with "database is locked": a transaction
    # takes the write lock when it begins (IMMEDIATE), readers never block the writer (WAL),
    # and a writer waits up to 20 s for its turn.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by the server, and a statement run five times on a connection (a move's
    # write, a token check) prepared by psycopg, so PostgreSQL plans it once, not at every
    # request: a write costs about a third less (bench_store.py). Django leaves preparing off
    # unless asked. DB_PREPARE_THRESHOLD=off for a pooler that cannot keep prepared
    # statements (PgBouncer before 1.21 in transaction mode).
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options.setdefault("server_side_binding", env_bool("DB_SERVER_SIDE_BINDING", True))
    threshold = os.environ.get("DB_PREPARE_THRESHOLD", "5").strip().lower()
    options.setdefault("prepare_threshold", None if threshold == "off" else int(threshold))
    # psycopg's pool: each process holds at most DB_POOL_MAX_SIZE connections, lends one to a
    # request for as long as it runs and takes it back at its end; a request that finds none
    # free within DB_POOL_TIMEOUT seconds is a 503, and the server's limit is never reached.
    if env_bool("DB_POOL", False):
        options["pool"] = {
            "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", "2")),
            "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "10")),
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
            "max_idle": float(os.environ.get("DB_POOL_MAX_IDLE", "300")),
        }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- auth --------------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "game-list"
LOGOUT_REDIRECT_URL = "game-list"
# A username as typed first (Django's own check, exact), then django-allauth's: an e-mail
# address, or the username in any case.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# -- accounts (django-allauth) -------------------------------------------------------------------
# A username to play under; an e-mail address optional, verified by a link, and then the way
# back in (a new password) and where turn e-mails go. Sign-in is our own page
# (accounts.views.SignInView), throttled by accounts.throttling; allauth's pages do the rest.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "signup": "accounts.forms.SignUpForm",
    "reset_password": "accounts.forms.ResetPasswordForm",
    "reset_password_from_key": "accounts.forms.ResetPasswordKeyForm",
    "change_password": "accounts.forms.ChangePasswordForm",
    "add_email": "accounts.forms.AddEmailForm",
}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
# Verification cannot be required to sign in while the address is optional; what it gates is
# a new password by e-mail and turn e-mails (accounts.addresses).
ACCOUNT_EMAIL_VERIFICATION = "optional"
# One address, changed for a new one once the new one is verified.
ACCOUNT_CHANGE_EMAIL = True
# Neither a reset nor a sign-up says whether an address has an account. With verification
# optional, a sign-up with an address in use can only hide that by going ahead: "strict" lets
# the new account hold the address unverified, and a verified address stays unique, so the
# address's owner is the one who can verify it.
ACCOUNT_PREVENT_ENUMERATION = "strict"
# "Your password was changed", "your address was changed" (to the old address): a member
# hears of a change they did not make.
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = ""  # the subjects say "Hadal" themselves
ACCOUNT_EMAIL_CONFIRMATION_AUTHENTICATED_REDIRECT_URL = "settings"
# Links in mails are built from the request: its host is one of ALLOWED_HOSTS, its scheme the
# one uvicorn heard from the proxy (below); https is forced where the site redirects to it.
# allauth's rate limits count the client as REMOTE_ADDR (ALLAUTH_TRUSTED_PROXY_COUNT 0), the
# address uvicorn took from a trusted proxy, as everything else here does.
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http"

# -- i18n and static -------------------------------------------------------------------------
LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))

# -- security when served for real -------------------------------------------------------------
# On by default once DEBUG is off; each can be turned off from the environment (say, to try
# the compose file on http://localhost without a TLS proxy in front).
# Whether a request came over https, and from which address, is the ASGI server's to say: uvicorn
# takes X-Forwarded-Proto and X-Forwarded-For only from the proxies in FORWARDED_ALLOW_IPS (the
# compose file's Caddy), and gives Django the client's own address and scheme. Django and DRF
# read no forwarded header themselves (no SECURE_PROXY_SSL_HEADER; NUM_PROXIES 0): a client that
# reaches the app directly can name neither another address nor https.
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]  # asked over plain http from inside the network
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if SECURE_SSL_REDIRECT:
        ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https"

# -- REST API ----------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # A token's scopes first (accounts.scopes): every view that names its own permissions
    # names HasScope first too, and tests/api/test_scopes.py checks every operation.
    "DEFAULT_PERMISSION_CLASSES": [
        "accounts.scopes.HasScope",
        "rest_framework.permissions.IsAuthenticated",
    ],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "config.pagination.PageNumbers",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "config.http.exception_handler",
    # JSON only, in and out: an API client never gets HTML, and never sends what we can't store.
    "DEFAULT_PARSER_CLASSES": ["core.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Wrong passwords, per client address and per username (accounts.throttling).
    "DEFAULT_THROTTLE_RATES": {
        "sign_in_failures": os.environ.get("HADAL_SIGN_IN_FAILURES", "10/min")
    },
    # The client is REMOTE_ADDR, which uvicorn has set from a trusted proxy's X-Forwarded-For.
    "NUM_PROXIES": 0,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Hadal API",
    "DESCRIPTION": "Deep-sea board games: event-sourced games, bots, ratings and tournaments.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.live.add_stream_paths",
        "config.schema.scope_the_streams",
        "config.schema.add_known_names",
        "config.schema.add_error_responses",
        "config.schema.describe_event_streams",
    ],
    # config.urls' <id:...>: a whole number a bigint holds.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
    },
    # A text field that may not be blank says so (minLength 1), as the server refuses it.
    "ENFORCE_NON_BLANK_FIELDS": True,
    # One enum for the Deep cards, wherever a card is named (a sheet in, a sheet out, stats).
    # One for a tournament's status (its page and the entries waiting for an answer), under
    # the name it had before the second, and one for a person asked to join a league.
    "ENUM_NAME_OVERRIDES": {
        "DeepCardEnum": "games.rules.oceans_data.CARD_NAMES",
        "TournamentOutStatusEnum": ["open", "running", "finished"],
        "MembershipStatusEnum": ["invited", "member"],
        "RoleEnum": ["member", "organiser"],
        "MemberRoleEnum": ["member", "organiser", "owner"],
        "AnswerEnum": ["invited", "accepted", "declined"],
        "JoinAnswerEnum": ["waiting", "accepted", "declined"],
        "MailChoiceEnum": "inbox.kinds.MAIL_CHOICES",  # a notice's e-mail: none, now, digest
        # "state": an invitation link's (league), under the name it had before, and a vacation's.
        "StateEnum": ["open", "expired", "used up", "revoked"],
        "VacationStateEnum": ["scheduled", "away", "over"],
        "WebhookStateEnum": ["sending", "stopped"],
        "WebhookFormatEnum": ["plain", "discord", "slack"],
        "DeliveryStateEnum": ["delivered", "waiting", "retrying"],
    },
}

# -- cache -----------------------------------------------------------------------------------
# Shared by every process in production (the sign-in throttle counts across workers); in
# memory for the embedded default.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHE_URL = os.environ.get("REDIS_CACHE_URL", REDIS_URL)
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# -- Celery --------------------------------------------------------------------------------------
# The in-memory broker is named with a host it ignores: with none, kombu warns "No hostname was
# supplied" on every connection (`manage.py demo`, `make run`), which only looked like a fault.
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
# Without Redis, tasks run in-process (eager): the embedded default and most tests.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
# A broker that is down must not hold up a request for long: give up publishing quickly and
# let the beat sweeps enqueue what was missed.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Analyses take minutes of search each: a queue of their own, served by a worker of their own
# (docker-compose.yml's analysis), so that however many wait, a bot's reply or a clock does not.
CELERY_TASK_ROUTES = {"games.tasks.analyse_game": {"queue": "analysis"}}
# How often beat looks for daily lists to send: a list leaves at most this long after its hour.
HADAL_DIGEST_EVERY = float(os.environ.get("HADAL_DIGEST_EVERY", "600"))
CELERY_BEAT_SCHEDULE = {
    "sweep-stalled-bots": {"task": "games.tasks.sweep_stalled_bots", "schedule": 60.0},
    "sweep-unrated-games": {"task": "league.tasks.sweep_unrated_games", "schedule": 300.0},
    # The daily lists (inbox.digest): each member's at the first run after their chosen hour.
    "send-digests": {"task": "inbox.tasks.send_digests", "schedule": HADAL_DIGEST_EVERY},
    # Webhook messages whose task was lost, or whose next try is due (league.webhooks).
    "sweep-webhooks": {"task": "league.tasks.sweep_webhooks", "schedule": 30.0},
}

# -- league webhooks (league.webhooks) -------------------------------------------------------
# Loopback receivers (127.0.0.1, localhost) are refused like any private address; the tests
# run their receivers there and turn this on.
HADAL_WEBHOOKS_ALLOW_LOOPBACK = env_bool("HADAL_WEBHOOKS_ALLOW_LOOPBACK", False)
HADAL_WEBHOOKS_TIMEOUT = float(os.environ.get("HADAL_WEBHOOKS_TIMEOUT", "5"))  # seconds a send

# -- request bodies --------------------------------------------------------------------------
# Refused on their headers, before a byte is read (config.edge, config.http.body_refusal):
# JSON and forms at Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), a file sent from a form
# (a plays import) at this; the proxy in front (config/caddy/Caddyfile) allows no more either.
HADAL_UPLOAD_MAX_BYTES = int(os.environ.get("HADAL_UPLOAD_MAX_BYTES", str(10 * 1024 * 1024)))
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # a larger upload waits in a temporary file

# -- Hadal -------------------------------------------------------------------------------------
# A snapshot of the replayed state every N events keeps reads O(1) in the game's length.
HADAL_SNAPSHOT_EVERY = int(os.environ.get("HADAL_SNAPSHOT_EVERY", "50"))
# A bot seat that has waited this long is re-enqueued by the sweep.
HADAL_BOT_STALL_SECONDS = int(os.environ.get("HADAL_BOT_STALL_SECONDS", "30"))
# With no beat (Celery eager, ``make run``) the web process runs the sweep itself, in a thread
# started by its first request, every this many seconds; 0 turns it off (games.play.sweeper).
HADAL_EAGER_SWEEP_SECONDS = float(os.environ.get("HADAL_EAGER_SWEEP_SECONDS", "1"))
# An invitation (or an open seat) nobody answers within this many hours calls the game off.
HADAL_INVITATION_HOURS = float(os.environ.get("HADAL_INVITATION_HOURS", "72"))
# Days a member may be away from the board each calendar year, their correspondence clocks
# stopped (accounts.vacations); a part day counts as a day.
HADAL_VACATION_DAYS_PER_YEAR = int(os.environ.get("HADAL_VACATION_DAYS_PER_YEAR", "30"))
# How long the searching bots think per move (the Celery task's time limit is 60 s).
HADAL_BOT_BUDGETS = {"mcts": {"seconds": float(os.environ.get("HADAL_MCTS_SECONDS", "1.0"))}}
# Committed heads shared by the app's processes through the cache (games.store.sharing): a
# move lands on any gunicorn worker and finds its game without reading it. On with Redis.
HADAL_SHARED_HEADS = env_bool("HADAL_SHARED_HEADS", bool(CACHE_URL))
HADAL_SHARED_HEADS_SECONDS = int(os.environ.get("HADAL_SHARED_HEADS_SECONDS", "600"))
# The post-game analysis's search iterations per decision (games.bots.analysis.Budget), lower
# where a decision has hundreds of moves to judge (bench/bench_analysis.py times a game).
HADAL_ANALYSIS = {
    "iterations": int(os.environ.get("HADAL_ANALYSIS_ITERATIONS", "60")),
    "luck_samples": 2,
    "per_game": {
        "ventlife": {"iterations": 12, "root": "cheap", "luck_samples": 1, "luck_moves": 8},
        "abyss": {"iterations": 24},
        "deep-vents": {"luck_turns": 8},  # a drawn hex is taken only several takes later
    },
}
# Analyses a member may start (reading one that exists is free): so many being computed at
# once and so many an hour; and how many may wait, service-wide, before the next waits too.
HADAL_ANALYSIS_LIMITS = {
    "at_once": int(os.environ.get("HADAL_ANALYSES_AT_ONCE", "2")),
    "per_hour": int(os.environ.get("HADAL_ANALYSES_PER_HOUR", "10")),
    "waiting": int(os.environ.get("HADAL_ANALYSES_WAITING", "30")),
}
# Elo's K: how far one game moves a rating.
HADAL_ELO_K = float(os.environ.get("HADAL_ELO_K", "32"))

# The event streams (games.live.streams): fanned out through Redis pub/sub between processes when
# set, within the process otherwise (`make run`); a comment line every so many seconds keeps
# proxies from closing a quiet stream.
HADAL_STREAM_REDIS_URL = os.environ.get("HADAL_STREAM_REDIS_URL", REDIS_URL)
HADAL_STREAM_KEEPALIVE = float(os.environ.get("HADAL_STREAM_KEEPALIVE", "15"))
# The threads the streams share for their synchronous moments (config.edge): who asks, and
# the log read on connecting or after a gap. Any number of open streams, this many threads.
HADAL_STREAM_THREADS = int(os.environ.get("HADAL_STREAM_THREADS", "4"))
# Open streams allowed to one member and to one address at once (games.live.leases), and
# how long a stream may stay quiet, or open at all, before the server ends it (EventSource
# reconnects at once where it left off, and asks again who it is).
HADAL_STREAMS_PER_MEMBER = int(os.environ.get("HADAL_STREAMS_PER_MEMBER", "20"))
HADAL_STREAMS_PER_ADDRESS = int(os.environ.get("HADAL_STREAMS_PER_ADDRESS", "300"))
HADAL_STREAM_IDLE_SECONDS = float(os.environ.get("HADAL_STREAM_IDLE_SECONDS", "900"))
HADAL_STREAM_MAX_SECONDS = float(os.environ.get("HADAL_STREAM_MAX_SECONDS", "3600"))
# Turn e-mails (for those who choose them, inbox.models.Choices) only in games without a clock
# shorter than this: a game at the board needs none.
HADAL_TURN_EMAIL_MIN_CLOCK = int(os.environ.get("HADAL_TURN_EMAIL_MIN_CLOCK", "3600"))
# The address links in e-mails start with, the one-click unsubscribe links included.
HADAL_SITE_URL = os.environ.get("HADAL_SITE_URL", "http://127.0.0.1:8000")
# Web Push (inbox.push): the service's VAPID key pair, made by ``manage.py vapid_keys``; with
# no private key nothing is pushed. The subject is how a push service reaches the operator
# (a mailto: or https: address); the site's address when not given.
HADAL_VAPID_PUBLIC_KEY = os.environ.get("HADAL_VAPID_PUBLIC_KEY", "")
HADAL_VAPID_PRIVATE_KEY = os.environ.get("HADAL_VAPID_PRIVATE_KEY", "")
HADAL_VAPID_SUBJECT = os.environ.get("HADAL_VAPID_SUBJECT", "")
# A push endpoint must be https on a host name; a test's own push service listens on plain
# http at 127.0.0.1, which only this lets in (never in production).
HADAL_PUSH_ALLOW_LOOPBACK = env_bool("HADAL_PUSH_ALLOW_LOOPBACK", False)
# Every erasure appends a line (a person's public id and when, never a name) to this file,
# kept apart from the database: a backup restored from before an erasure brings the name
# back, and ``manage.py erase_member --ledger FILE`` erases it again (docs/operations.md).
HADAL_ERASURE_LEDGER = os.environ.get(
    "HADAL_ERASURE_LEDGER", str(BASE_DIR / "var" / "erasures.jsonl")
)

# -- e-mail ----------------------------------------------------------------------------------
# Printed on the console by default (`make run`); production names its SMTP server.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Hadal <hadal@localhost>")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # One line per task is noise in eager mode, where every bot move runs in-process.
    "loggers": {"celery.app.trace": {"level": "INFO" if REDIS_URL else "WARNING"}},
}
