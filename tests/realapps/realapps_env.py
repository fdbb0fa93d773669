"""Real third-party apps, installed from the registries, served on loopback for the realapp tests (conftest.py
re-exports the fixtures; the tests import their helpers from here).

* ``django_admin``: Django's own admin (Django from the ``dev`` extra) in a throwaway project: sqlite in a tmp dir,
  migrated once per session, a superuser, a few users and groups, ``runserver --noreload`` on a free loopback port,
  stopped by its pid at teardown.
* ``datasette``: Datasette (from the Python package index, into its own venv by scripts/realapps.sh) serving a
  300-row sqlite database made for the session, on a free loopback port, stopped by its pid at teardown.
* ``todomvc``: TodoMVC's vanilla-JS example from the npm package ``todomvc`` (installed by scripts/realapps.sh into
  tests/realapps/node), served by an http.server thread.
* ``ionic``: a page of Ionic's components from the npm package ``@ionic/core`` (same place), tests/realapps/ionic.
* ``mkdocs_site``: a small site built by mkdocs-material (from the Python package index, into tests/realapps/pyenv).
* ``dash_app``: tests/realapps/apps/dash_cities.py, a small Dash app (Dash from the Python package index, in
  tests/realapps/pyenv), on a free loopback port, stopped by its pid at teardown.
* ``jupyterlab``: JupyterLab (from the Python package index, in tests/realapps/jupyenv) serving an empty directory
  with a random token, its settings and runtime files in the test's tmp dir, stopped by its pid at teardown.
* ``swagger``: Swagger UI's static build from the npm package ``swagger-ui-dist`` (same place), served by an
  http.server thread with a one-operation OpenAPI spec and the tiny API it describes (``/api/pets/ID``).

Every test here drives them through phonewire's public front ends only: the Python API and the CLI as a subprocess.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest

from loopback import QuietFiles, free_port, serving

HERE = Path(__file__).resolve().parent
TODOMVC_DIR = HERE / "node" / "node_modules" / "todomvc" / "examples" / "vanillajs"

ADMIN_USER = "admin"
ADMIN_PASSWORD = "phonewire-admin-pw"  # a throwaway superuser of a throwaway sqlite file
USERS = ("alice", "bob", "carol")
GROUPS = ("editors", "viewers")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).parent == HERE:
            item.add_marker(pytest.mark.realapp)
            item.add_marker(pytest.mark.e2e)


def wait_http(url: str, proc: subprocess.Popen[bytes] | None = None, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode} before answering {url}") from None
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def not_installed(what: str, *, npm: bool = False) -> NoReturn:
    """A realapp that scripts/realapps.sh did not install: the test skips (CI fails it instead)."""
    message = f"{what} is not installed: run bash scripts/realapps.sh" + (" (needs npm)" if npm else "")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@contextlib.contextmanager
def server(
    argv: list[str], cwd: Path, log: Path, ready: str, *, env: dict[str, str] | None = None, timeout: float = 30.0
) -> Iterator[subprocess.Popen[bytes]]:
    """A server process (``argv`` in ``cwd``, its output in ``log``), once ``ready`` answers; stopped by its pid."""
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            wait_http(ready, proc, timeout)
            yield proc
        finally:
            stop_pid(proc)


def stop_pid(proc: subprocess.Popen[Any]) -> None:
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)


# ----------------------------------------------------------------------------------------------------------- Django

SETTINGS = """\
from pathlib import Path
BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "phonewire-realapps-throwaway"
DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
    "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles",
]
MIDDLEWARE = [
    "pwsite.slow.SlowMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "pwsite.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [], "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins; a test database only
USE_TZ = True
STATIC_URL = "static/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
"""

URLS = """\
from django.contrib import admin
from django.http import HttpResponseRedirect
from django.urls import path


def slow(request, on):
    response = HttpResponseRedirect(request.GET.get("next", "/admin/"))
    if on:
        response.set_cookie("pw_slow", "1")
    else:
        response.delete_cookie("pw_slow")
    return response


urlpatterns = [
    path("admin/", admin.site.urls),
    path("slow-on/", slow, {"on": True}),
    path("slow-off/", slow, {"on": False}),
]
"""

# A slow server, on request: with the cookie set by /slow-on/, every admin page answers SLOW_S late, so a
# snapshot taken right after a tap that navigates deterministically meets the page still loading.
SLOW_S = 1.0
MIDDLEWARE = f"""\
import time


class SlowMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.COOKIES.get("pw_slow") and request.path.startswith("/admin/"):
            time.sleep({SLOW_S})
        return self.get_response(request)
"""

SEED = f"""\
from django.contrib.auth.models import Group, User
User.objects.create_superuser({ADMIN_USER!r}, "admin@example.invalid", {ADMIN_PASSWORD!r})
for name in {USERS!r}:
    User.objects.create_user(name, name + "@example.invalid", "pw-" + name)
for name in {GROUPS!r}:
    Group.objects.create(name=name)
"""


@dataclass
class DjangoAdmin:
    base: str  # http://127.0.0.1:PORT
    db: Path
    proc: subprocess.Popen[bytes]

    @property
    def login_url(self) -> str:
        return self.base + "/admin/login/?next=/admin/"

    def query(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        with contextlib.closing(sqlite3.connect(self.db, timeout=10)) as db:
            return list(db.execute(sql, args))

    def groups(self) -> list[str]:
        return [r[0] for r in self.query("SELECT name FROM auth_group ORDER BY name")]

    def users(self) -> list[str]:
        return [r[0] for r in self.query("SELECT username FROM auth_user ORDER BY username")]

    def add_group(self, name: str) -> None:
        with contextlib.closing(sqlite3.connect(self.db, timeout=10)) as db, db:
            db.execute("INSERT INTO auth_group (name) VALUES (?)", (name,))


def manage(root: Path, *argv: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(root), DJANGO_SETTINGS_MODULE="pwsite.settings")
    subprocess.run([sys.executable, "-m", "django", *argv], cwd=root, env=env, check=True, capture_output=True)


@pytest.fixture(scope="session")
def django_admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DjangoAdmin]:
    pytest.importorskip("django", reason="Django comes with the dev extra: bash scripts/setup.sh")
    root = tmp_path_factory.mktemp("django")
    (root / "pwsite").mkdir()
    (root / "pwsite" / "__init__.py").write_text("")
    (root / "pwsite" / "settings.py").write_text(SETTINGS)
    (root / "pwsite" / "urls.py").write_text(URLS)
    (root / "pwsite" / "slow.py").write_text(MIDDLEWARE)
    manage(root, "migrate", "--noinput")
    manage(root, "shell", "-c", SEED)
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(root), DJANGO_SETTINGS_MODULE="pwsite.settings")
    argv = [sys.executable, "-m", "django", "runserver", f"127.0.0.1:{port}", "--noreload"]
    base = f"http://127.0.0.1:{port}"
    with server(argv, root, root / "runserver.log", base + "/admin/login/", env=env) as proc:
        yield DjangoAdmin(base, root / "db.sqlite3", proc)


# ---------------------------------------------------------------------------------------------------------- TodoMVC


@dataclass
class StaticSite:
    base: str


@pytest.fixture(scope="session")
def todomvc() -> Iterator[StaticSite]:
    if not (TODOMVC_DIR / "index.html").is_file():
        not_installed("TodoMVC", npm=True)
    with serving(TODOMVC_DIR, name="realapps-static") as base:
        yield StaticSite(base.rstrip("/"))


# ------------------------------------------------------------------------------------- canvas pages (Chart.js, Phaser)

CANVAS_PAGES = HERE / "ocr"


@pytest.fixture(scope="session")
def canvas_pages() -> Iterator[StaticSite]:
    """tests/realapps served on loopback: ``base + "/ocr/chart.html"`` (Chart.js) and ``"/ocr/game.html"`` (Phaser 3),
    whose libraries come from the npm packages scripts/realapps.sh installs."""
    if not all((HERE / "node" / "node_modules" / p).is_dir() for p in ("chart.js", "phaser")):
        message = "chart.js / phaser are not installed: run bash scripts/realapps.sh (needs npm)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with serving(HERE, name="realapps-canvas") as base:
        yield StaticSite(base.rstrip("/"))


# ----------------------------------------------------------------------------------------------------------- Ionic

IONIC_CORE = HERE / "node" / "node_modules" / "@ionic" / "core"


@pytest.fixture(scope="session")
def ionic() -> Iterator[StaticSite]:
    """tests/realapps served on loopback: ``base + "/ionic/index.html"`` is a page of Ionic's own components (tabs,
    a search bar over a list, a select, toggles, a toast, a dialog, a bottom sheet, a reorder list) from the npm
    package ``@ionic/core`` (its dist bundle, installed by scripts/realapps.sh), in its iOS look."""
    if not (IONIC_CORE / "dist" / "ionic" / "ionic.esm.js").is_file():
        not_installed("@ionic/core", npm=True)
    with serving(HERE, name="realapps-ionic") as base:
        yield StaticSite(base.rstrip("/"))


# ---------------------------------------------------------------------------------------------- mkdocs-material

MKDOCS_BIN = HERE / "pyenv" / "bin" / "mkdocs"
MKDOCS_YML = """\
site_name: Loopback Docs
theme:
  name: material
  features: [content.code.copy]
  palette:
    - scheme: default
      toggle: {icon: material/brightness-7, name: Switch to dark mode}
    - scheme: slate
      toggle: {icon: material/brightness-4, name: Switch to light mode}
