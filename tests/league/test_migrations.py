"""The squashed migrations (bots 0001-0003 and ladders 0001-0010, one file each): a database
migrated by the old chain, whose ``django_migrations`` lists only the old names, carries on with
nothing to do; one that lacks any of them is not taken for migrated; a fresh migrate installs
the default ladders, and the migrations describe the models as they are."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

from league.ladders.defaults import DEFAULT_LADDERS
from league.ladders.models import Ladder, Match
from league.ops.checks import squashed_chains_whole

# What a database migrated by the league before the squash has recorded, spelled out here (not
# read from ``replaces``) so that a name left out of ``replaces`` is noticed.
OLD = [("bots", "0001_initial"), ("bots", "0002_accepts_challenges"),
       ("bots", "0003_source_public"),
       ("ladders", "0001_initial"), ("ladders", "0002_default_ladders"),
       ("ladders", "0003_live_moves"), ("ladders", "0004_page_indexes"),
       ("ladders", "0005_outcome_and_forfeit_choices"), ("ladders", "0006_match_options_limits"),
       ("ladders", "0007_matchmaking_counters"), ("ladders", "0008_matchmaking_boards"),
       ("ladders", "0009_embedded_open_matches"), ("ladders", "0010_exhibitions")]
SQUASHED = {"bots": ("bots", "0001_squashed_0003_source_public"),
            "ladders": ("ladders", "0001_squashed_0010_exhibitions")}


def recorded_only(names: list[tuple[str, str]]) -> MigrationExecutor:
    """The squashed migrations' rows of ``django_migrations`` replaced by ``names`` (inside the
    test's transaction, rolled back after it); an executor that reads them afresh."""
    recorder = MigrationRecorder(connection)
    for app, name in [*SQUASHED.values(), *OLD]:  # those after a squash stay recorded
        recorder.migration_qs.filter(app=app, name=name).delete()
    for app, name in names:
        recorder.record_applied(app, name)
    return MigrationExecutor(connection)


def test_a_database_migrated_by_the_old_chain_has_nothing_to_do(db: None) -> None:
    executor = recorded_only(OLD)
    assert set(SQUASHED.values()) <= set(executor.loader.applied_migrations)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []


@pytest.mark.parametrize("missing", OLD, ids=lambda key: f"{key[0]}.{key[1]}")
def test_a_database_without_one_old_migration_is_not_taken_for_migrated(
        db: None, missing: tuple[str, str]) -> None:
    executor = recorded_only([key for key in OLD if key != missing])
    assert SQUASHED[missing[0]] not in executor.loader.applied_migrations


def test_a_fresh_migrate_installs_the_default_ladders(transactional_db: None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("ladders", None)])  # the ladders' tables gone (and the competitions')
    try:
        executor = MigrationExecutor(connection)
        assert executor.migration_plan([SQUASHED["ladders"]])
        executor.migrate([SQUASHED["ladders"]])
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert sorted(Ladder.objects.values_list("slug", flat=True)) == sorted(
        spec["slug"] for spec in DEFAULT_LADDERS)


def test_the_migrations_describe_the_models(db: None) -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_a_database_part_way_along_the_old_chain_is_stopped_with_what_to_do(db: None) -> None:
    """``migrate --plan`` and ``--check`` would have seen nothing to do; the check stops them."""
    recorded_only(OLD)
    assert squashed_chains_whole(databases=["default"]) == []
    recorded_only(OLD[:-1])  # ladders 0010 never applied
    [error] = squashed_chains_whole(databases=["default"])
    assert error.id == "ops.E001"
    assert "9 of the 10 migrations that ladders.0001_squashed_0010_exhibitions" in error.msg
    assert "ladders.0009_embedded_open_matches" in error.msg
    with pytest.raises(SystemCheckError, match=r"ops\.E001"):  # as manage.py runs it
        call_command("migrate", "--check", verbosity=0, skip_checks=False)


def test_the_stones_ladder_moves_to_its_board_with_holes_and_its_played_matches_keep_theirs(
        transactional_db: None) -> None:
    """Migration 0015 (issue 34): an installed Stones ladder still on the old default 5 x 5 is
    given the new options; every match of it already started keeps the board it was played
    on (a match without options of its own reads its ladder's, for its replay and live view),
    while a queued one plays on the new board. Back again, the ladder returns to 5 x 5."""
    before = ("ladders", "0014_versiontest_kind")
    after = ("ladders", "0015_stones_board_with_holes")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        apps = executor.loader.project_state([before]).apps
        ladder_model, match_model = apps.get_model("ladders", "Ladder"), apps.get_model(
            "ladders", "Match")
        # a transactional test may have flushed the installed ladders: the old one, as it was
        stones, _ = ladder_model.objects.update_or_create(
            game="stones", defaults={"slug": "stones", "title": "Stones", "kind": "rated",
                                     "options": {"size": 5}})
        made = {status: match_model.objects.create(ladder=stones, seed=1, status=status).pk
                for status in ("finished", "running", "queued")}
        own = match_model.objects.create(ladder=stones, seed=2, status="finished",
                                         options={"size": 7}).pk
        executor = MigrationExecutor(connection)
        executor.migrate([after])
        stones_options = Ladder.objects.get(game="stones").options
        spec = next(s for s in DEFAULT_LADDERS if s["game"] == "stones")
        assert stones_options == spec["options"] != {"size": 5}
        options = dict(Match.objects.filter(pk__in=[*made.values(), own])
                       .values_list("pk", "options"))
        assert options == {made["finished"]: {"size": 5}, made["running"]: {"size": 5},
                           made["queued"]: None, own: {"size": 7}}
        executor = MigrationExecutor(connection)
        executor.migrate([before])
        assert Ladder.objects.get(game="stones").options == {"size": 5}
    finally:
        Match.objects.all().delete()
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
