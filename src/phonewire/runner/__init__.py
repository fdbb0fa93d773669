"""The runner: one process per device, serving the wire protocol v1 (and phonewire's extensions) on loopback.

Modules, outside in::

    main      process entry: ``phonewire runner --device KIND[:PROFILE]``, signals, exit codes
    http      the thin h11 adapter: framing, Host/Origin refusal, read deadline, connection cap
    service   body → envelope: validation, status/uptime on the transport path, journal replay, attach
    executor  asyncio plumbing of the execution gate (FIFO, one device task at a time, deadline timers)
    gate      the gate's pure decisions: admit / busy / wedged / timed out (no I/O, time passed in)
    journal   the send-once journal state machine (pure)
    dispatch  wire command → Device method; the one exception-to-wire boundary for device work
"""
