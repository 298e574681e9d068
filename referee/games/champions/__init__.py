"""Champions of Rokugan's wing: its casebook, and a scenario's or a campaign's log in the store: its fold,
verification and service."""
