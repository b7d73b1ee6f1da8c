"""The league's one settings module: every value comes from the environment (``league.env``).

With nothing set, the whole league runs on one machine with nothing to install: SQLite in WAL
mode and Celery over kombu's filesystem transport, all data under ``var/`` (git-ignored).
``DATABASE_URL`` (postgres://...) and ``REDIS_URL`` (redis://...) switch to the real services.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url

import viewer
from league.env import (
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_path,
    env_rate,
    env_str,
    env_url,
)
from league.ids import ID_MAX

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = env_path("BOTLEAGUE_DATA", BASE_DIR / "var")
DATA_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one made once and kept in the data folder."""
    key = env_str("SECRET_KEY")
    if key:
        return key
    path = DATA_DIR / "secret_key"
    if not path.exists():
        # The web server's processes start together on a new data folder: the key appears
        # whole or not at all (written aside, then linked into place), and whoever links
        # second reads the first one's.
        draft = DATA_DIR / f"secret_key.{os.getpid()}"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(50))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

CSRF_FAILURE_VIEW = "league.web.views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "league.accounts",
    "league.notifications",
    "league.bots",
    "league.ladders",
    "league.competitions",
    "league.versiontests",
    "league.web",
    "league.demo",
    "league.ops",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "league.api",
]

MIDDLEWARE = [
    "league.bots.uploads.UploadSizeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "league.web.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "league.urls"
WSGI_APPLICATION = "league.wsgi.application"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]

DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
DATABASE_CONN_MAX_AGE = env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
"""Seconds a thread keeps its database connection (0: one a request). Kept, a request saves
opening one: ~5 ms to PostgreSQL, ~2 ms of CPU on SQLite (which reads the schema again)."""
DATABASE_PREPARE_AFTER = env_int("DATABASE_PREPARE_AFTER", 5, minimum=0)
"""PostgreSQL: a statement a connection has run this many times is prepared on the server,
its plan kept (0: prepared statements off, for a PgBouncer older than 1.21 in transaction
mode). Planning was a third of a matchmaking tick's database time: its few statements run
on every fill, and each joined several indexed tables."""
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(
        DATABASE_URL, conn_max_age=DATABASE_CONN_MAX_AGE, conn_health_checks=True)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # the parameters bound on the server, which psycopg needs to prepare a statement
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=DATABASE_PREPARE_AFTER > 0,
            prepare_threshold=DATABASE_PREPARE_AFTER or None)
else:
    DATABASES = {"default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": DATA_DIR / "league.sqlite3",
        "CONN_MAX_AGE": DATABASE_CONN_MAX_AGE,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {
            # Web, worker and beat write at once: WAL lets readers go on while one writes,
            # IMMEDIATE takes the write lock up front (no upgrade deadlock), and the timeout
            # makes a writer wait its turn instead of failing with "database is locked".
            # The WAL file is cut back to 64 MB once checkpointed (a big write, such as
            # the scale generator's, would leave it gigabytes long).
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                            "PRAGMA journal_size_limit=67108864;",
        },
    }}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-bots"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
# The replay viewer's modules sit outside the league (the local runner's --html export reads
# them too): served under static/viewer/.
STATICFILES_DIRS = [("viewer", viewer.STATIC)]
STATIC_ROOT = env_path("STATIC_ROOT", DATA_DIR / "static")
"""collectstatic's target; the image collects into /app/static at build time."""
if not STATIC_ROOT.exists():  # WhiteNoise warns when it is missing
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
WHITENOISE_USE_FINDERS = True  # serve app static files without a collectstatic step

LOG_FORMAT = env_choice("LOG_FORMAT", ("plain", "json"), "plain")
"""``json``: one JSON object per line with the match and attempt as fields (the image's
default, for a log collector); ``plain`` for people at a terminal."""
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "league.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.server": {"level": "WARNING"}},
}

