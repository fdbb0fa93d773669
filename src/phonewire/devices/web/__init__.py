"""The web phone: headless Chromium driven over the DevTools protocol (``--device web[:PROFILE]``).

The backend is :class:`phonewire.devices.web.device.WebDevice`; docs/web.md describes it.  Imported lazily by
:func:`phonewire.devices.create_device`, so this package's ``__init__`` imports nothing.
"""
