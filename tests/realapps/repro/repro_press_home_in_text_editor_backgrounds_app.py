"""`press home` while editing text is the phone's Home button: the app goes to the background, reply "ok".

An agent that wants the caret at the line start (there is no text-navigation Home/End key) presses `home`.
Expected: a caret move, or at least a warning in the reply that the app left the foreground.
Seen: `ok pressed home`; the next snapshot is APP_BACKGROUNDED.
"""

from _common import DATASETTE, ref_of, verdict

import phonewire
from phonewire import ProtocolError

with phonewire.Phone(device="web") as phone:
    phone.open(f"{DATASETTE}/db")
    editor = ref_of(phone.snapshot(interactive=True).text, "select \\* from people")
    phone.tap(editor)
    r = phone.press("home")
    print("press home ->", r.data, "warning:", r.warning)
    try:
        phone.snapshot(interactive=True)
        verdict(True, "the app is still in front")
    except ProtocolError as err:
        print("snapshot ->", err.code, err)
        verdict(r.warning is not None, "the reply to `press home` warned that the app went to the background")
