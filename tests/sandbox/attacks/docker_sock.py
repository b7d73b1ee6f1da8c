# Connects to the Docker daemon's socket, which would be root on the worker.
import socket

from _common import attack_then_play


def attack():
    report = []
    for path in ("/var/run/docker.sock", "/run/docker.sock"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            s.sendall(b"GET /version HTTP/1.0\r\n\r\n")
            return f"PWNED: docker answered {s.recv(64)!r}"
        except OSError as error:
            report.append(f"{path}: {error.strerror}")
        finally:
            s.close()
    return "BLOCKED: " + "; ".join(report)


attack_then_play(attack)
