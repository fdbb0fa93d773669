"""WebDriver (Appium Python client) on Flask-Admin: clicking a button that opens confirm() times out, and the W3C
alert routes do not exist.

`find_elements(XPATH, '//*[@label="Delete Record"]')[0].click()` → after 75.1 s `TimeoutException: tap did not
finish within its 75.0 s budget …`; `driver.switch_to.alert.text` → `UnknownMethodException: no endpoint GET
/session/…/alert/text (docs/webdriver.md lists them)`; `page_source` → `RUNNER_BUSY … still draining`, then the
phone is restarted (same root as repro_flaskadmin_confirm_dialog_wedges_phone.py).
Expected (W3C WebDriver, "User prompts"): the click returns; Get Alert Text answers "Are you sure you want to
delete this record?"; Accept Alert / Dismiss Alert answer it; other commands answer `unexpected alert open`.
Starts its own `phonewire webdriver` (PHONEWIRE_TIME_SCALE=0.1: budgets 7.5 s) on a free port and stops it.
"""

import time

from _common import FLASKADMIN, verdict, webdriver_session
from appium.webdriver.common.appiumby import AppiumBy

with webdriver_session(f"{FLASKADMIN}/admin/book/?search=Book+00", env={"PHONEWIRE_TIME_SCALE": "0.1"}) as d:
    button = d.find_elements(AppiumBy.XPATH, '//*[@label="Delete Record"]')[0]
    t = time.monotonic()
    try:
        button.click()
        clicked = True
    except Exception as exc:  # the client raises the server's error as its own exception class
        clicked = False
        print(f"click raised after {time.monotonic() - t:.1f} s: {type(exc).__name__}: {str(exc)[:160]}")
    verdict(clicked, "the click that opens confirm() returns")
    try:
        text = d.switch_to.alert.text
        print("alert text:", text)
        verdict("Are you sure" in text, "Get Alert Text answers the dialog's message")
    except Exception as exc:
        print(f"alert text raised: {type(exc).__name__}: {str(exc)[:160]}")
        verdict(False, "Get Alert Text answers the dialog's message")
