"""Settings read from ``NAME_FILE`` when ``NAME`` is unset (league/env.py): how the swarm stack
hands its secrets to the league (docker/stack.yml)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from league.env import env_int, env_str, env_url

ROOT = Path(__file__).resolve().parents[2]


def test_a_setting_comes_from_the_file_its_name_file_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "url").write_text("redis://:pw@redis:6379/0\n")  # a trailing newline, stripped
    (tmp_path / "slots").write_text("12")
    monkeypatch.delenv("BL_TEST_URL", raising=False)
    monkeypatch.delenv("BL_TEST_SLOTS", raising=False)
    monkeypatch.setenv("BL_TEST_URL_FILE", str(tmp_path / "url"))
    monkeypatch.setenv("BL_TEST_SLOTS_FILE", str(tmp_path / "slots"))
    assert env_url("BL_TEST_URL", ("redis",)) == "redis://:pw@redis:6379/0"
    assert env_int("BL_TEST_SLOTS", 1) == 12


def test_the_variable_itself_wins_over_its_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "key").write_text("from-the-file")
    monkeypatch.setenv("BL_TEST_KEY", "from-the-environment")
    monkeypatch.setenv("BL_TEST_KEY_FILE", str(tmp_path / "key"))
    assert env_str("BL_TEST_KEY") == "from-the-environment"


def test_an_unreadable_file_stops_the_process_instead_of_falling_back_to_the_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BL_TEST_DB", raising=False)
    monkeypatch.setenv("BL_TEST_DB_FILE", str(tmp_path / "missing"))
    with pytest.raises(ImproperlyConfigured, match=r"BL_TEST_DB_FILE=.*missing.*cannot read"):
        env_str("BL_TEST_DB", "sqlite-would-be-wrong")


def test_an_empty_name_file_is_as_good_as_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BL_TEST_X", raising=False)
    monkeypatch.setenv("BL_TEST_X_FILE", "")
    assert env_str("BL_TEST_X", "default") == "default"


def test_the_league_settings_take_their_secrets_from_files(tmp_path: Path) -> None:
    """The settings module itself, in a fresh interpreter as a container would start it."""
    files = {"DATABASE_URL": "postgres://postgres:s3cret@db:5432/botleague",
             "REDIS_URL": "redis://:pw@redis:6379/0", "SECRET_KEY": "k" * 50}
    env = {k: v for k, v in os.environ.items()
           if k not in files and not k.startswith(("DJANGO_", "CACHE_URL"))}
    for name, value in files.items():
        (tmp_path / name.lower()).write_text(value + "\n")
        env[f"{name}_FILE"] = str(tmp_path / name.lower())
    env.update(DJANGO_SETTINGS_MODULE="league.settings", BOTLEAGUE_DATA=str(tmp_path / "data"))
    code = ("from django.conf import settings as s; import json; d = s.DATABASES['default']; "
            "print(json.dumps([d['HOST'], d['PASSWORD'], s.CELERY_BROKER_URL, s.SECRET_KEY]))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=60).stdout
    assert json.loads(out.splitlines()[-1]) == ["db", "s3cret", "redis://:pw@redis:6379/0",
                                                "k" * 50]


def _mail_settings(tmp_path: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "EMAIL_", "DEFAULT_FROM_EMAIL"))}
    env.update(DJANGO_SETTINGS_MODULE="league.settings", BOTLEAGUE_DATA=str(tmp_path / "data"),
               **extra)
    code = ("from django.conf import settings as s; import json; print(json.dumps({k: str("
            "getattr(s, k)) for k in ('EMAIL_BACKEND', 'EMAIL_HOST', 'EMAIL_PORT', "
            "'EMAIL_HOST_USER', 'EMAIL_HOST_PASSWORD', 'EMAIL_USE_TLS', 'DEFAULT_FROM_EMAIL', "
            "'EMAIL_FILE_PATH')}))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=60).stdout
    return json.loads(out.splitlines()[-1])


def test_mail_goes_by_smtp_with_a_host_and_to_files_in_the_data_folder_without(
        tmp_path: Path) -> None:
    (tmp_path / "smtp_password").write_text("hunter2\n")
    smtp = _mail_settings(tmp_path, EMAIL_HOST="smtp.example", EMAIL_PORT="2525",
                          EMAIL_HOST_USER="league", EMAIL_USE_TLS="false",
                          EMAIL_HOST_PASSWORD_FILE=str(tmp_path / "smtp_password"),
                          DEFAULT_FROM_EMAIL="League <league@example.org>")
    assert smtp == {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                    "EMAIL_HOST": "smtp.example", "EMAIL_PORT": "2525",
                    "EMAIL_HOST_USER": "league", "EMAIL_HOST_PASSWORD": "hunter2",
                    "EMAIL_USE_TLS": "False",
                    "DEFAULT_FROM_EMAIL": "League <league@example.org>",
                    "EMAIL_FILE_PATH": str(tmp_path / "data" / "mail")}
    files = _mail_settings(tmp_path)
    assert files["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert (tmp_path / "data" / "mail").is_dir()
    with pytest.raises(subprocess.CalledProcessError):  # a bad value stops the start
        _mail_settings(tmp_path, EMAIL_HOST="smtp.example", EMAIL_PORT="many")
