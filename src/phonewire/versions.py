"""The versions, in a leaf module (it imports nothing): the package's own and the wire protocol's.

The package root re-exports both (``phonewire.__version__``); :mod:`phonewire.protocol.commands` and the CLI's thin
client read them here, so the ground floor never imports the package root.
"""

__version__ = "0.1.0"
#: The wire protocol's version (runner ``status``/``uptime`` report it; the CLI client sends it to its daemon).
PROTOCOL_VERSION = 1