LEAGUE_LOG_MAX_BYTES = env_int("LEAGUE_LOG_MAX_BYTES", 20_000_000, minimum=10_000)
LEAGUE_LOG_KEEP = env_int("LEAGUE_LOG_KEEP", 3, minimum=0)
"""``./dev up``'s process logs (``BOTLEAGUE_DATA/logs/*.log``): a file past the size
becomes ``name.log.1``, and so on, the ``KEEP``-th older one deleted (``logs.RotatingLog``);
the compose deployment's logs are Docker's, rotated by its log driver (docker/compose.yml)."""

# -- E-mail (league.accounts.mail) ----------------------------------------------------------
EMAIL_HOST = env_str("EMAIL_HOST")
"""The SMTP server mail goes through (production). Unset: no mail leaves the machine; each one
is written as a file under ``EMAIL_FILE_PATH`` instead (what ``./dev up`` does)."""
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
"""The SMTP log-in, if the server wants one (``EMAIL_HOST_PASSWORD_FILE`` for a secret)."""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
"""STARTTLS after connecting (port 587); ``false`` for a local relay that has none."""
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20, minimum=1)
"""Seconds an SMTP connection may take before sending fails (never a request held for ever)."""
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "botleague <noreply@localhost>")
"""The sender of every mail the league sends."""
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_FILE_PATH = env_path("EMAIL_FILE_PATH", DATA_DIR / "mail")
"""With no ``EMAIL_HOST``: the folder each mail is written to, one ``.log`` file each
(Django's file backend), to be read as it is."""
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH.mkdir(parents=True, exist_ok=True)
LEAGUE_EMAIL_LINK_HOURS = env_int("LEAGUE_EMAIL_LINK_HOURS", 24, minimum=1)
"""How long a link mailed to confirm an address, or to reset a password, works."""
PASSWORD_RESET_TIMEOUT = LEAGUE_EMAIL_LINK_HOURS * 3600

# -- Notifications (league.notifications, docs/notifications.md) ----------------------------
LEAGUE_SITE_URL = env_str("LEAGUE_SITE_URL", "http://127.0.0.1:8000")
"""The site's address as people reach it: the links in notification mails and webhooks."""
LEAGUE_WEBHOOK_ATTEMPTS = env_int("LEAGUE_WEBHOOK_ATTEMPTS", 5, minimum=1)
"""Tries of one webhook delivery before it is logged as failed (mails: ``..._EMAIL_...``)."""
LEAGUE_EMAIL_ATTEMPTS = env_int("LEAGUE_EMAIL_ATTEMPTS", 3, minimum=1)
LEAGUE_WEBHOOK_BACKOFF_SECONDS = env_float("LEAGUE_WEBHOOK_BACKOFF_SECONDS", 30.0, minimum=0)
"""A failed try is retried after this, doubled at each further try (30 s, 1, 2, 4 min)."""
LEAGUE_WEBHOOK_TIMEOUT = env_float("LEAGUE_WEBHOOK_TIMEOUT", 5.0, minimum=0.1)
"""Seconds a webhook's connection, and each read of its answer, may take."""
LEAGUE_NOTIFY_SWEEP_SECONDS = env_float("LEAGUE_NOTIFY_SWEEP_SECONDS", 30.0, minimum=0.1)
"""How often the beat's sweep looks for notices whose delivery was lost (``sweep``)."""
LEAGUE_NOTIFY_GRACE_SECONDS = env_float("LEAGUE_NOTIFY_GRACE_SECONDS", 60.0, minimum=0)
"""A pending notice this long past its due has lost its task (the broker refused it, a
worker dropped it): the sweep sends it again."""
LEAGUE_NOTIFY_LEASE_SECONDS = env_float("LEAGUE_NOTIFY_LEASE_SECONDS", 300.0, minimum=1)
"""A notice in a task's hands this long (far beyond any mail server's or webhook's time
limits) lost its worker mid-delivery: the sweep counts the try as cut off and tries again."""
LEAGUE_WEBHOOK_ALLOWED_ADDRESSES = env_list("LEAGUE_WEBHOOK_ALLOWED_ADDRESSES", [])
"""Networks (``127.0.0.1/32,10.1.0.0/16``) a webhook may reach although they are not public:
a private deployment's receivers, or the tests' receiver on 127.0.0.1. Empty: loopback,
private, link-local, multicast and reserved addresses are all refused (``targets``)."""
LEAGUE_CRASH_STREAK_DISABLE = env_int("LEAGUE_CRASH_STREAK_DISABLE", 5, minimum=0)
"""A bot whose games end in a crash forfeit this many times in a row is disabled and its
owner told (0: never); validation matches do not count (a rejected version says so)."""

