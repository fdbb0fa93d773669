"""WebDriver (Appium Python client) on Flask-Admin: a page's own message box answers the W3C alert routes.

After the confirm() of a row's "Delete Record" is accepted, Flask-Admin shows the flash message "Record was
successfully deleted." (`<div class="alert alert-success" role="alert">` with a "×" button); the view lists it as
`Alert "Record was successfully deleted."` (findings 3, E11).  No user prompt is open, yet
`driver.switch_to.alert.text` → 'Record was successfully deleted.' and `accept()` succeeds by tapping its "×" (the
message disappears).  A test that waits for `alert_is_present()` after an action takes the flash for a dialog.
Expected (W3C "User prompts"): Get Alert Text / Accept / Dismiss answer `no such alert` when no page dialog is open.
Cause: `frontends/webdriver/session.py` `_alert_in()` takes any node of type Alert (right on iOS, where an Alert
is the system's); `_unhandled()` already checks `identifier == PAGE_DIALOG`, the alert routes do not.
Starts its own `phonewire webdriver` on a free port and stops it.  Deletes one book (Book 004).
"""

import socket
import subprocess
import time
from pathlib import Path

from _common import FLASKADMIN, verdict
from appium import webdriver
from appium.options.common.base import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy

PHONEWIRE = str(Path(__file__).resolve().parents[3] / ".venv" / "bin" / "phonewire")
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
server = subprocess.Popen(
    [PHONEWIRE, "webdriver", "--host", "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE, text=True
)
try:
    assert server.stdout is not None
    for line in server.stdout:
        if line.startswith("PHONEWIRE_WEBDRIVER_READY"):
            break
    o = AppiumOptions()
    caps = {"platformName": "iOS", "appium:deviceName": "iPhone 15"}
    o.load_capabilities({**caps, "appium:app": f"{FLASKADMIN}/admin/book/?search=Book+004"})
    d = webdriver.Remote(f"http://127.0.0.1:{port}", options=o)
    try:
        d.find_elements(AppiumBy.XPATH, '//*[@label="Delete Record"]')[0].click()
        d.switch_to.alert.accept()  # the real confirm(): OK
        time.sleep(0.5)
        print("flash shown:", "successfully deleted" in d.page_source)
        try:
            text = d.switch_to.alert.text
            print("alert text with no dialog open:", repr(text))
            d.switch_to.alert.accept()
            print("accept() returned; flash still shown:", "successfully deleted" in d.page_source)
            verdict(False, "no alert is present once the confirm() was answered")
        except Exception as exc:  # NoAlertPresentException, as W3C says
            print(f"alert text raised {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
            verdict(True, "no alert is present once the confirm() was answered")
    finally:
        d.quit()
finally:
    server.terminate()
    server.wait(30)