plugins: [search]
nav: [{Home: index.md}, {Guide: guide.md}]
"""
MKDOCS_PAGES = {
    "index.md": "# Welcome\n\nInstall the tool, then run it.\n\n```bash\npip install loopback-tool\n```\n\n"
    "## Usage\n\nRun `loopback --help` to see every option.\n",
    "guide.md": "# Guide\n\nThe guide explains searching and copying.\n",
}


@pytest.fixture(scope="session")
def mkdocs_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticSite]:
    """A two-page site built by mkdocs-material (installed by scripts/realapps.sh into tests/realapps/pyenv): a
    palette toggle, the header's menu and search, a code block with its copy button; served on loopback."""
    if not MKDOCS_BIN.is_file():
        not_installed("mkdocs-material")
    root = tmp_path_factory.mktemp("mkdocs")
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text(MKDOCS_YML)
    for name, text in MKDOCS_PAGES.items():
        (root / "docs" / name).write_text(text)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run([str(MKDOCS_BIN), "build", "-q", "-d", "site"], cwd=root, env=env, check=True, capture_output=True)
    with serving(root / "site", name="realapps-mkdocs") as base:
        yield StaticSite(base.rstrip("/"))


# ------------------------------------------------------------------------------------------------------- Swagger UI

SWAGGER_DIST = HERE / "node" / "node_modules" / "swagger-ui-dist"
PETS = {"1": {"id": 1, "name": "Rex", "status": "available"}, "2": {"id": 2, "name": "Tom", "status": "sold"}}
SWAGGER_INIT = """window.onload = function () {
  window.ui = SwaggerUIBundle({url: "./openapi.json", dom_id: "#swagger-ui", deepLinking: false,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: "StandaloneLayout"});
};
"""