# -- Celery ----------------------------------------------------------------------------------
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
BROKER_DIR = DATA_DIR / "broker"
LEAGUE_VISIBILITY_TIMEOUT = env_float("LEAGUE_VISIBILITY_TIMEOUT", 6 * 3600.0, minimum=60)
"""Seconds Redis waits before handing an unacknowledged message to another worker. Longer
than the longest match (a Blokus Duo game at its limits is ~15 min), or a match still
playing would be delivered again; its claim would make that harmless, but wasteful."""
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": LEAGUE_VISIBILITY_TIMEOUT}
else:
    for _folder in ("queue", "processed", "control"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://localhost/"  # the host is unused; kombu wants one
    CELERY_BROKER_TRANSPORT = "league.broker:Transport"  # its messages appear whole
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # kombu sleeps this long whenever it cannot take a message, and with one message
        # prefetched that is after every match: its 1 s default cost each match up to 1 s
        # (the embedded league ran at half the rate of the same matches played directly);
        # 50 ms still added ~25 ms to a 180 ms match, 20 ms ~20 ms to a 105 ms one, 5 ms
        # ~8 ms (benchmarks.league_overhead --embedded). Idle, a directory listing 200 times
        # a second costs a worker ~2 % of a core; the demo keeps it busy anyway.
        "polling_interval": 0.005,
    }
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
# At-least-once delivery; the match row's claim turns it into exactly-once.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A broker that restarts must not stop the matches playing: they write to the database, the
# truth, and the reaper re-sends what the broker forgot. Retry the broker for ever.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Celery's Django fixup closes every database connection before and after each task unless
# told to keep them for this many tasks: a new PostgreSQL connection is ~5 ms, 6 % of a short
# match. Workers keep them instead under Django's own rules (CONN_MAX_AGE, health checks),
# applied around every task by league.celery, as the web server does around every request.
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")

