"""A compose deployment for the compose tests and the throughput benchmark: its own project
name, env file, host folder and web port; commands run through ``docker-compose``; reads
through a Django shell in the web container (PostgreSQL and Redis are not published on the
host)."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
COMPOSE_FILE = ROOT / "docker" / "compose.yml"
MARK = "@@result@@"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Deployment:
    project: str
    folder: Path
    port: int = field(default_factory=free_port)
    settings: dict[str, str] = field(default_factory=dict)
    # "bwrap": bubblewrap inside the worker's own container (the service "worker");
    # "docker": bots in containers of the host's engine (the service "worker-engine", a
    # profile).
    sandbox: str = "bwrap"

    @property
    def worker(self) -> str:
        return "worker-engine" if self.sandbox == "docker" else "worker"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def env_file(self) -> Path:
        return self.folder / "env"

    def write_env(self) -> None:
        db, broker = secrets.token_hex(12), secrets.token_hex(12)
        values = {
            "POSTGRES_PASSWORD": db, "POSTGRES_DB": "botleague", "REDIS_PASSWORD": broker,
            "DATABASE_URL": f"postgres://postgres:{db}@db:5432/botleague",
            "REDIS_URL": f"redis://:{broker}@redis:6379/0",
            "CACHE_URL": f"redis://:{broker}@redis:6379/1",
            "SECRET_KEY": secrets.token_urlsafe(40), "ALLOWED_HOSTS": "127.0.0.1,localhost",
            **self.settings}
        self.folder.mkdir(parents=True, exist_ok=True)
        self.env_file.write_text("".join(f"{k}={v}\n" for k, v in values.items()))

    def environ(self) -> dict[str, str]:
        return {**os.environ, "BOTLEAGUE_ENV_FILE": str(self.env_file),
                "BOTLEAGUE_HOST_DIR": str(self.folder / "host"),
                "BOTLEAGUE_WEB_PORT": str(self.port)}

    def compose(self, *args: str, check: bool = True, timeout: float = 300,
                input: str | None = None) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            ["docker-compose", "-p", self.project, "-f", str(COMPOSE_FILE),
             *(["--profile", "engine"] if self.sandbox == "docker" else []), *args],
            env=self.environ(), capture_output=True, text=True, timeout=timeout, input=input,
            check=False)
        if check and result.returncode != 0:
            raise AssertionError(f"docker-compose {' '.join(args)} failed "
                                 f"({result.returncode}):\n{result.stdout}\n{result.stderr}")
        return result

    def up(self, workers: int = 1) -> None:
        self.write_env()
        self.compose("up", "-d", *self.scale_args(workers), timeout=600)
        self.wait_healthy()

    def scale_args(self, workers: int) -> list[str]:
        idle = ["--scale", "worker=0"] if self.worker != "worker" else []
        return [*idle, "--scale", f"{self.worker}={workers}"]

    def containers(self, service: str) -> list[str]:
        out = self.compose("ps", "-q", service).stdout.split()
        return [c for c in out if c]

    def wait_healthy(self, timeout: float = 180) -> None:
        def healthy() -> bool:
            ids = self.compose("ps", "-q").stdout.split()
            states = subprocess.run(
                ["docker", "inspect", "-f", "{{.Name}} {{.State.Status}} "
                 "{{if .State.Health}}{{.State.Health.Status}}{{end}}", *ids],
                capture_output=True, text=True, check=False).stdout.splitlines()
            return bool(states) and all(
                "migrate" in line or line.endswith(" healthy") for line in states)

        wait(healthy, timeout, "every service healthy", self.logs)

    def down(self) -> None:
        """Containers, networks and volumes of the project, then the host folder."""
        self.compose("down", "-v", "--remove-orphans", "-t", "5", check=False, timeout=300)
        shutil.rmtree(self.folder, ignore_errors=True)

    def logs(self, *services: str, tail: int = 60) -> str:
        return self.compose("logs", "--no-color", f"--tail={tail}", *services,
                            check=False).stdout

    def shell(self, code: str) -> Any:
        """Run ``code`` in the web container's Django shell; it sets ``result`` (JSON-able)."""
        script = f"import json\nresult = None\n{code}\nprint({MARK!r} + json.dumps(result))\n"
        out = self.compose("exec", "-T", "web", "python", "manage.py", "shell",
                           input=script, timeout=120).stdout
        line = next(line for line in reversed(out.splitlines()) if line.startswith(MARK))
        return json.loads(line[len(MARK):])

    # -- the API --------------------------------------------------------------------------
    def token(self, username: str, staff: bool = False) -> str:
        return self.shell(f"""
from django.contrib.auth.models import User
from league.accounts.services import token_create
user, _ = User.objects.get_or_create(username={username!r}, defaults={{"is_staff": {staff}}})
result = token_create(user=user, name="test")[1]
""")

    def upload(self, token: str, game: str, name: str, source: str) -> dict[str, Any]:
        response = requests.post(f"{self.url}/api/versions/", timeout=30,
                                 headers={"Authorization": f"Bearer {token}"},
                                 data={"game": game, "name": name},
                                 files={"file": ("main.py", source.encode())})
        assert response.status_code == 201, response.text
        return response.json()

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = requests.get(f"{self.url}{path}", headers=headers, timeout=30)
        assert response.status_code == 200, (path, response.status_code, response.text[:500])
        return response.json()


def wait(condition: Callable[[], object], timeout: float, what: str,
         explain: Callable[[], str] | None = None, every: float = 1.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(requests.RequestException):
            if condition():
                return
        time.sleep(every)
    detail = f"\n{explain()[-6000:]}" if explain else ""
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}{detail}")


def docker_ready() -> str | None:
    """Why compose tests cannot run here, or None."""
    if not shutil.which("docker-compose"):
        return "docker-compose is not installed (requirements-apt.txt)"
    if subprocess.run(["docker", "info"], capture_output=True, check=False).returncode:
        return "no Docker engine"
    for image in ("botleague/base:bookworm", "botleague/runner:latest"):
        if subprocess.run(["docker", "image", "inspect", image], capture_output=True,
                          check=False).returncode:
            return f"image {image} is missing (./dev setup builds it)"
    return None


def build_images() -> None:
    """docker/build-images.sh: a second run with nothing changed takes a few seconds."""
    done = subprocess.run([str(ROOT / "docker" / "build-images.sh")], timeout=1200,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise AssertionError(f"docker/build-images.sh failed:\n{done.stderr[-4000:]}")