def swagger_spec(base: str) -> dict[str, Any]:
    """One operation, GET /api/pets/{petId}, against the tiny API the same server answers."""
    pet = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Loopback Pets", "version": "1.0.0"},
        "servers": [{"url": base}],
        "paths": {
            "/api/pets/{petId}": {
                "get": {
                    "tags": ["pets"],
                    "summary": "Find a pet by id",
                    "operationId": "getPet",
                    "parameters": [{"name": "petId", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "responses": {
                        "200": {"description": "the pet", "content": {"application/json": {"schema": pet}}},
                        "404": {"description": "no such pet"},
                    },
                }
            }
        },
    }


class SwaggerHandler(QuietFiles):
    """swagger-ui-dist's files, our initializer and spec, and the API: ``/api/pets/ID`` answers the pet as JSON."""

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        body: bytes | None = None
        status = 200
        if path == "/swagger-initializer.js":
            body, kind = SWAGGER_INIT.encode(), "text/javascript"
        elif path == "/openapi.json":
            body, kind = json.dumps(swagger_spec(f"http://{self.headers['Host']}")).encode(), "application/json"
        elif path.startswith("/api/pets/"):
            pet = PETS.get(path.rsplit("/", 1)[1])
            status = 200 if pet else 404
            body, kind = json.dumps(pet or {"error": "no such pet"}).encode(), "application/json"
        if body is None:
            super().do_GET()
            return
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="session")
def swagger() -> Iterator[StaticSite]:
    if not (SWAGGER_DIST / "swagger-ui-bundle.js").is_file():
        not_installed("Swagger UI", npm=True)
    with serving(SWAGGER_DIST, SwaggerHandler, name="realapps-swagger") as base:
        yield StaticSite(base.rstrip("/"))


# -------------------------------------------------------------------------------------------------------- Datasette

DATASETTE_BIN = HERE / "pyenv" / "bin" / "datasette"
CITIES = ("Paris", "Berlin", "Lisbon", "Oslo", "Rome", "Madrid")


@dataclass
class Datasette:
    base: str  # http://127.0.0.1:PORT
    db: Path
    proc: subprocess.Popen[bytes]

    def query(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        with contextlib.closing(sqlite3.connect(self.db, timeout=10)) as db:
            return list(db.execute(sql, args))


def people_db(path: Path) -> None:
    """300 people: id, name ("Person N"), age 18–90, city, email, joined (a date), the same on every run."""
    rng = random.Random(1)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, age INTEGER, city TEXT, email TEXT, "
                   "joined TEXT)")  # fmt: skip
        db.executemany(
            "INSERT INTO people VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    i,
                    f"Person {i}",
                    rng.randint(18, 90),
                    rng.choice(CITIES),
                    f"person{i}@example.com",
                    f"2020-{i % 12 + 1:02d}-{i % 28 + 1:02d}",
                )
                for i in range(1, 301)
            ],
        )


