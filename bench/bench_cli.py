"""CLI benchmark: a warm ``phonewire tap`` against a direct runner tap, the ref check, and agent-view sizes.

One run, one runner, everything measured against a baseline taken in the same run::

    .venv/bin/python bench/bench_cli.py [--device web] [--n 30]

1. a runner is started (``phonewire runner --device …``) and the demo app launched on it;
2. the native client (docs/cli.md) against the Python client and a bare interpreter start, over a direct tap
   through the in-process Python API, alternating in each round — target: overhead ≤ 15 ms;
3. a direct tap, one HTTP POST to the runner (what any client must pay), and a warm Python CLI tap:
   ``phonewire-py --runner 127.0.0.1:PORT tap X Y`` as a subprocess (interpreter start, thin client, daemon, host
   session, runner) — target ≤ 60 ms wall;
4. the ref check: ``tap @eN`` against ``tap X Y`` (the price of the fresh snapshot + re-finding), and the pure
   re-finding step alone;
5. the size in characters of ``snapshot -i`` (and of the full view and the raw JSON) for each demo screen.

Everything it starts (daemon, runner, browser) is stopped at the end, by pid.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import resource
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pacing import apart, paced  # the bench directory is not a package

ROOT = Path(__file__).resolve().parent.parent
PHONEWIRE = [sys.executable, "-m", "phonewire"]
COMMAND = Path(sys.executable).parent / "phonewire"  # the command, as agents call it (native client when installed)
# the Python console script: pip's `phonewire`, kept as `phonewire-py` when the native client is installed
SCRIPT = COMMAND.with_name("phonewire-py") if COMMAND.with_name("phonewire-py").exists() else COMMAND
DEMO = "dev.phonewire.demo"


def p50(samples: list[float]) -> float:
    return statistics.median(samples)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


class Runner:
    def __init__(self, device: str, env: dict[str, str]) -> None:
        self.token = env["PHONEWIRE_RUNNER_TOKEN"]
        self.proc = subprocess.Popen(
            [*PHONEWIRE, "runner", "--device", device], env=env, stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "PHONEWIRE_RUNNER_LISTENING" not in line:
            self.stop()
            raise SystemExit(f"runner did not start: {line!r}")
        self.port = int(line.strip().split("port=")[1])

    def send(self, command: str, **fields: Any) -> dict[str, Any]:
        body = json.dumps({"command": command, "commandId": uuid.uuid4().hex, **fields}).encode()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            headers = {
                "Content-Type": "application/json",
                "Connection": "close",
                "Authorization": f"Bearer {self.token}",
            }
            conn.request("POST", "/", body, headers)
            reply: dict[str, Any] = json.loads(conn.getresponse().read())
        finally:
            conn.close()
        if not reply.get("ok"):
            raise SystemExit(f"{command} failed: {reply}")
        return reply

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


def cli(env: dict[str, str], *argv: str) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run([str(COMMAND), *argv], env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"phonewire {' '.join(argv)} failed ({proc.returncode}): {proc.stderr}")
    return elapsed, proc.stdout


def timed_run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one subprocess run to its end.  CPU (user + system, from the children's rusage) is the
    steadier figure on a loaded machine: waiting for a core inflates wall time, not CPU time.  A tap is paced apart
    from the last one first (bench/pacing.py), outside the timing."""
    if "tap" in argv:
        apart()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fast_client(env: dict[str, str], runner: Runner, app: str, rt: list[str], n: int) -> None:
    """Warm overhead of a CLI tap over the same tap through the in-process Python API (attached to the same runner):
    the native client, the Python client, a bare ``python -c pass`` and a bare native process start (``true``), all
    in each round, in a rotating order; medians of per-round differences (wall), and each process's own CPU."""
    if COMMAND == SCRIPT:
        print("\n(native client not installed: `phonewire` is the Python script; run scripts/setup.sh)")
        return
    api, wall, cpu, over = fast_client_figures(env, runner, app, rt, n)
    print("\n== warm CLI tap over a direct tap (in-process Python API), same runner, alternating rounds, p50 ==")
    print(f"direct tap, Python API in-process      {ms(p50(api))}   (baseline)")
    for name, label in (("native", "native client (C)"), ("python", "Python client (phonewire-py)")):
        verdict = "PASS" if p50(over[name]) <= 0.015 else "FAIL"
        print(f"{label:<38} {ms(p50(wall[name]))}   overhead {ms(p50(over[name])).strip()} (target <= 15 ms: "
              f"{verdict}), CPU {ms(p50(cpu[name])).strip()}")  # fmt: skip
    for name, what in (("bare python", "-c pass"), ("bare native", "/bin/true")):
        print(f"{name + ' start':<38} {ms(p50(wall[name]))}   CPU {ms(p50(cpu[name])).strip()}   ({what})")
    saved = [p - f for p, f in zip(wall["python"], wall["native"], strict=True)]
    print(f"native saves per call                  {ms(p50(saved))}   wall (per round), CPU "
          f"{ms(p50(cpu['python']) - p50(cpu['native'])).strip()}; ratio python/native wall "
          f"{p50(wall['python']) / p50(wall['native']):.2f}x")  # fmt: skip


