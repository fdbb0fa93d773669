"""``phonewire bridge``: the JSON-RPC bridge server (:mod:`.server`) and its methods (:mod:`.methods`)."""
