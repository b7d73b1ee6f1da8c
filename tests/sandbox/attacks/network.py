# Opens TCP connections: to the host's Postgres port and out to the internet.
import socket

from _common import attack_then_play


def attack():
    results = []
    for host, port in (("127.0.0.1", 5432), ("1.1.1.1", 80), ("10.0.0.1", 80)):
        try:
            with socket.create_connection((host, port), timeout=1.0):
                return f"PWNED: connected to {host}:{port}"
        except OSError as error:
            results.append(f"{host}:{port} {type(error).__name__}")
    return "BLOCKED: " + ", ".join(results)


attack_then_play(attack)
