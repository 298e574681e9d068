"""The web: the venue pages, the phone entry, `referee serve` as a door from the network, and the browser tests."""
