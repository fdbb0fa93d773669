"""The CLI daemon: one per user (per daemon directory), started detached by the first CLI call.

It holds what makes a warm command cheap: named :class:`AgentSession` objects (``--session NAME``, default
``default``), one host session — and so one runner — per device spec, shared by the sessions on that device.

Lifecycle::

    start ──lock daemon.lock──► write token (0600) ──bind daemon.sock (0600)──► serving
    serving ──idle for PHONEWIRE_DAEMON_IDLE_S (default 900) / `daemon stop` / SIGTERM / SIGINT /
              its socket file removed (e.g. the directory was deleted)──► stopping
    stopping: stop accepting, remove the socket, close every host session (which stops the runners it
    started), release the lock, exit

A second daemon started for the same directory waits for the lock; when it gets it and a daemon answers on the
socket, it exits, so concurrent first calls start exactly one server.

A client that goes away while its command runs (Ctrl-C, killed) hangs up its socket (:class:`Hangups` sees it)::

    the command is abandonable (reads only: wait, snapshot, logs …; or find, between two scrolls)
        ──► stopped at once: the next command of its session does not wait for the rest of it (only for the
            one wire command already on the runner, which finishes there first: the runner runs one at a time)
    any other command (tap, fill, open …: it may already have reached the runner)
        ──► runs to its end, unanswered: never cut short, never repeated
    a batch ──► stops before its next step (and at once inside an abandonable one)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import fcntl
import hashlib
import hmac
import os
import re
import secrets
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from phonewire.agent.core import AgentSession
from phonewire.devices.registry import check_spec
from phonewire.frontends.cli import client as cl
from phonewire.frontends.cli import verbs as v
from phonewire.frontends.cli.callers import Caller, Hangups, client_deadline
from phonewire.frontends.cli.client import (
    DaemonError,
    daemon_dir,
    decode_request,
    encode_reply,
    ensure_private_dir,
    socket_path,
)
from phonewire.frontends.cli.restarts import SessionApps
from phonewire.host.session import OWNER
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import encode_json
from phonewire.protocol.errors import ProtocolError
from phonewire.runtime import write_private_file
from phonewire.versions import PROTOCOL_VERSION, __version__

DEFAULT_IDLE_S: Final = 900.0
MAX_REQUEST_BYTES: Final = 4 * 1024 * 1024
#: A client has this long to send its whole request.
REQUEST_READ_S: Final = 30.0
SenderFactory = Callable[[str | None, str | None, str | None], Any]
"""``(device, runner address, runner token)`` → a sender (a host session)."""
#: Test-only: the phonewire version this daemon claims to be, so a test can start a stale daemon and watch the
#: client replace it.  Never set it outside tests.
TEST_ONLY_VERSION_ENV: Final = "PHONEWIRE_TEST_ONLY_DAEMON_VERSION"


def daemon_versions(environ: dict[str, str] | None = None) -> tuple[str, str]:
    """``(phonewire version, protocol version)`` this daemon serves, as a client sends them."""
    claimed = (os.environ if environ is None else environ).get(TEST_ONLY_VERSION_ENV)
    return claimed or __version__, str(PROTOCOL_VERSION)


def idle_timeout(environ: dict[str, str] | None = None) -> float:
    raw = (os.environ if environ is None else environ).get("PHONEWIRE_DAEMON_IDLE_S", "").strip()
    try:
        value = float(raw) if raw else DEFAULT_IDLE_S
    except ValueError:
        return DEFAULT_IDLE_S
    return value if value > 0 else DEFAULT_IDLE_S


def _host_session(device: str | None, runner: str | None, token: str | None = None) -> Any:
    from phonewire.host.session import HostSession
    from phonewire.runtime import TOKEN_ENV

    # Whether to attach, and with which token, was decided from the calling client's environment; the daemon's
    # own copies (inherited from whichever client started it) must not override that.
    env = {k: v for k, v in os.environ.items() if k not in ("PHONEWIRE_RUNNER_ADDR", TOKEN_ENV)}
    if token:
        env[TOKEN_ENV] = token
    return HostSession(device, runner_addr=runner, env=env)


#: ``batch --strict``: why the batch stopped at an action that changed nothing.
BATCH_UNCHANGED: Final = "the step ran but changed nothing on screen"
BATCH_UNCHANGED_HINT: Final = (
    "Take a snapshot to see the screen: the target may not react to that action, or the screen changed later "
    "than the reply (add a `wait` step before the next action)."
)


#: A batch's text names each step by its words, each cut to this many characters (the step's own reply says the
#: rest: the page opened, a value filled).
ECHOED_WORD = 32


def echoed(step: Sequence[str]) -> str:
    """A batch step as its text output names it: its words, a long one cut, a URL's scheme and host left out (the
    agent wrote them; ``open /miniwob/choose-list.html?wo…``)."""
    words = [_ECHOED_HOST.sub("", w, count=1) or w for w in step]
    return " ".join(w if len(w) <= ECHOED_WORD else w[: ECHOED_WORD - 1] + "…" for w in words)


#: The scheme and host of a URL a batch step names (left out of its echo).
_ECHOED_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://[^/?#]*(?=[/?#])", re.I)


def _step_invocation(step: list[str], batch: v.Invocation) -> v.Invocation:
    """One batch step's invocation: its own flags, else the batch's device, runner and session."""
    sub = v.parse_argv(step)
    if sub.verb in ("batch", "daemon"):
        raise v.UsageError(f"{sub.verb} cannot run inside a batch", v.VERBS["batch"].usage)
    sub.device = sub.device or batch.device
    sub.runner = sub.runner or batch.runner
    sub.runner_token = sub.runner_token or batch.runner_token
    if "--session" not in step:
        sub.session = batch.session
    return sub


class Daemon:
    def __init__(self, directory: str, *, idle_s: float, sender_factory: SenderFactory = _host_session) -> None:
        self.directory = directory
        self.idle_s = idle_s
        self.sender_factory = sender_factory
        self.token = ""
        self.senders: dict[str, Any] = {}  # device key -> host session
        self.sessions: dict[tuple[str, str], AgentSession] = {}
        self.active = 0
        self.last_activity = time.monotonic()
        self.stopping = asyncio.Event()
        self._sender_lock = asyncio.Lock()
        self.started = time.time()
        self.hangups = Hangups()
        #: the requests being worked on (their clients may have gone)
        self.callers: set[Caller] = set()
        #: The apps the sessions have open, kept for the daemon after this one (and what the one before lost).
        self.apps = SessionApps(directory)
        self._notes: dict[str, list[str]] = {}  # session name -> notes for its next reply (a restart's loss)

    # -- files -------------------------------------------------------------------------------------------------
    def path(self, name: str) -> Path:
        return Path(self.directory) / name

    def write_token(self) -> None:
        self.token = secrets.token_hex(32)
        tmp = self.path(f"token.{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(self.token)
        tmp.replace(self.path("token"))

    # -- sessions ----------------------------------------------------------------------------------------------
    async def session(
        self, name: str, device: str | None, runner: str | None, token: str | None = None
    ) -> AgentSession:
        # one runner per phone, whatever name it was given (a typo raises here, before anything starts)
        device = "" if runner else check_spec(device or "web")
        key = f"runner@{runner}" if runner else device
        if runner and token:  # another token is another way in (the one that was refused is not reused)
            key += "#" + hashlib.sha256(token.encode()).hexdigest()[:12]
        agent = self.sessions.get((name, key))
        if agent is not None:
            return agent
        async with self._sender_lock:
            sender = self.senders.get(key)
            if sender is None:
                sender = self.sender_factory(None if runner else device, runner, token if runner else None)
                self.senders[key] = sender
        agent = self.sessions.get((name, key))
        if agent is None:
            agent = self.sessions[(name, key)] = AgentSession(sender)
            if (note := self.apps.created(name, key)) is not None:
                self._notes.setdefault(name, []).append(note)
        return agent

    async def devices(self) -> list[dict[str, Any]]:
        from phonewire.devices.registry import list_devices

        listed = await asyncio.to_thread(list_devices)
        running = set(self.senders)  # keyed by canonical spec (check_spec)
        for d in listed:
            d["runner"] = d["device"] in running
        return listed

    # -- requests ----------------------------------------------------------------------------------------------
    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.active += 1
        try:
            reply = await self._reply(reader, writer)
            if reply is None:  # the client has gone, and what it asked for was stopped
                return
            writer.write(
                encode_reply(
                    int(reply["exit"]),
                    str(reply.get("stdout", "")),
                    str(reply.get("stderr", "")),
                    daemon_code=str(reply.get("code", "")),
                )
            )
            with contextlib.suppress(ConnectionError):
                await writer.drain()
        finally:
            self.active -= 1
            self.last_activity = time.monotonic()
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    @staticmethod
    def _refusal(code: str, reason: str) -> dict[str, Any]:
        """The daemon refused the request itself (nothing ran): its code, and the reason in stdout."""
        return {"exit": v.EXIT_DAEMON, "code": code, "stdout": reason}

    async def _reply(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> dict[str, Any] | None:
        try:
            async with asyncio.timeout(REQUEST_READ_S):
                data = await self._read_request(reader)
        except TimeoutError:
            return self._refusal(cl.DAEMON_PROTOCOL, "request not finished in time")
        except OSError as exc:  # the client went away mid-request; the answer will not reach it either
            return self._refusal(cl.DAEMON_PROTOCOL, str(exc.strerror or exc))
        if len(data) > MAX_REQUEST_BYTES:
            return self._refusal(cl.DAEMON_PROTOCOL, "request too large")
        try:
            req = decode_request(data)
        except ValueError:
            return self._refusal(cl.DAEMON_PROTOCOL, "malformed request")
        if not hmac.compare_digest(req.token.encode(), self.token.encode()):
            return self._refusal(cl.DAEMON_AUTH, "bad or missing token")
        ours = daemon_versions()
        if (req.version, req.protocol) != ours:
            return self._refusal(
                cl.DAEMON_VERSION_MISMATCH,
                f"the daemon (pid {os.getpid()}) is phonewire {ours[0]} (protocol {ours[1]}), the client "
                f"phonewire {req.version} (protocol {req.protocol})",
            )
        return await self._run_watched(req, writer)

    async def _run_watched(self, req: cl.Request, writer: asyncio.StreamWriter) -> dict[str, Any] | None:
        """Run the request while watching its client: ``None`` when the client went and the command was stopped
        (the module docstring's rules)."""
        sock = writer.get_extra_info("socket")
        fd = sock.fileno() if sock is not None else -1
        caller = Caller(fd=fd, deadline=client_deadline(req.env))
        owned = contextvars.copy_context()
        owned.run(OWNER.set, caller.stale)  # every command sent for this request checks that its client waits
        task = asyncio.create_task(
            self.run_argv(req.argv, cwd=req.cwd or ".", stdin=req.stdin, env=req.env, caller=caller), context=owned
        )
        caller.task = task
        if fd >= 0:
            self.hangups.watch(fd, caller.left)
        self.callers.add(caller)
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:  # the daemon is stopping: so does the command (as it would without this)
            task.cancel()
            raise
        finally:
            self.callers.discard(caller)
            if fd >= 0:
                self.hangups.unwatch(fd)
        return None if task.cancelled() else task.result()

    @staticmethod
    async def _read_request(reader: asyncio.StreamReader) -> bytes:
        data = b""
        while len(data) <= MAX_REQUEST_BYTES:
            more = await reader.read(MAX_REQUEST_BYTES + 1 - len(data))
            if not more:
                break
            data += more
        return data

    async def run_argv(
        self,
        argv: list[str],
        *,
        cwd: str = ".",
        stdin: object = None,
        env: dict[str, str] | None = None,
        caller: Caller | None = None,
    ) -> dict[str, Any]:
        """Run one CLI invocation; return ``{"exit", "stdout", "stderr"}`` (never raises, except the cancellation of
        an abandonable command whose ``caller`` has gone).  A session that lost its app with the daemon before this
        one gets a note on stderr (restarts.py)."""
        reply = await self._run_argv(argv, cwd=cwd, stdin=stdin, env=env, caller=caller)
        self.apps.save({key: agent.app_id for key, agent in self.sessions.items()})
        notes = [n for name in list(self._notes) for n in self._notes.pop(name)]
        if notes:
            reply["stderr"] = "".join(f"note: {n}\n" for n in notes) + str(reply.get("stderr", ""))
        return reply

    async def _run_argv(
        self,
        argv: list[str],
        *,
        cwd: str = ".",
        stdin: object = None,
        env: dict[str, str] | None = None,
        caller: Caller | None = None,
    ) -> dict[str, Any]:
        env = env or {}
        caller = caller or Caller()
        as_json = "--json" in argv
        try:
            inv = v.parse_argv(argv)
            self._apply_env_defaults(inv, env, argv)
            if inv.verb == "daemon":
                return self._daemon_verb(inv)
            if inv.verb == "batch":
                return await self._batch(inv, cwd, stdin, caller)
            caller.runs(inv)
            outcome = await v.execute(inv, self._context(inv, cwd))
        except ProtocolError as exc:
            stream = "stdout" if as_json else "stderr"
            return {"exit": v.exit_code_for(exc), stream: v.render_error(exc, as_json=as_json)}
        except Exception as exc:  # a bug: report it as a daemon failure, keep serving
            err = ProtocolError(
                e.COMMAND_FAILED,
                f"internal error: {type(exc).__name__}: {exc}",
                f"A phonewire bug (logged in {self.path('daemon.log')}); the daemon keeps serving. Check the screen "
                "with `phonewire snapshot` before repeating the command.",
            )
            print(f"phonewire daemon: {err.message}", file=sys.stderr)
            return {"exit": v.EXIT_DAEMON, "stdout" if as_json else "stderr": v.render_error(err, as_json=as_json)}
        return {"exit": v.EXIT_OK, "stdout": v.render_outcome(outcome, as_json=inv.json)}

    @staticmethod
    def _apply_env_defaults(inv: v.Invocation, env: dict[str, str], argv: list[str]) -> None:
        if inv.device is None and inv.runner is None:
            # the client's environment, not the daemon's (which is that of whichever client started it)
            if env.get("PHONEWIRE_DEVICE"):
                inv.device = env["PHONEWIRE_DEVICE"]
            elif env.get("PHONEWIRE_RUNNER_ADDR"):
                inv.runner = env["PHONEWIRE_RUNNER_ADDR"]
        inv.runner_token = env.get("PHONEWIRE_RUNNER_TOKEN") or None  # for an attach (--runner or the variable)
        if "--session" not in " ".join(argv) and env.get("PHONEWIRE_SESSION"):
            inv.session = env["PHONEWIRE_SESSION"]

    def _context(self, inv: v.Invocation, cwd: str) -> v.Context:
        async def session() -> AgentSession:
            return await self.session(inv.session, inv.device, inv.runner, inv.runner_token)

        return v.Context(session, cwd=cwd, devices=self.devices)

    def _daemon_verb(self, inv: v.Invocation) -> dict[str, Any]:
        what = inv.args[0]
        if what == "stop":
            self.apps.forget()  # a restart asked for is no surprise: no note after it
            self.stopping.set()
            return {"exit": 0, "stdout": "ok daemon stopping" if not inv.json else '{"ok":true,"data":{}}'}
        if what == "status":
            data = {
                "running": True,
                "pid": os.getpid(),
                "version": daemon_versions()[0],
                "uptimeS": round(time.time() - self.started, 1),
                "idleTimeoutS": self.idle_s,
                "devices": sorted(self.senders),
                "sessions": sorted({name for name, _ in self.sessions}),
                "runnerPids": sorted(pid for pid in map(_runner_pid, self.senders.values()) if pid is not None),
                "requests": sorted(c.doing + (" (client gone)" if c.gone else "") for c in self.callers if c.doing),
                "acting": sorted(c.doing for c in self.callers if c.doing and c.acted),
            }
            text = " ".join(f"{k}={','.join(map(str, x)) if isinstance(x, list) else x}" for k, x in data.items())
            return {"exit": 0, "stdout": v.render_outcome(v.Outcome(data, text), as_json=inv.json)}
        err = v.UsageError(f"unknown daemon action {what!r}", v.VERBS["daemon"].usage)
        return {"exit": v.EXIT_USAGE, "stderr": v.render_error(err, as_json=False)}

    async def _batch(self, inv: v.Invocation, cwd: str, stdin: object, caller: Caller) -> dict[str, Any]:
        """Run the steps in order; stop at the first that fails and, with ``--strict``, at the first action whose
        reply says it changed nothing on screen (``changed: false``; steps that only read are not judged); stop
        before the next step once the client has gone."""
        if inv.args and inv.args[0] != "-":
            path = Path(cwd) / inv.args[0]
            try:
                raw = await asyncio.to_thread(path.read_text, encoding="utf-8")
            except OSError as exc:
                raise v.UsageError(f"cannot read {path}: {exc.strerror}", v.VERBS["batch"].usage) from exc
        else:
            raw = stdin if isinstance(stdin, str) else ""
        steps = v.parse_steps(raw)
        results: list[dict[str, Any]] = []
        texts: list[str] = []
        code = v.EXIT_OK
        unchanged: dict[str, Any] | None = None
        for n, step in enumerate(steps):
            if caller.gone:  # nobody reads the rest: the steps not started are not run
                break
            try:
                sub = _step_invocation(step, inv)
                caller.runs(sub)
                outcome = await v.execute(sub, self._context(sub, cwd))
            except ProtocolError as exc:
                results.append({"step": n, "argv": step, "ok": False, "error": exc.to_wire()})
                texts.append(f"[{n}] {echoed(step)}\n" + v.render_error(exc, as_json=False))
                code = v.exit_code_for(exc)
                break
            entry: dict[str, Any] = {"step": n, "argv": step, "ok": True, "data": outcome.data}
            if outcome.warning:
                entry["warning"] = outcome.warning
            results.append(entry)
            texts.append(f"[{n}] {echoed(step)}\n" + v.render_outcome(outcome, as_json=False))
            if inv.flags.get("--strict") and outcome.data.get("changed") is False:
                # the action ran, and the screen shows nothing of it: the steps after it assume an effect
                unchanged = {"step": n, "reason": "unchanged", "message": BATCH_UNCHANGED, "hint": BATCH_UNCHANGED_HINT}
                texts.append(f"{BATCH_UNCHANGED} (--strict)\nhint: {BATCH_UNCHANGED_HINT}")
                code = v.EXIT_COMMAND
                break
        summary: dict[str, Any] = {
            "ok": code == v.EXIT_OK,
            "completed": sum(1 for r in results if r["ok"]),
            "steps": len(steps),
        }
        if unchanged is not None:
            summary["stopped"] = unchanged
        if inv.json:
            return {"exit": code, "stdout": encode_json({**summary, "results": results}).decode()}
        if code != v.EXIT_OK:
            # a batch that ran whole says so in its exit code and in each step's own ok line; one that stopped
            # says how far it got, so the agent knows which steps never ran
            texts.append(f"stopped: {summary['completed']}/{len(steps)} steps")
        return {"exit": code, "stdout": "\n".join(texts)}

    # -- serving -----------------------------------------------------------------------------------------------
    async def serve(self) -> None:
        sock_path = self.path("daemon.sock")
        sock_path.unlink(missing_ok=True)
        # the pid first: a client that reaches the socket finds it (written after, a client under load read none)
        write_private_file(str(self.path("daemon.pid")), str(os.getpid()))
        old_umask = os.umask(0o177)
        try:
            server = await asyncio.start_unix_server(self.handle, sock_path, limit=MAX_REQUEST_BYTES)
        except BaseException:
            self.path("daemon.pid").unlink(missing_ok=True)
            raise
        finally:
            os.umask(old_umask)
        sock_path.chmod(0o600)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stopping.set)
        print(f"phonewire daemon: serving {sock_path} (pid {os.getpid()}, idle {self.idle_s:g} s)", file=sys.stderr)
        watcher = asyncio.create_task(self._idle_watch())
        try:
            await self.stopping.wait()
        finally:
            watcher.cancel()
            server.close()
            for name in ("daemon.sock", "daemon.pid"):
                self.path(name).unlink(missing_ok=True)
            await server.wait_closed()
            self.hangups.close()
            await self.close_senders()
            print("phonewire daemon: stopped", file=sys.stderr)

    async def close_senders(self) -> None:
        senders, self.senders = list(self.senders.values()), {}
        self.sessions.clear()
        for sender in senders:
            try:
                await sender.close()
            except Exception as exc:  # keep closing the others
                print(f"phonewire daemon: closing a host session failed: {exc!r}", file=sys.stderr)

    async def _idle_watch(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, self.idle_s / 4))
            if self.active == 0 and time.monotonic() - self.last_activity >= self.idle_s:
                print("phonewire daemon: idle, stopping", file=sys.stderr)
                self.stopping.set()
                return
            if not self.path("daemon.sock").exists():  # no client can ever reach us again
                print("phonewire daemon: socket removed, stopping", file=sys.stderr)
                self.stopping.set()
                return