# -- The league ------------------------------------------------------------------------------
LEAGUE_MATCHMAKING_SECONDS = env_float("LEAGUE_MATCHMAKING_SECONDS", 5.0, minimum=0.1)
LEAGUE_REAPER_SECONDS = env_float("LEAGUE_REAPER_SECONDS", 15.0, minimum=0.1)
LEAGUE_DATABASE_SECONDS = env_float("LEAGUE_DATABASE_SECONDS", 600.0, minimum=1)
"""How often the embedded default's SQLite statistics are checked, and renewed for a table
that has grown or shrunk by half since (``ops.database``; nothing on PostgreSQL)."""
LEAGUE_HEARTBEAT_SECONDS = env_float("LEAGUE_HEARTBEAT_SECONDS", 5.0, minimum=0.1)
LEAGUE_LIVE_SECONDS = env_float("LEAGUE_LIVE_SECONDS", 0.25, minimum=0.01)
"""How often a worker publishes a running match's new moves (its page polls for them)."""
LEAGUE_STALE_AFTER = env_float("LEAGUE_STALE_AFTER", 60.0, minimum=0.5)
"""A running match whose heartbeat is older than this is taken for lost and re-queued."""
LEAGUE_RESEND_AFTER = env_float("LEAGUE_RESEND_AFTER", 120.0, minimum=0.5)
"""A queued match not claimed this long after its message was sent gets a new message."""
LEAGUE_MAX_ATTEMPTS = env_int("LEAGUE_MAX_ATTEMPTS", 3, minimum=1)
LEAGUE_WORKER_SLOTS = env_int("LEAGUE_WORKER_SLOTS", os.cpu_count() or 1, minimum=1)
"""Matches the workers can run at once; matchmaking keeps each ladder's queue near it."""
LEAGUE_BACKGROUND_WRITE = env_bool("LEAGUE_BACKGROUND_WRITE", True)
"""Workers write a match's result from a thread and take the next match at once."""
LEAGUE_VERSION_CACHE = env_path("LEAGUE_VERSION_CACHE", DATA_DIR / "versions")
LEAGUE_SANDBOX_BACKEND = env_choice("LEAGUE_SANDBOX_BACKEND", ("", "process", "docker"), "")
"""Unset: each ladder's own backend. A containerised worker sets ``docker`` (bots in
containers of the host's engine; docs/deploy.md), as bubblewrap cannot run in its container."""
LEAGUE_WORKER_NICE = env_int("LEAGUE_WORKER_NICE", 10, minimum=0)
"""``./dev up``'s match worker (and so its bots) runs at this niceness: on a machine whose
cores the matches keep busy, pages and the ticks still get a core when they need one (at 0 a
page waited behind the bots for three times its CPU time). A bot's clock is the wall's, so
a page served costs the bot on move a few milliseconds at most."""
LEAGUE_WORKER_MAX_TASKS = env_int("LEAGUE_WORKER_MAX_TASKS", 1000, minimum=0)
"""Tasks (matches, ticks) a worker's pool process runs before a fresh one replaces it, so
whatever a long run leaks (memory, file handles) is given back (0: never). A process that
goes first writes the results it holds (``ladders.tasks``)."""
CELERY_WORKER_MAX_TASKS_PER_CHILD = LEAGUE_WORKER_MAX_TASKS or None
LEAGUE_WORKER_BEAT_SECONDS = env_float("LEAGUE_WORKER_BEAT_SECONDS", 10.0, minimum=0.5)
"""How often a worker says it is alive (the status page's "workers alive")."""

LEAGUE_KEEP_BUSY = env_bool("LEAGUE_KEEP_BUSY", True)
"""Refill a ladder's queue as soon as one of its matches has been written, not only on the
beat, so a ladder with pairings to play never leaves a worker slot idle."""
LEAGUE_MATCHES_PER_MINUTE = env_int("LEAGUE_MATCHES_PER_MINUTE", 0, minimum=0)
"""At most this many ladder matches made a minute, the league over (0: as many as the
workers play; matchmaking refills a ladder whenever one of its matches ends)."""
LEAGUE_PROVISIONAL_SIGMA = env_float("LEAGUE_PROVISIONAL_SIGMA", 25 / 12, minimum=0.0)
"""A rated version whose sigma is above this is shown as provisional (``ladders.ratings``'
``PROVISIONAL_SIGMA``, openskill's beta / 2, is the default: its mu +- 2 sigma is then no
wider than +- one beta, the skill gap that wins three games in four)."""
LEAGUE_TOURNAMENT_MAX_FIELD = env_int("LEAGUE_TOURNAMENT_MAX_FIELD", 64, minimum=2)
"""Entries a tournament made by a player may take (staff: ``..._STAFF``)."""
LEAGUE_TOURNAMENT_MAX_FIELD_STAFF = env_int("LEAGUE_TOURNAMENT_MAX_FIELD_STAFF", 1024,
                                            minimum=2)
LEAGUE_RECURRING_PER_USER = env_int("LEAGUE_RECURRING_PER_USER", 2, minimum=0)
"""Tournaments that come back a player may keep going at once (staff: any number)."""
LEAGUE_RECURRING_MIN_EVERY = env_int("LEAGUE_RECURRING_MIN_EVERY", 24 * 3600, minimum=60)
"""Seconds between a player's recurring tournament's editions, at least (staff: 10
minutes, the demo's Swiss 15)."""
LEAGUE_COMPETITION_OPEN = env_int("LEAGUE_COMPETITION_OPEN", 0, minimum=0)
"""Open tournament and challenge matches at once (0: twice the worker slots, as many as the
ladders' queues hold together, so each side gets about half the workers when both have
work; ``competitions.progress``)."""

