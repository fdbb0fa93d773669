"""WAIT_TIMED_OUT's summary of the screen strips the refs of top-level lines but keeps them (and two spaces of
indentation) on child lines: `…; ComboBox value="- column -";  @e7 StaticText "- column -" [selected];  @e8 …`.
Cosmetic: the agent may copy a ref out of an error message that does not name a snapshot.
CLI: phonewire open URL/db/people; phonewire wait '"Person 150"' --timeout 1000
"""

from _common import DATASETTE, verdict

import phonewire
from phonewire import ProtocolError

with phonewire.Phone(device="web") as phone:
    phone.open(f"{DATASETTE}/db/people")
    phone.snapshot(interactive=True)
    try:
        phone.wait('"Person 150"', timeout_ms=1000)
    except ProtocolError as err:
        msg = str(err)
        print(err.code, msg[:400])
        verdict("@e" not in msg, "the summary carries no refs (or all of them, the same way)")
