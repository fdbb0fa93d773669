"""``fill``: focus a text field, clear its current value, type the text — and never report a field cleared that is
not, nor leave a field emptied by a fill that failed.

A number field or a slider (:data:`VALUE_ROLES`) has its value set whole instead; a read-only field, a select (its
options are chosen: ``select``) or one that takes no text is refused before any tap.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from phonewire.agent.checks import MAX_CLEAR, invalid, uncleared
from phonewire.agent.geometry import centre, point_of, visible_box
from phonewire.agent.link import Link
from phonewire.agent.refs import Index, refind
from phonewire.agent.resolve import Resolver
from phonewire.agent.results import ActionResult, Reply, action_result
from phonewire.agent.view import closed_select_options, node_line
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import TEXT_INPUT_ROLES, Node

#: Roles whose value ``fill`` sets whole (a number field, a slider) instead of typing into them.
VALUE_ROLES = frozenset({"Stepper", "Slider"})
#: Between two taps of ``fill`` on the same spot (longer than a double tap's window).
REFOCUS_PAUSE_S = 0.4


async def fill(link: Link, resolver: Resolver, target: str, text: str) -> ActionResult:
    point = point_of(target)
    original = ""
    if point is not None:
        info, envs, cleared = await _fill_at(link, resolver, point)
    else:
        node, ref, found_in = await resolver.find(target, editable=True)
        resolver.check_place(node, found_in, target)
        if node.get("readOnly"):  # refused before any tap: the same code as typing into it would get
            raise ProtocolError(
                e.TEXT_INPUT_NOT_FOCUSED,
                f"{target!r} ({node_line(node)}) is read-only: it takes no typing",
                "Its own widget sets it: tap it to open its picker (a calendar, a list), snapshot, and tap "
                "the value you want there.",
            )
        if node.get("type") in VALUE_ROLES:
            return await _set_whole(link, node, ref, found_in, text)
        if node.get("type") == "ComboBox" and int(node["index"]) in closed_select_options(found_in.nodes):
            # refused before any tap (the tap would open it)
            raise invalid(
                f"fill types text, and {target!r} ({node_line(node)}) is a select: its options are chosen, not typed",
                f"Choose the option by its text: `select {target} {json.dumps(text, ensure_ascii=False)}` (its "
                "options are listed under it in `snapshot`).",
            )
        if node.get("type") not in TEXT_INPUT_ROLES:
            raise invalid(
                f"fill needs a text field, and {target!r} is a {node.get('type')}",
                "Name a TextField/SecureTextField/SearchField/TextView/ComboBox, or use `tap` then `type`.",
            )
        info = {"target": {"ref": ref, "type": node.get("type"), "label": node.get("label")}}
        original = str(node.get("value") or "")
        envs, cleared = await _focus_and_clear(link, ref or "field", node, found_in)
    if text:
        envs.append(await _type(link, text, None if point else node, original))
    data = dict((envs[-1] if text else envs[0]).data or {})
    data.update(info)
    data["cleared"] = cleared
    warnings = "; ".join(env.warning for env in envs if env.warning)
    return ActionResult(data, warnings or None, any(env.reactivated for env in envs))


async def _type(link: Link, text: str, node: Node | None, original: str) -> Reply:
    """Type ``text`` into the field ``node`` (None: whatever field a point's tap focused) that was just focused
    and cleared.  Refused, with what happened, when the field did not keep focus; a field whose read-back refused
    the text gets its old value back."""
    typing: dict[str, Any] = {"text": text}
    if node is not None and node.get("serial"):
        typing["element"] = str(node["serial"])  # typed only while that field has focus (ELEMENT_MOVED else)
    try:
        return await link.send(c.TYPE, typing, app=True)
    except ProtocolError as exc:
        if exc.code == e.TEXT_INPUT_NOT_FOCUSED and node is not None:
            raise _focus_lost(exc, node) from exc
        if exc.code != e.INVALID_REQUEST or node is None or not original:
            raise
        raise await _restore(link, exc, original) from exc


def _focus_lost(failed: ProtocolError, node: Node) -> ProtocolError:
    """The device's "no editable element has focus" after fill focused the field: what fill did (tapped it, or
    found it focused and left it untapped) and that the field lost focus; never "tap a text field first"."""
    found_focused = bool(node.get("focused")) and node.get("type") != "TextView"
    did = "found it focused and did not tap it" if found_focused else "tapped it"
    return ProtocolError(
        failed.code,
        f"fill {did}, but the field did not have focus when the text was to be typed ({failed.message}): "
        "nothing was typed",
        "The page moved focus away (a widget of its own closed the editor, or opened a picker): take a "
        "`snapshot` and act on what shows now; if the field is back as it was, fill it again.",
    )


async def _fill_at(
    link: Link, resolver: Resolver, point: tuple[float, float]
) -> tuple[dict[str, Any], list[Reply], int]:
    """``fill X Y``: tap the point, then clear the text field the tap focused as ``fill @eN`` clears it (a point
    names the field where it is; its old value is not kept in front of the new one)."""
    envs = [await link.send(c.TAP, {"x": point[0], "y": point[1]}, app=True)]
    fresh = Index((await link.snapshot())["nodes"])
    focused = [n for n in fresh.nodes if n.get("focused") and n.get("type") in TEXT_INPUT_ROLES]
    if len(focused) != 1:
        return {}, envs, 0  # no field took focus: typing refuses (TEXT_INPUT_NOT_FOCUSED) with what has it
    node = focused[0]
    ref = resolver.ref_for(node, fresh)
    info = {"target": {"ref": ref, "type": node.get("type"), "label": node.get("label")}}
    more, cleared = await _focus_and_clear(link, ref, node, fresh)
    return info, envs + more, cleared


async def _restore(link: Link, failed: ProtocolError, original: str) -> ProtocolError:
    """``fill`` cleared a field and the field did not take the text (its read-back failed: a date field given
    another format): type its old value back, so a failed fill leaves the field as it was, and say so."""
    try:
        await link.send(c.TYPE, {"text": original}, app=True)
    except ProtocolError as exc:
        note = f"; setting the field back to {original!r} failed too ({exc.message}): it may be empty"
    else:
        note = f"; the field was set back to {original!r}, as it was before the fill"
    return ProtocolError(failed.code, failed.message + note, failed.hint)


async def _set_whole(link: Link, node: Node, ref: str | None, found_in: Index, text: str) -> ActionResult:
    """``fill`` on a number field or slider: its value set whole, in the input's own format, and read back."""
    x, y = centre(node, found_in)
    env = await link.send(c.SET_VALUE, {"x": x, "y": y, "values": [text]}, app=True)
    info = {"target": {"ref": ref, "type": node.get("type"), "label": node.get("label")}, "cleared": 0, "whole": True}
    data = env.data or {}
    if data.get("type") == "slider":  # a slider the page draws, dragged: the value its page shows now
        took, drags = str(data.get("value")), data.get("drags", 0)
        how = f"its thumb dragged {drags} time(s)" if drags else "it was there already"
        same = _as_number(took) == _as_number(text)
        message = f"set to {took!r} ({how})" + ("" if same else f": asked {text!r}, the closest it took")
        return action_result(env, {"message": message, **info})
    return action_result(env, {"message": f"set to {text!r}", **info})


