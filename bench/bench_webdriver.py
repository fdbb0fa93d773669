"""WebDriver front end vs the Python API, in one run on the web phone (demo app), medians:

* find + click through the Appium Python client (``find_element(ACCESSIBILITY_ID)`` then ``click()``: two HTTP
  requests, two fresh snapshots, one tap) against one direct ``Phone.tap("id=like-1")`` (one snapshot, one tap);
* session creation (``POST /session``: a runner, a browser, the app opened) against ``Phone(...)`` + ``open``.

    .venv/bin/python bench/bench_webdriver.py [N]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from appium import webdriver
from appium.options.common.base import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy

from phonewire.api import Phone


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.1f} ms"


def main(n: int) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "phonewire", "webdriver", "--port", "0"], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    url = "http://127.0.0.1:" + proc.stdout.readline().decode().split("=")[1].strip()
    try:
        options = AppiumOptions()
        options.load_capabilities({"platformName": "iOS", "appium:app": "dev.phonewire.demo"})
        create_wd, clicks = [], []
        for _ in range(3):
            t = time.perf_counter()
            d = webdriver.Remote(url, options=options)
            create_wd.append(time.perf_counter() - t)
            d.quit()
        d = webdriver.Remote(url, options=options)
        for _ in range(n):
            t = time.perf_counter()
            d.find_element(AppiumBy.ACCESSIBILITY_ID, "like-1").click()
            clicks.append(time.perf_counter() - t)
        d.quit()
    finally:
        proc.terminate()
        proc.wait(30)
    create_api, taps = [], []
    for _ in range(3):
        t = time.perf_counter()
        with Phone("web") as phone:
            phone.open("dev.phonewire.demo")
            create_api.append(time.perf_counter() - t)
    with Phone("web") as phone:
        phone.open("dev.phonewire.demo")
        for _ in range(n):
            t = time.perf_counter()
            phone.tap("id=like-1")
            taps.append(time.perf_counter() - t)
    print(
        f"find+click (Appium client) p50 {_ms(clicks)}; Phone.tap p50 {_ms(taps)}; "
        f"ratio {statistics.median(clicks) / statistics.median(taps):.2f}"
    )
    print(
        f"session creation: POST /session p50 {_ms(create_wd)}; Phone()+open p50 {_ms(create_api)}; "
        f"ratio {statistics.median(create_wd) / statistics.median(create_api):.2f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