Samples = dict[str, list[float]]


def fast_client_figures(
    env: dict[str, str], runner: Runner, app: str, rt: list[str], n: int
) -> tuple[list[float], Samples, Samples, Samples]:
    """(API tap walls, walls, CPU, overheads over the API tap of the same round) of the native client, the Python
    client, a bare ``python -c pass`` and a bare ``/bin/true``, ``n`` rounds in a rotating order; seconds."""
    import phonewire

    tap = [*rt, "tap", "2", "2"]
    runs = {
        "native": [str(COMMAND), *tap],
        "python": [str(SCRIPT), *tap],
        "bare python": [sys.executable, "-c", "pass"],
        "bare native": ["/bin/true"],
    }
    wall: dict[str, list[float]] = {k: [] for k in runs}
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    over: dict[str, list[float]] = {k: [] for k in runs}
    api: list[float] = []
    os.environ["PHONEWIRE_RUNNER_TOKEN"] = env["PHONEWIRE_RUNNER_TOKEN"]
    with phonewire.Phone(runner=f"127.0.0.1:{runner.port}") as phone:
        phone.open(app)
        for _ in range(3):  # warm every path
            phone.tap("2 2")
            for argv in runs.values():
                timed_run(argv, env)
        names = list(runs)
        for i in range(n):
            apart()
            start = time.perf_counter()
            phone.tap("2 2")
            direct = time.perf_counter() - start
            api.append(direct)
            for name in names[i % len(names) :] + names[: i % len(names)]:
                w, c = timed_run(runs[name], env)
                wall[name].append(w)
                cpu[name].append(c)
                over[name].append(w - direct)
    return api, wall, cpu, over


def find_ref(view: str, needle: str) -> str:
    for line in view.splitlines():
        if needle in line:
            return line.strip().split()[0]
    raise SystemExit(f"no line with {needle!r} in:\n{view}")


def screens(env: dict[str, str], app: str, rt: list[str]) -> list[tuple[str, list[list[str]]]]:
    """(screen name, CLI steps that reach it from a fresh launch of the app)."""
    if app != DEMO:
        return [("home", [])]
    return [
        ("list (300 rows)", []),
        ("detail", [["tap", "id=open-1"]]),
        ("account (form)", [["tap", "id=tab-form"]]),
        ("controls", [["tap", "id=tab-controls"]]),
        ("tasks (reorder)", [["tap", "id=tab-reorder"]]),
    ]


def cli_env() -> dict[str, str]:
    """The environment of a bench's runner, daemon and CLI calls: a private daemon and state directory, a fresh
    runner token, no device or session defaults from the caller's shell."""
    tmp = Path(tempfile.mkdtemp(prefix="phonewire-bench-"))
    env = dict(os.environ)
    for name in ("PHONEWIRE_DEVICE", "PHONEWIRE_SESSION", "PHONEWIRE_RUNNER_ADDR"):
        env.pop(name, None)
    env.update(PHONEWIRE_DAEMON_DIR=str(tmp / "d"), PHONEWIRE_STATE_DIR=str(tmp / "state"))
    # Every interpreter started here reads compiled bytecode, as an installed phonewire does (the installer
    # compiles it).  Under PYTHONDONTWRITEBYTECODE (set on some machines) a source tree is recompiled at every
    # start; `nocache` below measures that case, interleaved, to show what it costs.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    env["PHONEWIRE_RUNNER_TOKEN"] = secrets.token_urlsafe(32)  # the runner's; the daemon attaches with it too
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="web")
    parser.add_argument("--app", default=None, help="app id (default: the demo app; app.bench on the double)")
    parser.add_argument("--n", type=int, default=30)
    opts = parser.parse_args(argv)
    app = opts.app or ("app.bench" if opts.device == "double" else DEMO)
    env = cli_env()
    runner = Runner(opts.device, env)
    rt = ["--runner", f"127.0.0.1:{runner.port}"]
    try:
        return run(opts, app, env, runner, rt)
    finally:
        with contextlib.suppress(SystemExit):
            cli(env, "daemon", "stop")
        runner.stop()


