"""The one loader of the web device's page JavaScript: the scripts live in ``.js`` files beside the Python that
runs them (checked by ``node --check`` in the test command), read once when their module is imported."""

from __future__ import annotations

from importlib import resources


def load(name: str) -> str:
    """The text of ``name`` (a ``.js`` file of this package).  Its last line ends with a newline, so a script
    wrapped as ``f"({script})(…)"`` stays whole even when it ends with a comment."""
    return resources.files("phonewire.devices.web").joinpath(name).read_text()


#: The focused element through shadow roots and frames, as a function (active_element.js).
ACTIVE_ELEMENT = f"({load('active_element.js')})"