def _answers(sock_path: Path) -> bool:
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(sock_path))
        except OSError:
            return False
    return True


def _runner_pid(sender: Any) -> int | None:
    """The pid of the runner process a host session owns (None when attached or not started)."""
    process = getattr(getattr(sender, "runner", None), "process", None)
    pid = getattr(process, "pid", None)
    return pid if isinstance(pid, int) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m phonewire.frontends.cli.daemon")
    parser.add_argument("--dir", default=None, help="daemon directory (default: as the CLI computes it)")
    parser.add_argument("--idle", type=float, default=None, help="idle timeout in seconds")
    opts = parser.parse_args(argv)
    try:
        directory = ensure_private_dir(opts.dir or daemon_dir())
        socket_path(directory)
    except DaemonError as exc:  # one line in daemon.log, not a traceback
        print(f"phonewire daemon: error {exc.code}: {exc.message}\nhint: {exc.hint}", file=sys.stderr)
        return 1
    lock_fd = os.open(Path(directory) / "daemon.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + 30.0
        while True:
            try:
                fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                # Another daemon holds the lock: it serves (then leave it be) or is starting/stopping (wait).
                if _answers(Path(directory) / "daemon.sock") or time.monotonic() > deadline:
                    return 0
                time.sleep(0.05)
        daemon = Daemon(directory, idle_s=opts.idle or idle_timeout())
        daemon.write_token()
        asyncio.run(daemon.serve())
        return 0
    finally:
        os.close(lock_fd)


if __name__ == "__main__":
    sys.exit(main())