LEAGUE_VERSION_TESTS_AT_ONCE = env_int("LEAGUE_VERSION_TESTS_AT_ONCE", 2, minimum=1)
"""Version tests a user may have running at once (how many they may start an hour is the
``versiontest`` rate)."""
LEAGUE_VERSION_TEST_OPEN_PAIRS = env_int("LEAGUE_VERSION_TEST_OPEN_PAIRS", 2, minimum=1)
"""Pairs of games a version test keeps queued or playing: its share of the workers, so
tests and the ladders keep theirs; the test stops within this many pairs of its verdict."""
LEAGUE_VERSION_TEST_MAX_GAMES = env_int("LEAGUE_VERSION_TEST_MAX_GAMES", 2000, minimum=2)
"""The cap on a version test's games: it ends undecided there."""

# -- Playing against bots in the browser (league.ladders.play, docs/play.md) -----------------
LEAGUE_PLAY_SLOTS = env_int("LEAGUE_PLAY_SLOTS", 4, minimum=1)
"""Games against people at once, the league over (the boards): the play workers' processes
together (``./dev up`` starts one play worker of this many; compose's ``play`` service takes
it too). A game started while every board is taken waits in the queue for one."""
LEAGUE_PLAY_QUEUE_LENGTH = env_int("LEAGUE_PLAY_QUEUE_LENGTH", 8, minimum=0)
"""Games that may wait for a board while all are taken; a new game is refused beyond it
("all N boards ... are taken")."""
LEAGUE_PLAY_GAMES_PER_USER = env_int("LEAGUE_PLAY_GAMES_PER_USER", 2, minimum=1)
"""Games one person may have queued or playing at once; one only, until they have played a
game to its end (a new account cannot take two boards at once)."""
LEAGUE_PLAY_FIRST_MOVE_SECONDS = env_float("LEAGUE_PLAY_FIRST_MOVE_SECONDS", 30.0,
                                           minimum=0.5)
"""A person's time for their first move of a game (instead of the move time, when shorter):
a board taken by someone who is not there is free again this soon (a ``timeout`` forfeit)."""
LEAGUE_PLAY_MOVE_SECONDS = env_float("LEAGUE_PLAY_MOVE_SECONDS", 300.0, minimum=0.5)
"""A person's time for each move; running out is a ``timeout`` forfeit (a closed tab ends so)."""
LEAGUE_PLAY_GAME_SECONDS = env_float("LEAGUE_PLAY_GAME_SECONDS", 1800.0, minimum=0.5)
"""A person's time for the whole game."""
LEAGUE_PLAY_POLL_SECONDS = env_float("LEAGUE_PLAY_POLL_SECONDS", 0.02, minimum=0.001)
"""How often the web server reads its parked pages' games (one statement for all of them,
``league/waiting.py``) when nothing tells it they moved: on the embedded default (no Redis), or
a page waiting in a thread where it cannot be parked. The play worker never polls: it blocks on
a doorbell, ``league.ladders.play.inbox``."""
LEAGUE_PLAY_LONG_POLL_SECONDS = env_float("LEAGUE_PLAY_LONG_POLL_SECONDS", 20.0, minimum=0.0)
"""The longest a state request waits for the game to move before answering as it is."""

