"""A deployed league for the compose tests and the throughput benchmark, as a compose project
(``Deployment``) or a swarm stack (``Stack``): each with its own name, env file, host folder
and web port; reads through a Django shell in a web container (PostgreSQL and Redis are not
published on the host), writes through the API."""

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
STACK_SCRIPT = ROOT / "docker" / "stack.sh"
MARK = "@@result@@"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def league_env(settings: dict[str, str]) -> dict[str, str]:
    """A deployment's env file: fresh passwords and key, then ``settings`` over them."""
    db, broker = secrets.token_hex(12), secrets.token_hex(12)
    return {"POSTGRES_PASSWORD": db, "POSTGRES_DB": "botleague", "REDIS_PASSWORD": broker,
            "DATABASE_URL": f"postgres://postgres:{db}@db:5432/botleague",
            "REDIS_URL": f"redis://:{broker}@redis:6379/0",
            "CACHE_URL": f"redis://:{broker}@redis:6379/1",
            "SECRET_KEY": secrets.token_urlsafe(40), "ALLOWED_HOSTS": "127.0.0.1,localhost",
            **settings}


class League:
    """What the tests ask of a deployed league, however it is deployed: a Django shell in a
    web container, logs and containers by service, and the API at ``url``."""

    port: int  # where the API answers, on this machine
    folder: Path  # the deployment's own files (its env file among them)
    worker: str  # the service whose containers play matches
    sandbox: str  # "bwrap" or "docker": where its bots run

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def env_file(self) -> Path:
        return self.folder / "env"

    def logs(self, *services: str, tail: int = 60) -> str:
        raise NotImplementedError

    def containers(self, service: str) -> list[str]:
        """Ids of the service's running containers."""
        raise NotImplementedError

    def shell_run(self, script: str) -> str:
        """The output of ``manage.py shell`` given ``script`` in a web container."""
        raise NotImplementedError

    def shell(self, code: str) -> Any:
        """Run ``code`` in a web container's Django shell; it sets ``result`` (JSON-able)."""
        script = f"import json\nresult = None\n{code}\nprint({MARK!r} + json.dumps(result))\n"
        out = self.shell_run(script)
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


