"""A record's trust: signatures and organiser keys."""