# -- The web server (league/asgi.py) -----------------------------------------------------------
LEAGUE_WEB_THREADS = env_int("LEAGUE_WEB_THREADS", 4, minimum=1)
"""Threads a web server process runs the site's views on. A request that waits for a game to
move holds none of them while it waits (``league.parking``)."""
LEAGUE_WEB_HEAVY_THREADS = env_int("LEAGUE_WEB_HEAVY_THREADS", 1, minimum=1)
"""Threads a web server process runs a match's heavy reads on (frames, record, viewer header,
``replay.html``), beside the pages' and at a lower priority; more heavy reads wait their turn
without a thread."""
LEAGUE_WEB_HEAVY_SHARE = min(env_float("LEAGUE_WEB_HEAVY_SHARE", 0.2, minimum=0.01), 1.0)
"""While a page is being answered, the share of a web server process's time that heavy reads
may take (the rest is the pages'); with no page going on they take all of it. A process's
threads share one interpreter lock, so a nice value alone does not keep a busy heavy thread
from slowing the pages' (``league/asgi.py``)."""
LEAGUE_WAITS_PER_USER = env_int("LEAGUE_WAITS_PER_USER", 6, minimum=1)
"""Requests one person may have waiting at once (the play page holds one per game); one more is
refused with 429. Counted in Redis across the web processes, else in each process."""
LEAGUE_WAIT_RECHECK_SECONDS = env_float("LEAGUE_WAIT_RECHECK_SECONDS", 1.0, minimum=0.01)
"""With Redis, the web server is told when a game moves (``league.ladders.news``) and reads its
parked pages' games only this often, in case a message was lost."""

LEAGUE_MATCH_QUEUE = "celery"
LEAGUE_TICK_QUEUE = "ticks"
"""Matches go to the match queue (Celery's default); the beat's ticks, and the bell a
competition's ended match rings, to a queue of their own with a worker process of its own
(``./dev up`` and compose start one), so no match ever waits behind a tick and a slow tick
never takes a match worker's slot."""
LEAGUE_PLAY_QUEUE = "play"
"""Exhibitions (a person at the board) go to a queue of their own, played by play workers
(``LEAGUE_PLAY_SLOTS`` processes): a person's game holds its process up to the person's game
time, and must never hold a ladder's slot."""
LEAGUE_NOTIFY_QUEUE = "notify"
"""Mails and webhooks of notifications, on a queue and a worker process of their own: a slow
mail server or receiver never holds a match's slot or a tick."""
CELERY_TASK_DEFAULT_QUEUE = LEAGUE_MATCH_QUEUE
CELERY_TASK_ROUTES = {name: {"queue": LEAGUE_TICK_QUEUE} for name in (
    "league.ladders.tasks.matchmaking_tick", "league.ladders.tasks.reaper_tick",
    "league.competitions.tasks.competitions_tick",
    "league.competitions.tasks.match_ended_task", "league.ops.tasks.database_tick",
    "league.versiontests.tasks.match_ended_task", "league.versiontests.tasks.versiontests_tick",
    "league.versiontests.tasks.version_validated_task")}
CELERY_TASK_ROUTES.update({name: {"queue": LEAGUE_NOTIFY_QUEUE} for name in (
    "league.notifications.tasks.email_task", "league.notifications.tasks.webhook_task",
    "league.notifications.tasks.sweep_task")})

CELERY_BEAT_SCHEDULE = {
    "matchmaking": {"task": "league.ladders.tasks.matchmaking_tick",
                    "schedule": LEAGUE_MATCHMAKING_SECONDS},
    "competitions": {"task": "league.competitions.tasks.competitions_tick",
                     "schedule": LEAGUE_MATCHMAKING_SECONDS},
    "reaper": {"task": "league.ladders.tasks.reaper_tick", "schedule": LEAGUE_REAPER_SECONDS},
    # a version test's games that end without their bell (failed by the reaper, cancelled
    # with a disabled bot) or whose bell was lost: the tick counts them and moves it on
    "versiontests": {"task": "league.versiontests.tasks.versiontests_tick",
                     "schedule": LEAGUE_MATCHMAKING_SECONDS},
    "database": {"task": "league.ops.tasks.database_tick", "schedule": LEAGUE_DATABASE_SECONDS},
    # notices whose task was lost or whose worker died mid-delivery (``notifications.sweep``)
    "notifications": {"task": "league.notifications.tasks.sweep_task",
                      "schedule": LEAGUE_NOTIFY_SWEEP_SECONDS},
}

# -- Uploads and the REST API ----------------------------------------------------------------
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
"""Uploaded files above this go to a temporary file while the request is read."""
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
"""Non-file request bodies (JSON, form fields) above this are refused."""