def run(opts: argparse.Namespace, app: str, env: dict[str, str], runner: Runner, rt: list[str]) -> int:
    runner.send("launchApp", appBundleId=app)
    # a point that hits nothing interactive: the top-left corner's inside margin (the header bar)
    x, y = 2.0, 2.0
    load = os.getloadavg()[0]
    print(f"device {opts.device}, app {app}, n={opts.n}, python {sys.version.split()[0]}, load avg {load:.1f}")
    cli(env, *rt, "open", app)
    fast_client(env, runner, app, rt, opts.n)

    # -- a direct runner tap (baseline) and a warm CLI tap, interleaved so drift hits both alike ---------------
    cold, _ = cli(env, *rt, "open", app)
    for _ in range(3):
        runner.send("tap", appBundleId=app, x=x, y=y)
        cli(env, *rt, "tap", f"{x:g}", f"{y:g}")
    nocache_env = {k: v for k, v in env.items() if k != "PYTHONPYCACHEPREFIX"} | {"PYTHONDONTWRITEBYTECODE": "1"}
    # the console script as it was before the CLI ended its process right after the answer (baseline)
    slow_exit = Path(env["PYTHONPYCACHEPREFIX"]).parent / "phonewire-normal-exit"
    slow_exit.write_text("import sys\nfrom phonewire.frontends.cli.main import main\nsys.exit(main())\n")
    tap_args = [*rt, "tap", f"{x:g}", f"{y:g}"]
    # Each round takes every sample back to back, and the figures are medians of per-round differences: the load
    # of other users drifts by more than the effects measured here, and a pair sees the same load.
    direct: list[float] = []
    warm: list[float] = []
    bare: list[float] = []
    cpu: dict[str, list[float]] = {k: [] for k in ("warm", "normal", "bare", "no_site", "import", "nocache")}
    diffs: dict[str, list[float]] = {k: [] for k in ("normal", "import", "nocache", "no_site")}

    def python(*argv: str, env: dict[str, str] = env) -> tuple[float, float]:
        return timed_run([sys.executable, *argv], env)

    for i in range(opts.n):
        direct.append(paced(lambda: runner.send("tap", appBundleId=app, x=x, y=y)))
        wall, c = timed_run([str(SCRIPT), *tap_args], env)
        warm.append(wall)
        cpu["warm"].append(c)
        wall, c = python("-c", "pass")
        bare.append(wall)
        cpu["bare"].append(c)
        fast, slow = python(str(SCRIPT), *tap_args), python(str(slow_exit), *tap_args)
        cpu["normal"].append(slow[1])
        diffs["normal"].append(slow[0] - fast[0])
        if i % 3 == 0:
            pairs = {
                "import": (python("-c", "import phonewire.frontends.cli.main"), python("-c", "pass")),
                "no_site": (python("-c", "pass"), python("-S", "-c", "pass")),
                "nocache": (python(str(SCRIPT), *tap_args, env=nocache_env), python(str(SCRIPT), *tap_args)),
            }
            for key, (a, b) in pairs.items():
                diffs[key].append(a[0] - b[0])
                cpu[key].append(a[1] - b[1])

    over = [w - d for w, d in zip(warm, direct, strict=True)]
    beyond = [o - b for o, b in zip(over, bare, strict=True)]
    print("\n== tap, wall time p50 (paired: medians of per-round differences; CPU = user + system of the process) ==")
    print(f"direct runner tap (one HTTP POST)      {ms(p50(direct))}")
    verdict = "PASS" if p50(warm) <= 0.060 else "FAIL"
    print(f"warm Python CLI tap (subprocess, X Y)  {ms(p50(warm))}   target <= 60 ms: {verdict}")
    print(f"  CLI overhead over the direct tap     {ms(p50(over))}   ratio {p50(warm) / p50(direct):.2f}x, "
          f"target <= 15 ms")  # fmt: skip
    print(f"  of which bare interpreter start      {ms(p50(bare))}   (python -c pass, same rounds)")
    print(f"  of which phonewire's own part        {ms(p50(beyond))}   (overhead - bare interpreter, per round)")
    print(f"CPU of the CLI process                 {ms(p50(cpu['warm']))}   bare interpreter {ms(p50(cpu['bare']))}"
          f"   phonewire's own {ms(p50(cpu['warm']) - p50(cpu['bare']))}")  # fmt: skip
    print(f"  site (.pth files) in the bare start  {ms(p50(cpu['no_site']))}   CPU (python -c pass - python -S)")
    print(f"  client imports                       {ms(p50(cpu['import']))}   CPU (import phonewire.frontends.cli.main"
          " - pass)")  # fmt: skip
    print(f"  baseline: a normal interpreter exit  {ms(p50(cpu['normal']))}   CPU (vs {ms(p50(cpu['warm'])).strip()}), "
          f"wall {ms(p50(diffs['normal'])).strip()} more per call")  # fmt: skip
    print(f"  sources recompiled at every start    {ms(p50(cpu['nocache']))}   CPU, wall "
          f"{ms(p50(diffs['nocache'])).strip()} more per call (PYTHONDONTWRITEBYTECODE, no cache)")  # fmt: skip
    print(f"first CLI call (daemon start + open)   {ms(cold)}")

    # -- where the overhead goes: the same client in this process (no interpreter start, no imports), and
    # `daemon status` (the socket round trip with the least daemon work), interleaved with direct taps
    os.environ.update(env)
    from phonewire.frontends.cli import client

    direct2: list[float] = []
    inproc: list[float] = []
    roundtrip: list[float] = []
    for _ in range(opts.n):
        start = time.perf_counter()
        runner.send("tap", appBundleId=app, x=x, y=y)
        direct2.append(time.perf_counter() - start)
        start = time.perf_counter()
        code, _, err = client.request([*rt, "tap", f"{x:g}", f"{y:g}"], start=False)
        inproc.append(time.perf_counter() - start)
        if code != 0:
            raise SystemExit(f"in-process client tap failed: {err}")
        start = time.perf_counter()
        client.request(["daemon", "status"], start=False)
        roundtrip.append(time.perf_counter() - start)
    overhead, interp, imports = p50(over), p50(bare), p50(diffs["import"])
    sock = p50(roundtrip)
    daemon = p50([i - d - r for i, d, r in zip(inproc, direct2, roundtrip, strict=True)])
    print("\n== CLI overhead over the direct tap, split (p50 each) ==")
    print(f"interpreter start                      {ms(interp)}   (python -c pass)")
    print(f"imports of the thin client             {ms(imports)}   (import phonewire.frontends.cli.main - bare)")
    print(f"socket round trip                      {ms(sock)}   (daemon status from this process)")
    print(f"daemon work (host session, agent core) {ms(daemon)}   (in-process client tap - direct - round trip, "
          "per round)")  # fmt: skip
    rest = overhead - interp - imports - sock - daemon
    print(f"sum of the parts                       {ms(interp + imports + sock + daemon)}   measured overhead "
          f"{ms(overhead).strip()}, rest (process exit, console-script wrapper) {ms(rest).strip()}")  # fmt: skip

    # -- ref check --------------------------------------------------------------------------------------------------
    _, raw = cli(env, *rt, "snapshot", "--json")
    data = json.loads(raw)["data"]
    by_index = {n["index"]: n for n in data["nodes"]}
    # a harmless, stable target: static text without digits (a counter's text changes when tapped), else a ref
    pick = stable_ref({r: by_index[i] for r, i in data["refs"].items()})
    if pick:
        rect = by_index[data["refs"][pick]]["rect"]
        cx, cy = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2
        ref_taps: list[float] = []
        point_taps: list[float] = []
        for _ in range(opts.n):
            ref_taps.append(cli(env, *rt, "tap", f"@{pick}")[0])
            point_taps.append(cli(env, *rt, "tap", f"{cx:g}", f"{cy:g}")[0])
        snaps = []
        for _ in range(opts.n):
            start = time.perf_counter()
            runner.send("snapshot", appBundleId=app)
            snaps.append(time.perf_counter() - start)
        print("\n== ref check (tap @eN = fresh snapshot + re-find + tap at the current centre) ==")
        print(f"CLI tap X Y (same element)             {ms(p50(point_taps))}")
        print(f"CLI tap @{pick:<6}                       {ms(p50(ref_taps))}")
        print(f"  ref check cost                       {ms(p50(ref_taps) - p50(point_taps))}")
        print(f"  direct runner snapshot (baseline)    {ms(p50(snaps))}")
        core = core_check_cost(runner, app, opts.n)
        print(f"  check in the agent core (p50)        {ms(core)}   (fresh snapshot with host preflight + re-find)")
        print(f"  pure re-find (Index + refind)        {ms(refind_cost(runner, app))}")

    # -- view sizes ---------------------------------------------------------------------------------------------------
    print("\n== agent view size per screen (characters) ==")
    print(f"{'screen':<18} {'snapshot -i':>11} {'snapshot':>9} {'--json':>8} {'lines -i':>8}")
    for name, steps in screens(env, app, rt):
        try:
            cli(env, *rt, "open", app)
            for step in steps:
                cli(env, *rt, *step)
            _, small = cli(env, *rt, "snapshot", "-i")
            _, full = cli(env, *rt, "snapshot")
            _, raw = cli(env, *rt, "snapshot", "--json")
        except SystemExit as exc:
            print(f"{name:<18} (could not reach: {str(exc).splitlines()[0][:80]})")
            continue
        raw_nodes = json.dumps(json.loads(raw)["data"]["nodes"], separators=(",", ":"))
        sizes = f"{len(small.rstrip()):>11} {len(full.rstrip()):>9} {len(raw_nodes):>8}"
        print(f"{name:<18} {sizes} {len(small.splitlines()):>8}")
    return 0


