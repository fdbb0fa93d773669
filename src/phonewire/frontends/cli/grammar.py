"""The CLI's argv grammar around the verbs, declared once: the global options, and which verbs never go to the
daemon as one plain request.  The verbs themselves and their words are the operation table's
(:mod:`phonewire.agent.operations`, projected by :mod:`phonewire.frontends.cli.verbs`).

Read by the daemon's parser (``verbs.GLOBAL_FLAGS``), the Python thin client (:mod:`phonewire.frontends.cli.main`)
and, as C arrays, by the native client (``fastclient.c``: ``VALUE_OPTIONS``, ``LOCAL_VERBS``; a test compares them
with this module).  A leaf: it imports nothing, so the warm path pays nothing for it.
"""

#: Global options that take a value, before or after the verb (``--device web``, ``--session=s2``), each with the
#: word the help shows for its value.
VALUE_OPTIONS = {"--device": "SPEC", "--session": "NAME", "--runner": "HOST:PORT", "--trace": "DIR"}
#: Global options that take none.
FLAG_OPTIONS = ("--json", "--quiet")
#: Servers the Python client runs in its own process (``phonewire bridge``; ``runner`` is ``phonewire.__main__``'s).
SERVERS = ("bridge", "webdriver", "mcp")
#: ``trace`` verbs that read and write trace files offline: no daemon, no device.
OFFLINE_TRACE = ("view", "export")
#: Verbs the native client hands to the Python client as they are: the servers, those the Python client answers
#: itself (``help``, ``version``, ``runner``), and ``daemon``, which must not start a daemon to ask about one.
LOCAL_VERBS = (*SERVERS, "help", "runner", "daemon", "version")
