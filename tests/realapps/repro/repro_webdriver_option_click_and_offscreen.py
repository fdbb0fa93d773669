"""WebDriver front end on Datasette: clicking an <option> element succeeds and selects nothing; an element below
the screen cannot be found at all.

* `find_element(XPATH, '//*[@label="Sort by name"]')` → a StaticText with rect 0,0,0,0; `.click()` returns
  normally; the select (`id=sort_by`) still says "Sort by id". W3C Element Click on an <option> selects it.
* `find_element(ACCESSIBILITY_ID, "Next page")` → NoSuchElementException while the link is below the screen
  (a browser's WebDriver finds it and scrolls it into view on click).
Starts its own `phonewire webdriver` on a free loopback port and stops it.
"""

import socket
import subprocess
from pathlib import Path

from _common import DATASETTE, verdict
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
    o.load_capabilities(
        {"platformName": "iOS", "appium:deviceName": "iPhone 15", "appium:app": f"{DATASETTE}/db/people"}
    )
    d = webdriver.Remote(f"http://127.0.0.1:{port}", options=o)
    try:
        opt = d.find_element(AppiumBy.XPATH, '//*[@label="Sort by name"]')
        print("option:", opt.tag_name, opt.rect)
        opt.click()
        value = d.find_element(AppiumBy.ID, "sort_by").text
        print("sort_by after the click:", value)
        verdict(value == "Sort by name", "clicking the option selects it")
        try:
            d.find_element(AppiumBy.ACCESSIBILITY_ID, "Next page")
            verdict(True, "an element below the screen can be found")
        except Exception as err:
            print("Next page ->", type(err).__name__)
            verdict(False, "an element below the screen can be found")
    finally:
        d.quit()
finally:
    server.terminate()
    server.wait(timeout=30)
