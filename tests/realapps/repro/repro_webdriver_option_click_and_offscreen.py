"""WebDriver front end on Datasette: clicking an <option> element succeeds and selects nothing; an element below
the screen cannot be found at all.

* `find_element(XPATH, '//*[@label="Sort by name"]')` → a StaticText with rect 0,0,0,0; `.click()` returns
  normally; the select (`id=sort_by`) still says "Sort by id". W3C Element Click on an <option> selects it.
* `find_element(ACCESSIBILITY_ID, "Next page")` → NoSuchElementException while the link is below the screen
  (a browser's WebDriver finds it and scrolls it into view on click).
Starts its own `phonewire webdriver` on a free loopback port and stops it.
"""

from _common import DATASETTE, verdict, webdriver_session
from appium.webdriver.common.appiumby import AppiumBy

with webdriver_session(f"{DATASETTE}/db/people") as d:
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
