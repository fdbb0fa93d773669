"""The one loader of the web device's page JavaScript: the scripts live in ``.js`` files beside the Python that
runs them (checked by ``node --check`` in the test command), read once when their module is imported."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources


def load(name: str) -> str:
    """The text of ``name`` (a ``.js`` file of this package).  Its last line ends with a newline, so a script
    wrapped as ``f"({script})(…)"`` stays whole even when it ends with a comment."""
    return resources.files("phonewire.devices.web").joinpath(name).read_text()


def bundle(names: Sequence[str], *, params: Sequence[str] = (), returns: str | None = None) -> str:
    """The scripts ``names`` joined, in order, as the body of one strict function of ``params`` (they share its
    local names, as the parts of one file would); with ``returns``, that script (an expression) is its value.  The
    one place page scripts are put together: what the parts do is theirs."""
    head = f'(function ({", ".join(params)}) {{ "use strict";'
    parts = [load(name) for name in names]
    tail = [f"return ({load(returns)});"] if returns is not None else []
    return "\n".join([head, *parts, *tail, "})"])


#: The focused element through shadow roots and frames, as a function (active_element.js).
ACTIVE_ELEMENT = f"({load('active_element.js')})"


def lending(name: str) -> str:
    """The function expression of ``name`` (a ``.js`` file whose function calls ``lendClick``) with lend_click.js's
    function bound to that name: the one lending of a click handler to the element under the finger, shared by the
    tap's, the double tap's and the long press's guards."""
    return f"((lendClick) => {load(name)})({load('lend_click.js')})"
