"""phonewire: drive a phone's UI from an AI agent or a test script."""

__version__ = "0.1.0"
__all__ = ["__version__"]