@dataclass
class Deployment(League):
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

    def write_env(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.env_file.write_text(
            "".join(f"{k}={v}\n" for k, v in league_env(self.settings).items()))

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

    def shell_run(self, script: str) -> str:
        return self.compose("exec", "-T", "web", "python", "manage.py", "shell",
                            input=script, timeout=120).stdout

@dataclass
class Stack(League):
    """The league as a swarm stack (docker/stack.yml) through docker/stack.sh, on the swarm
    this engine manages: its own stack name, secrets, volume and host folder; the node
    labels it needs, added if no node has them and taken off again by ``down``."""

    name: str
    folder: Path
    port: int = field(default_factory=free_port)
    settings: dict[str, str] = field(default_factory=dict)
    web_replicas: int = 2
    # "ingress": the routing mesh; "host": the port bound on the node running web (kernels
    # without IPVS, where the mesh cannot work).
    publish: str = "ingress"
    worker: str = "worker"
    # The swarm's worker is compose's worker-engine (docker/stack.yml says why).
    sandbox: str = "docker"
    # build_images()'s answer: the stack runs exactly these, not whatever is ``:latest``.
    images: dict[str, str] = field(default_factory=dict)

    def environ(self) -> dict[str, str]:
        return {**os.environ, "BOTLEAGUE_STACK": self.name,
                "BOTLEAGUE_HOST_DIR": str(self.folder / "host"),
                "BOTLEAGUE_WEB_PORT": str(self.port),
                "BOTLEAGUE_WEB_REPLICAS": str(self.web_replicas),
                "BOTLEAGUE_WEB_PUBLISH": self.publish,
                **{f"BOTLEAGUE_IMAGE_{name.split('/')[-1].upper()}": image
                   for name, image in self.images.items()
                   if name in ("botleague/league", "botleague/postgres", "botleague/redis")}}

    def script(self, *args: str, timeout: float = 900) -> str:
        done = subprocess.run([str(STACK_SCRIPT), *args], env=self.environ(), timeout=timeout,
                              capture_output=True, text=True, check=False)
        if done.returncode:
            raise AssertionError(f"docker/stack.sh {' '.join(args)} failed ({done.returncode})"
                                 f":\n{done.stdout}\n{done.stderr[-6000:]}")
        return done.stderr  # what it did, one line a step

    def up(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.env_file.write_text(
            "".join(f"{k}={v}\n" for k, v in league_env(self.settings).items()))
        self.script("up", str(self.env_file))
        # Every task is up (stack.sh waited); the published port may take a moment more.
        wait(lambda: requests.get(f"{self.url}/health/", timeout=5).status_code == 200, 60,
             "web through the published port", self.logs)

    def down(self) -> str:
        """The stack, its secrets, volume and labels (stack.sh down --volumes), then the
        host folder."""
        try:
            return self.script("down", "--volumes")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def service(self, service: str) -> str:
        return f"{self.name}_{service}"

    def containers(self, service: str) -> list[str]:
        return docker_lines("ps", "-q", "--no-trunc", "--filter",
                            f"label=com.docker.swarm.service.name={self.service(service)}")

    def logs(self, *services: str, tail: int = 60) -> str:
        names = services or ("web", "worker", "ticks", "beat", "migrate", "db", "redis")
        return "\n".join(subprocess.run(
            ["docker", "service", "logs", "--raw", f"--tail={tail}", self.service(name)],
            capture_output=True, text=True, timeout=60, check=False).stdout for name in names)

    def shell_run(self, script: str) -> str:
        # Any running web replica: they share the database. The secrets reach the exec'd
        # shell as they reach the service (NAME_FILE, league/env.py).
        web = self.containers("web")
        assert web, self.logs("web")
        done = subprocess.run(["docker", "exec", "-i", web[0], "python", "manage.py", "shell"],
                              input=script, capture_output=True, text=True, timeout=120,
                              check=False)
        if done.returncode:
            raise AssertionError(f"manage.py shell failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def leftovers(self) -> dict[str, list[str]]:
        """Whatever of this stack is still on the engine (all empty once it is down)."""
        label = f"label=com.docker.stack.namespace={self.name}"
        nodes = [f"{node} {key}" for node in docker_lines("node", "ls", "-q")
                 for key, value in json.loads(docker_lines(
                     "node", "inspect", "-f", "{{json .Spec.Labels}}", node)[0]).items()
                 if value == self.name]
        return {"services": docker_lines("service", "ls", "-q", "--filter", label),
                "containers": docker_lines("ps", "-aq", "--filter", label),
                "networks": docker_lines("network", "ls", "-q", "--filter", label),
                "volumes": docker_lines("volume", "ls", "-q", "--filter", label),
                "secrets": docker_lines("secret", "ls", "-q", "--filter",
                                        f"label=botleague.stack={self.name}"),
                "node labels": nodes,
                # a worker's bots, of slots no live worker holds (stack.sh down sweeps them)
                "bot containers": stranded_bot_containers(),
                "host folder": [str(self.folder)] if self.folder.exists() else []}


def stranded_bot_containers() -> list[str]:
    """Bot containers on this engine whose slot no live worker holds: left by one that died
    (the rule of ``benchmarks.leftovers``)."""
    from benchmarks.leftovers import bot_containers

    return bot_containers()


def docker_lines(*args: str) -> list[str]:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=60,
                          check=True)
    return [line for line in done.stdout.splitlines() if line.strip()]


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
    return engine_ready()


def engine_ready() -> str | None:
    """Why no league can be deployed on this Docker engine (none, or our images missing),
    or None."""
    if subprocess.run(["docker", "info"], capture_output=True, check=False).returncode:
        return "no Docker engine"
    for image in ("botleague/base:bookworm", "botleague/runner:latest"):
        if subprocess.run(["docker", "image", "inspect", image], capture_output=True,
                          check=False).returncode:
            return f"image {image} is missing (./dev setup builds it)"
    return None


def build_images() -> dict[str, str]:
    """docker/build-images.sh: a second run with nothing changed takes a few seconds. The
    images it made, by name, with their content tags (``botleague/league:3ced0bb2e330``):
    ``:latest`` is whichever checkout built last on this engine."""
    done = subprocess.run([str(ROOT / "docker" / "build-images.sh")], timeout=1200,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise AssertionError(f"docker/build-images.sh failed:\n{done.stderr[-4000:]}")
    return {line.split(":")[0]: line for line in done.stdout.split() if ":" in line}