CACHE_URL = env_url("CACHE_URL", ("redis", "rediss"))
"""Where rate limits are counted (``league.rate_limits``) and finished matches' replays are
kept (``league.ladders.replay_cache``): this Redis, else ``REDIS_URL``'s, else files in the
data folder that the processes of one machine share."""

LEAGUE_REPLAY_CACHE = env_bool("LEAGUE_REPLAY_CACHE", True)
"""Serve a finished match's frames, viewer header, record and ``replay.html`` as the immutable
data they are: an ETag (and 304 Not Modified), ``Cache-Control: public, immutable``, and the
derived bytes kept in the ``replays`` cache. ``false`` derives every answer again (as before
issue 35; the benchmark's "before")."""
LEAGUE_REPLAY_MAX_AGE = env_int("LEAGUE_REPLAY_MAX_AGE", 3600, minimum=0)
"""Seconds a browser or proxy keeps a finished match's answer without asking again. Short,
as a deploy that changes frames names them anew (their ETag) but cannot reach a copy kept
fresh; asking again costs a 304."""
LEAGUE_REPLAY_CACHE_ENTRIES = env_int("LEAGUE_REPLAY_CACHE_ENTRIES", 1000, minimum=10)
"""Embedded default: answers the ``replays`` cache keeps in ``BOTLEAGUE_DATA/replay-cache``
(a third of them dropped when full; at most ``LEAGUE_REPLAY_CACHE_ENTRY_BYTES`` each)."""
LEAGUE_REPLAY_CACHE_ENTRY_BYTES = env_int("LEAGUE_REPLAY_CACHE_ENTRY_BYTES", 8_000_000,
                                          minimum=0)
"""The largest answer kept, compressed; a bigger one is derived on every read."""
LEAGUE_REPLAY_CACHE_SECONDS = env_int("LEAGUE_REPLAY_CACHE_SECONDS", 24 * 3600, minimum=60)
"""How long a kept answer lives: in Redis, what bounds the cache's size."""
_REPLAY_CACHE_URL = CACHE_URL or REDIS_URL
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "replays": ({"BACKEND": "django.core.cache.backends.redis.RedisCache",
                 "LOCATION": _REPLAY_CACHE_URL, "KEY_PREFIX": "botleague-replays",
                 "TIMEOUT": LEAGUE_REPLAY_CACHE_SECONDS} if _REPLAY_CACHE_URL else
                {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                 "LOCATION": DATA_DIR / "replay-cache",
                 "TIMEOUT": LEAGUE_REPLAY_CACHE_SECONDS,
                 "OPTIONS": {"MAX_ENTRIES": LEAGUE_REPLAY_CACHE_ENTRIES, "CULL_FREQUENCY": 3}}),
}
"""``default`` is each process's own (Django's default, as before); ``replays`` is shared by
the web server's processes (``league.ladders.replay_cache``). It has an alias of its own so
that clearing the default never empties a Redis that holds the Celery broker's queues."""

