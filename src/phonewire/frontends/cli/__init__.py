"""``phonewire VERB``: the thin client (:mod:`.main`, :mod:`.client`), the daemon and the verbs it runs."""
