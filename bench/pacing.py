"""Taps paced as an agent paces them: a tap at the spot of the session's previous one within
:data:`~phonewire.devices.web.gestures.APART_S` waits until it cannot be taken for that tap's second (two commands
are never a double click: gestures.apart).  An agent's steps are further apart than that; a bench that taps one spot
in a loop calls :func:`apart` between its samples, outside the timings, so each figure is the tap, not the wait."""

from __future__ import annotations

import time

from phonewire.devices.web.gestures import APART_S


def apart() -> None:
    time.sleep(APART_S)