async def _focus_and_clear(link: Link, ref: str, node: Node, found_in: Index) -> tuple[list[Reply], int]:
    """Tap the text field ``node`` near its end and delete its value.  The caret lands where the tap does, which is
    before the end of a value wider than the field or spread over several lines (and the snapshot collapses
    whitespace), so after the deletes a fresh snapshot checks that the field is empty; while text is left and the
    last round removed some, tap the end again and delete the rest.  Never reports a field cleared that is not."""
    envs: list[Reply] = []
    cleared = 0
    first = True
    while True:
        multi_line = node.get("type") == "TextView"
        if first and node.get("focused") and not multi_line:
            # it has focus already: not tapped again (a tap on an inline editor being edited may close it); the
            # caret goes to the end of its line by the keyboard's End instead
            envs.append(await link.send(c.KEY, {"key": "lineEnd"}, app=True))
        else:
            left, top, width, height = visible_box(node, found_in)
            # Tap near the end of the field so the caret lands after the existing text: the right end of a line;
            # of a multi-line field the bottom right (below the last line), clear of the resize grip.
            x = left + max(width / 2, width - min(24.0 if multi_line else 12.0, width / 4))
            y = top + (max(height / 2, height - min(6.0, height / 4)) if multi_line else height / 2)
            tap: dict[str, Any] = {"x": x, "y": y}
            if node.get("serial"):
                tap["element"] = str(node["serial"])  # sent only if the point reaches the field (aiming.py)
            envs.append(await link.send(c.TAP, tap, app=True))
        first = False
        value = str(node.get("value") or "")
        deletes = min(len(value), MAX_CLEAR - cleared)
        if not value:
            return envs, cleared
        if deletes <= 0:
            raise uncleared(node, cleared)
        for _ in range(deletes):
            envs.append(await link.send(c.KEYBOARD_DELETE, app=True))
        cleared += deletes
        fresh = Index((await link.snapshot())["nodes"])
        now = refind(ref, node, found_in, fresh)
        remaining = str(now.get("value") or "")
        if not remaining:
            return envs, cleared
        if len(remaining) >= len(value):
            raise uncleared(now, cleared)
        node, found_in = now, fresh
        # The next tap lands where the last one did: apart by more than a double tap's window, or the phone
        # takes the pair for a double tap (a word selection) and leaves the caret where it was.
        await asyncio.sleep(REFOCUS_PAUSE_S)


def _as_number(text: str) -> float | str:
    """``text`` as a number where it reads as one (``64.0`` is ``64``), else itself."""
    try:
        return float(text)
    except ValueError:
        return text