RATE_LIMITS = {
    "anon": env_rate("API_THROTTLE_ANON", "120/min"),
    "user": env_rate("API_THROTTLE_USER", "600/min"),
    "viewer": env_rate("API_THROTTLE_VIEWER", "1200/min"),
    "upload": env_rate("LEAGUE_UPLOADS_PER_USER", "60/hour"),
    "signup": env_rate("LEAGUE_SIGNUPS_PER_ADDRESS", "10/hour"),
    "token": env_rate("LEAGUE_TOKENS_PER_USER", "10/hour"),
    "login": env_rate("LEAGUE_LOGIN_FAILURES", "5/15min"),
    "reset": env_rate("LEAGUE_PASSWORD_RESETS_PER_ADDRESS", "10/hour"),
    "mail": env_rate("LEAGUE_MAILS_PER_RECIPIENT", "5/hour"),
    "email": env_rate("LEAGUE_EMAIL_CHANGES_PER_USER", "5/hour"),
    "password": env_rate("LEAGUE_PASSWORD_CHANGES_PER_USER", "10/hour"),
    "tournament": env_rate("LEAGUE_TOURNAMENTS_PER_USER", "3/day"),
    "challenge": env_rate("LEAGUE_CHALLENGE_GAMES_PER_USER", "60/hour"),
    "versiontest": env_rate("LEAGUE_VERSION_TESTS_PER_USER", "10/hour"),
    "play": env_rate("LEAGUE_PLAY_GAMES_RATE", "30/hour"),
    "play-api": env_rate("API_THROTTLE_PLAY", "1200/min"),
    "heavy": env_rate("LEAGUE_HEAVY_READS", "600/min"),
    "notify": env_rate("LEAGUE_NOTIFICATION_CHANGES_PER_USER", "30/hour"),
}
"""Counts per period (``league.rate_limits``): API requests (``anon`` by address, ``user`` by
user, ``viewer`` for the replay viewer's header and frames instead of the others); uploads per
user, through pages and API alike; sign-ups per address; API tokens made per user; failed
log-ins per name and address; password resets asked for per client address (``reset``), mails
of a link (a reset, an address to confirm) per recipient address (``mail``: the league cannot
be made to flood an inbox), e-mail changes and confirmations sent again per account
(``email``), password changes tried per account, right or wrong (``password``); tournaments
made per user (staff: no limit); challenge games asked for per user; games against bots started
per user (``play``), and the play page's reads and moves per user (``play-api``, instead of
``user``); an anonymous address's frame ranges and ``replay.html`` files (``heavy``: a kept one
counts 1, one the engine works out 10, so 60 a minute; ``league.ladders.replay_cache``);
changes of a user's notification settings and webhook (``notify``: saving a webhook resolves
its host)."""
LEAGUE_MAX_VALIDATING = env_int("LEAGUE_MAX_VALIDATING", 3, minimum=1)
"""Versions of one user that may wait for validation at once; one more upload is refused."""

NUM_PROXIES = env_int("API_NUM_PROXIES", 0, minimum=0)
"""Proxies in front of the site; a client's address (its rates) is read through this many."""

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "league.api.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": [
        "league.api.throttling.AnonThrottle",
        "league.api.throttling.TokenThrottle",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's three, JSON's with its nesting capped first (league.nesting)
    "DEFAULT_PARSER_CLASSES": ["league.api.parsers.NestingCappedJSONParser",
                               "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_PAGINATION_CLASS": "league.api.pagination.Pages",
    # Proxies in front of the site that append to X-Forwarded-For; 0 trusts only the peer's
    # address, so an anonymous caller cannot dodge its rate with a made-up header.
    "NUM_PROXIES": NUM_PROXIES,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "league.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "botleague API",
    "DESCRIPTION": "Games, ladders, rankings, bots, versions, matches and replays; "
                   "tournaments and challenges. "
                   "Anyone may read (every bot is public); send `Authorization: Bearer "
                   "<token>` to upload, to make and enter tournaments and challenges, and to "
                   "read your own bots' logs and unshared source.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Swagger UI would otherwise show a badge fetched from validator.swagger.io.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "league.api.schema.error_responses",
                             "league.api.schema.public_reads"],
    # <id:…> in an address (league.ids): an integer the schema bounds as the converter does
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "format": "int64", "minimum": 1,
                                        "maximum": ID_MAX}},
    "ENUM_NAME_OVERRIDES": {
        "VersionStatusEnum": "league.bots.models.VersionStatus",
        "MatchStatusEnum": "league.ladders.models.MatchStatus",
        "MatchKindEnum": "league.ladders.models.MatchKind",
        "LadderKindEnum": "league.ladders.models.LadderKind",
        "TournamentStateEnum": "league.competitions.models.TournamentState",
        "ChallengeStateEnum": "league.competitions.models.ChallengeState",
        "NotificationStateEnum": "league.notifications.models.State",
        "EventKindEnum": "league.notifications.models.EventKind",
    },
}
