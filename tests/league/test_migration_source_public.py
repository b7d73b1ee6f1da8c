"""The migration to "private means the code" (bots 0003): every bot's old ``public`` flag,
true or false, becomes "others may not download the source" (``source_public`` off): a bot
that was public never had its source downloadable, and a private one must not start to."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("bots", "0002_accepts_challenges")]
AFTER = [("bots", "0003_source_public")]


def test_both_values_of_public_become_source_not_downloadable(transactional_db: None) -> None:
    owner = User.objects.create_user("legacy")
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps.get_model("bots", "Bot")
        old.objects.create(owner_id=owner.pk, game="stones", name="was-public", public=True)
        old.objects.create(owner_id=owner.pk, game="stones", name="was-private", public=False)
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    new = executor.loader.project_state(AFTER).apps.get_model("bots", "Bot")
    assert dict(new.objects.values_list("name", "source_public")) == {
        "was-public": False, "was-private": False}
