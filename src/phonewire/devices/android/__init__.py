"""The Android device backend: adb discovery, uiautomator2's on-device agent, hierarchy dumps → snapshots.

``device.AndroidDevice`` is imported lazily by :func:`phonewire.devices.create_device` (``--device android[:SERIAL]``),
so that other device kinds never pay for uiautomator2's imports.  See docs/android.md.
"""
