"""A second Unix account for owner-only tests: created by the test (as root), removed in its teardown.

``other_user()`` skips, with the reason, when the test does not run as root or ``useradd`` is missing.  Code runs
as that account through ``setpriv`` with the system Python (``-I``: stdlib only, nothing of this checkout), so it
sees exactly what any other local user would.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

SYSTEM_PYTHON = "/usr/bin/python3"


@dataclass(frozen=True)
class OtherUser:
    name: str
    uid: int
    gid: int

    def python(self, script: str, *args: str) -> Any:
        """Run ``script`` as this user; it prints one JSON value on stdout, which is returned."""
        argv = ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups", "--"]
        argv += [SYSTEM_PYTHON, "-I", "-c", script, *args]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False, cwd="/", env={})
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


@contextlib.contextmanager
def other_user() -> Iterator[OtherUser]:
    if os.geteuid() != 0:
        pytest.skip("creating a second Unix account needs root (CI runs as root)")
    for tool in ("useradd", "userdel", "setpriv"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        pytest.skip(f"{SYSTEM_PYTHON} is needed to run code as the second account")
    name = f"pwtest{secrets.token_hex(4)}"
    subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True, timeout=60)
    try:
        entry = pwd.getpwnam(name)
        yield OtherUser(name, entry.pw_uid, entry.pw_gid)
    finally:
        subprocess.run(["userdel", name], check=False, timeout=60, capture_output=True)


#: Run as the other user: try to read a file, then send raw HTTP requests to the runner (argv: path, port, then
#: request bodies); prints {"read": errno-or-"ok", "statuses": [...]}.
INTRUDER = r"""
import json, socket, sys
path, port, bodies = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
try:
    open(path).read()
    read = "ok"
except OSError as exc:
    read = exc.errno
statuses = []
for body in bodies:
    auth, _, payload = body.partition("|")
    head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n" % len(payload)
    if auth:
        head += "Authorization: Bearer %s\r\n" % auth
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall((head + "\r\n" + payload).encode())
        sock.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    statuses.append(int(reply.split(b" ", 2)[1]))
print(json.dumps({"read": read, "statuses": statuses}))
"""