def _digits(node: Mapping[str, Any]) -> bool:
    return any(ch.isdigit() for ch in str(node.get("label") or ""))


def stable_ref(refs: Mapping[str, Mapping[str, Any]]) -> str | None:
    """A harmless, stable ref to tap again and again: a static text without digits (a counter's text changes when
    tapped), else a button, else any ref; None when the screen has none (the double's app has no such text)."""
    stable = [r for r, node in refs.items() if node["type"] == "StaticText" and not _digits(node)]
    buttons = [r for r, node in refs.items() if node["type"] == "Button"]
    return next(iter(stable or buttons or list(refs)), None)


def core_check_cost(runner: Runner, app: str, n: int) -> float:
    """``AgentSession.last_check_s`` over ``n`` ref taps on a stable text (in-process, attached host session).

    Back-to-back taps would make each check's snapshot wait for the previous tap's frame to settle, which is
    the tap's cost, not the check's; 50 ms between steps (less than an agent's think time) avoids that."""
    import asyncio

    from phonewire.agent.core import AgentSession
    from phonewire.host.session import HostSession

    async def go() -> float:
        host = HostSession(runner_addr=f"127.0.0.1:{runner.port}", write_diagnostics=False)
        try:
            session = AgentSession(host, app_id=app)
            view = await session.snapshot()
            ref = stable_ref(view.refs)
            if ref is None:
                return float("nan")
            samples = []
            for _ in range(n):
                await asyncio.sleep(0.05)  # an agent's think time: the page settles between steps, as via the CLI
                await session.tap("@" + ref)
                samples.append(session.last_check_s)
            return p50(samples)
        finally:
            await host.close()

    return asyncio.run(go())


def refind_cost(runner: Runner, app: str) -> float:
    sys.path.insert(0, str(ROOT / "src"))
    from phonewire.agent.refs import Index, refind
    from phonewire.agent.view import render

    nodes = runner.send("snapshot", appBundleId=app)["data"]["nodes"]
    rendered = render(nodes, interactive=True)
    if not rendered.refs:
        return 0.0
    ref, node = next(iter(rendered.refs.items()))
    issued = Index(nodes)
    samples = []
    for _ in range(200):
        start = time.perf_counter()
        refind(ref, node, issued, Index(nodes))
        samples.append(time.perf_counter() - start)
    return p50(samples)


if __name__ == "__main__":
    sys.exit(main())
