"""The iOS backend: WebDriverAgent over HTTP (docs/ios.md).  Imported only when an ios device is built."""

from phonewire.devices.ios.device import IosDevice

__all__ = ["IosDevice"]
