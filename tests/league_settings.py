"""Settings for the test suite: the league's own, pointed at real PostgreSQL and Redis.

The defaults below are the services a developer's machine and CI run locally; set
DATABASE_URL or REDIS_URL to use others. Timings are shortened so that lost workers and
messages are noticed within seconds.
"""

import os
import tempfile

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/botleague")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("BOTLEAGUE_DATA", os.path.join(tempfile.gettempdir(), "botleague-test"))
os.environ.setdefault("LEAGUE_HEARTBEAT_SECONDS", "0.5")
os.environ.setdefault("LEAGUE_STALE_AFTER", "4")
os.environ.setdefault("LEAGUE_RESEND_AFTER", "2")
# Tests upload, sign up and make tokens by the dozen; the tests of the limits set their own.
os.environ.setdefault("LEAGUE_UPLOADS_PER_USER", "100000/hour")
os.environ.setdefault("LEAGUE_MAX_VALIDATING", "1000")
os.environ.setdefault("LEAGUE_SIGNUPS_PER_ADDRESS", "100000/hour")
os.environ.setdefault("LEAGUE_TOKENS_PER_USER", "100000/hour")
# Tests count the matches they make: no ladder refills itself unless a test asks for it.
os.environ.setdefault("LEAGUE_KEEP_BUSY", "false")

from league.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast test users