@pytest.fixture(scope="session")
def datasette(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Datasette]:
    """Datasette (installed by scripts/realapps.sh into tests/realapps/pyenv) serving a fresh 300-row database on a
    free loopback port; stopped by its pid at teardown."""
    if not DATASETTE_BIN.is_file():
        not_installed("Datasette")
    root = tmp_path_factory.mktemp("datasette")
    db = root / "db.sqlite"
    people_db(db)
    port = free_port()
    argv = [str(DATASETTE_BIN), "serve", str(db), "--host", "127.0.0.1", "--port", str(port)]
    base = f"http://127.0.0.1:{port}"
    with server(argv, root, root / "datasette.log", base + "/db/people.json") as proc:
        yield Datasette(base, db, proc)


# ------------------------------------------------------------------------------------------------------------ Dash

DASH_APP = HERE / "apps" / "dash_cities.py"
PYENV_PYTHON = HERE / "pyenv" / "bin" / "python"


@pytest.fixture
def dash_app(tmp_path: Path) -> Iterator[str]:
    """tests/realapps/apps/dash_cities.py, run by Dash (installed by scripts/realapps.sh into tests/realapps/pyenv)
    on a free loopback port; its base URL; stopped by its pid at teardown."""
    if subprocess.run([str(PYENV_PYTHON), "-c", "import dash"], capture_output=True, check=False).returncode != 0:
        not_installed("Dash")
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    with server([str(PYENV_PYTHON), str(DASH_APP), str(port)], tmp_path, tmp_path / "dash.log", base):
        yield base


# ------------------------------------------------------------------------------------------------------ JupyterLab

JUPYTERLAB_BIN = HERE / "jupyenv" / "bin" / "jupyter-lab"


@dataclass
class JupyterLab:
    url: str  # the lab's page, its token in the query
    root: Path  # the directory it serves: what the lab creates lands here


@pytest.fixture
def jupyterlab(tmp_path: Path) -> Iterator[JupyterLab]:
    """JupyterLab (installed by scripts/realapps.sh into tests/realapps/jupyenv) serving an empty directory on a free
    loopback port with a random token; its settings, workspaces and runtime files in the test's tmp dir (none read
    from or written to the user's home); stopped by its pid at teardown."""
    if not JUPYTERLAB_BIN.is_file():
        not_installed("JupyterLab")
    root = tmp_path / "notebooks"
    home = tmp_path / "jupyter-home"
    root.mkdir()
    port, token = free_port(), f"{random.getrandbits(128):032x}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "PHONEWIRE_"))}
    env.update(
        HOME=str(home),
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
    )
    argv = [str(JUPYTERLAB_BIN), "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}"]
    argv += [f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}"]
    base = f"http://127.0.0.1:{port}"
    with server(argv, root, tmp_path / "jupyterlab.log", base + "/api", env=env, timeout=60):
        yield JupyterLab(f"{base}/lab?token={token}", root)


# ------------------------------------------------------------------------------------------------------ front ends


@dataclass
class CliResult:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


class Cli:
    """``python -m phonewire ARGV`` as a subprocess, with a private daemon directory; stops its daemon by pid."""

    def __init__(self, tmp: Path) -> None:
        self.dir = tmp / "daemon"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("PHONEWIRE_")}
        self.env.update(PHONEWIRE_DAEMON_DIR=str(self.dir), PHONEWIRE_STATE_DIR=str(tmp / "state"))
        self.pids: set[int] = set()

    def __call__(self, *argv: str) -> CliResult:
        proc = subprocess.run(
            [sys.executable, "-m", "phonewire", *argv],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
        with contextlib.suppress(OSError, ValueError):
            self.pids.add(int((self.dir / "daemon.pid").read_text()))
        return CliResult(proc.returncode, proc.stdout, proc.stderr)

    def close(self) -> None:
        self("daemon", "stop")
        for pid in self.pids:
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and pid_alive(pid):
                time.sleep(0.05)
            if pid_alive(pid):
                os.kill(pid, signal.SIGKILL)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    with contextlib.suppress(OSError):
        if "zombie" in Path(f"/proc/{pid}/status").read_text().lower():
            return False
    return True


@pytest.fixture
def cli(tmp_path: Path) -> Iterator[Cli]:
    c = Cli(tmp_path)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture
def phone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    import phonewire

    monkeypatch.setenv("PHONEWIRE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)
    with phonewire.Phone(device="web") as p:
        yield p
