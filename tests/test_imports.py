"""The import graph's house rules, read from the source (nothing is imported): no circle among the imports a module
runs when it is loaded, no arrow from a lower floor to a higher one (lazy imports inside functions included), the
front ends reach devices only through the registry, and the versions live in a leaf."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
#: The floors, lowest first: a module may import its own floor and those below it, never one above.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("versions",),
    ("protocol",),
    ("runtime", "lifeline"),
    ("devices",),
    ("runner",),
    ("host",),
    ("agent",),
    ("frontends", "api"),
    ("demo", "__init__", "__main__"),
)
#: What a front end may import of the devices: the registry (it names the kinds and builds their specs).
DEVICES_FOR_FRONT_ENDS = "phonewire.devices.registry"


def _modules() -> dict[str, Path]:
    found = {}
    for path in SRC.joinpath("phonewire").rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _targets(node: ast.stmt) -> Iterator[str]:
    """The phonewire modules an import statement loads (``from phonewire.x import y`` is ``phonewire.x.y`` when y is
    a module)."""
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names if a.name.startswith("phonewire"))
    elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("phonewire") and not node.level:
        for a in node.names:
            full = f"{node.module}.{a.name}"
            yield full if full in MODULES else node.module


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _loaded_at_import(body: list[ast.stmt]) -> Iterator[str]:
    """The imports a module runs when it is loaded: its top level, not functions, not ``if TYPE_CHECKING``."""
    for node in body:
        if _is_type_checking(node):
            continue
        yield from _targets(node)
        if isinstance(node, ast.If | ast.Try | ast.With):
            for block in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])):
                yield from _loaded_at_import(block)


def _graph(*, lazy: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if lazy:
            found = {t for node in ast.walk(tree) if isinstance(node, ast.stmt) for t in _targets(node)}
        else:
            found = set(_loaded_at_import(tree.body))
        graph[name] = {t for t in found if t in MODULES and t != name}
    return graph


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), set()) - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other (each circle once, its modules sorted)."""
    reach = {name: _reach(graph, name) for name in graph}
    groups = {tuple(sorted(n for n in reach[name] if name in reach[n])) for name in graph if name in reach[name]}
    return sorted(list(group) for group in groups)


def _floor(module: str) -> int:
    part = module.split(".")[1] if "." in module else "__init__"
    for n, floor in enumerate(FLOORS):
        if part in floor:
            return n
    raise AssertionError(f"{module} is on no floor: add its package to FLOORS")


def test_no_circle_among_the_imports_a_module_runs_when_it_is_loaded() -> None:
    assert _circles(_graph(lazy=False)) == []


def test_no_circle_through_lazy_or_type_only_imports_either() -> None:
    """The flow runner, loaded by a session on its first ``flow run``, names the operations it calls in its own
    protocol (``flow_run.FlowSession``, which mypy checks the session against), not by importing the session."""
    assert _circles(_graph(lazy=True)) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_runs_from_a_lower_floor_up() -> None:
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in _graph(lazy=True).items()
        for target in targets
        if _floor(target) > _floor(module)
    )
    assert upward == []


def test_front_ends_reach_devices_only_through_the_registry() -> None:
    direct = sorted(
        f"{module} -> {target}"
        for module, targets in _graph(lazy=True).items()
        if module.startswith("phonewire.frontends.")
        for target in targets
        if target.startswith("phonewire.devices") and target != DEVICES_FOR_FRONT_ENDS
    )
    assert direct == []


def test_the_versions_are_a_leaf_and_read_from_it() -> None:
    tree = ast.parse(MODULES["phonewire.versions"].read_text(encoding="utf-8"))
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    from_root = sorted(
        name
        for name, path in MODULES.items()
        if name != "phonewire"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module == "phonewire"
        and {a.name for a in node.names} & {"__version__", "PROTOCOL_VERSION"}
    )  # fmt: skip
    assert from_root == [], "read the versions from phonewire.versions, not the package root"
