"""The W3C WebDriver front end (``phonewire webdriver``): Appium and Selenium clients, and Selenium Grid relay
nodes, drive phonewire phones.  docs/webdriver.md documents it.

Modules: :mod:`.server` (HTTP, admission, the command), :mod:`.routes` (the endpoint table, sessions),
:mod:`.session` (one session: elements, gestures), :mod:`.capabilities`, :mod:`.source` (XML page source, finders),
:mod:`.actions` (W3C actions → gestures), :mod:`.mobile` (``mobile:`` commands), :mod:`.errors` (the one error
table).
"""

from phonewire.frontends.webdriver.errors import PHONEWIRE_TO_W3C, W3C_STATUS, WebDriverError
from phonewire.frontends.webdriver.routes import ROUTES, Service

__all__ = ["PHONEWIRE_TO_W3C", "ROUTES", "W3C_STATUS", "Service", "WebDriverError"]
