"""The front ends: projections of the agent core's operation table (:mod:`phonewire.agent`) for one audience each.

* :mod:`phonewire.frontends.cli` — ``phonewire VERB``: a thin client, the daemon that holds warm sessions, the verbs;
* :mod:`phonewire.frontends.bridge` — the newline-delimited JSON-RPC bridge (PhoneAgent-compatible);
* :mod:`phonewire.frontends.mcp_server` — the MCP server over stdio;
* :mod:`phonewire.frontends.serving` — what the servers share on the way to a device.

Kept empty of imports: the CLI's warm path imports this package.
"""
