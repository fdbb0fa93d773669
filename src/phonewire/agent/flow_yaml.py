"""Reading a Maestro flow file: YAML through PyYAML's safe loader, bounded before anything is built.  No device.

A flow is one or two YAML documents: a header (``appId`` / ``url``, ``name``, ``tags``, ``env``), ``---``, then the
list of commands (a file with one document is the list alone).  What a hostile or broken file can do is bounded
here, before a single command is looked at:

* size — at most :data:`MAX_FLOW_BYTES` bytes (FLOW_TOO_LARGE);
* a "billion laughs" file — anchors and aliases make a small file stand for a huge tree: the tree the aliases would
  expand to is counted on the composed node graph (each aliased node counted once per use, memoised, so the count
  itself is cheap) and more than :data:`MAX_FLOW_NODES` nodes is FLOW_TOO_LARGE, nothing built;
* nesting deeper than :data:`MAX_FLOW_DEPTH` levels (FLOW_TOO_LARGE);
* only the safe loader's types (no Python objects, no tags of its own): anything else is FLOW_INVALID.

Each command keeps its line (1-based) in the file, for the errors that name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import yaml

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

#: A flow file's largest size (a flow of a few hundred commands is a few tens of KB).
MAX_FLOW_BYTES: Final = 256 * 1024
#: The most YAML nodes a flow may expand to, aliases expanded.
MAX_FLOW_NODES: Final = 20_000
#: The deepest nesting of a flow's YAML.
MAX_FLOW_DEPTH: Final = 40


@dataclass(frozen=True)
class RawCommand:
    """One command as written: its name, its argument (``None`` for a bare ``- back``) and its line."""

    name: str
    arg: Any
    line: int


@dataclass(frozen=True)
class FlowFile:
    header: dict[str, Any]
    commands: tuple[RawCommand, ...]
    name: str
    #: Lines of the header's keys (for errors that name one).
    header_lines: dict[str, int] = field(default_factory=dict)


def _too_large(what: str, name: str) -> ProtocolError:
    return ProtocolError(
        e.FLOW_TOO_LARGE,
        f"{name}: {what}; nothing ran",
        f"A flow is at most {MAX_FLOW_BYTES // 1024} KB and {MAX_FLOW_NODES} YAML nodes with its aliases expanded; "
        "split it with runFlow, or write repeated steps out without anchors.",
    )


def invalid(name: str, line: int | None, message: str, hint: str) -> ProtocolError:
    where = f"{name}:{line}" if line else name
    return ProtocolError(e.FLOW_INVALID, f"{where}: {message}; nothing ran", hint)


def _children(n: yaml.Node) -> list[yaml.Node]:
    if isinstance(n, yaml.SequenceNode):
        return list(n.value)
    if isinstance(n, yaml.MappingNode):
        return [part for pair in n.value for part in pair]
    return []


def _expanded_size(node: yaml.Node, name: str) -> int:
    """How many nodes ``node`` stands for with every alias expanded (FLOW_TOO_LARGE past the bounds)."""
    sizes: dict[int, int] = {}

    def size(n: yaml.Node, depth: int) -> int:
        if depth > MAX_FLOW_DEPTH:
            raise _too_large(f"nested deeper than {MAX_FLOW_DEPTH} levels", name)
        known = sizes.get(id(n))
        if known is not None:
            return known
        total = 1
        for child in _children(n):
            total += size(child, depth + 1)
            if total > MAX_FLOW_NODES:
                raise _too_large(f"it expands to more than {MAX_FLOW_NODES} YAML nodes (anchors and aliases)", name)
        sizes[id(n)] = total
        return total

    return size(node, 0)


def _documents(text: str, name: str) -> list[tuple[yaml.Node, yaml.SafeLoader]]:
    loader = yaml.SafeLoader(text)
    out = []
    total = 0
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                continue
            total += _expanded_size(node, name)
            if total > MAX_FLOW_NODES:
                raise _too_large(f"it expands to more than {MAX_FLOW_NODES} YAML nodes", name)
            out.append((node, loader))
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise invalid(name, line, f"not valid YAML ({exc.problem})", "Check the indentation and quotes there.") from exc
    except yaml.YAMLError as exc:
        raise invalid(name, None, f"not valid YAML ({exc})", "Check the file is a Maestro flow.") from exc
    except RecursionError as exc:
        raise _too_large("nested too deeply", name) from exc
    return out


class Seq(list[Any]):
    """A YAML list that knows the line of each of its items (a block's commands name their own lines)."""

    lines: list[int]


def _build(loader: yaml.SafeLoader, root: yaml.Node, name: str) -> Any:
    """The plain value of ``root`` (the safe loader's scalars; an aliased node built once and shared)."""
    built: dict[int, Any] = {}

    def value(node: yaml.Node) -> Any:
        known = built.get(id(node))
        if known is not None:
            return known
        if isinstance(node, yaml.SequenceNode):
            seq = Seq()
            seq.lines = []
            built[id(node)] = seq
            for item in node.value:
                seq.append(value(item))
                seq.lines.append(item.start_mark.line + 1)
            return seq
        if isinstance(node, yaml.MappingNode):
            mapping: dict[Any, Any] = {}
            built[id(node)] = mapping
            loader.flatten_mapping(node)  # `<<: *base` merges
            for key_node, value_node in node.value:
                key = value(key_node)
                if not isinstance(key, str | int | float | bool) and key is not None:
                    raise invalid(name, key_node.start_mark.line + 1, "a map key is not a plain value",
                                  "Keys are names such as `text:` or `id:`.")  # fmt: skip
                mapping[key] = value(value_node)
            return mapping
        try:
            scalar = loader.construct_object(node)
        except yaml.constructor.ConstructorError as exc:
            line = exc.problem_mark.line + 1 if exc.problem_mark else node.start_mark.line + 1
            raise invalid(
                name, line, str(exc.problem), "A flow holds plain YAML: strings, numbers, lists, maps."
            ) from exc
        built[id(node)] = scalar
        return scalar

    return value(root)


def parse_flow(text: str, name: str) -> FlowFile:
    """The flow in ``text`` (``name`` names it in errors): its header and its commands with their lines."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FLOW_BYTES:
        raise _too_large(f"it is over {MAX_FLOW_BYTES // 1024} KB", name)
    docs = _documents(text, name)
    if not docs or len(docs) > 2:
        raise invalid(
            name, None, f"a flow is a header, '---' and a list of commands (found {len(docs)} YAML document(s))",
            "Write `appId: dev.phonewire.demo` (or `url: https://…`), a line `---`, then `- launchApp` and more.",
        )  # fmt: skip
    header: dict[str, Any] = {}
    header_lines: dict[str, int] = {}
    if len(docs) == 2:
        head_node, loader = docs[0]
        if not isinstance(head_node, yaml.MappingNode):
            raise invalid(name, head_node.start_mark.line + 1, "the header is not a map", "E.g. `appId: my.app`.")
        value = _build(loader, head_node, name)
        header = dict(value) if isinstance(value, dict) else {}
        for key_node, _ in head_node.value:
            header_lines[str(key_node.value)] = key_node.start_mark.line + 1
    body, loader = docs[-1]
    if not isinstance(body, yaml.SequenceNode):
        raise invalid(
            name, body.start_mark.line + 1, "the commands are not a list",
            "After the header and `---`, each command is a list item: `- tapOn: \"Login\"`.",
        )  # fmt: skip
    return FlowFile(header, commands_of(loader, body, name), name, header_lines)


def commands_of(loader: yaml.SafeLoader, body: yaml.SequenceNode, name: str) -> tuple[RawCommand, ...]:
    built = _build(loader, body, name)
    return nested_commands(built, body.start_mark.line + 1, name)


def _command(value: Any, line: int, name: str) -> RawCommand:
    if isinstance(value, str):
        return RawCommand(value, None, line)
    if isinstance(value, dict) and len(value) == 1:
        ((key, arg),) = value.items()
        if isinstance(key, str):
            return RawCommand(key, arg, line)
    raise invalid(
        name, line, "a command is a name (`- back`) or a map of one name to its argument (`- tapOn: Login`)",
        "Check the indentation of this item: its options go under the command's name.",
    )  # fmt: skip


def nested_commands(value: Any, line: int, name: str) -> tuple[RawCommand, ...]:
    """The commands of a ``repeat`` / ``runFlow`` block, already built (their lines: the block's own)."""
    if not isinstance(value, list):
        raise invalid(name, line, "`commands` is not a list", "Write the block's commands as list items.")
    lines = value.lines if isinstance(value, Seq) else [line] * len(value)
    return tuple(_command(v, at, name) for v, at in zip(value, lines, strict=True))
