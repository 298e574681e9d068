"""Battle for Rokugan's wing: its bundled data read (the board, the rulings), its casebook and game file, its
events, and its log over the store: the fold (replay), the service (OpenGame), the phones' drafts, the score
and the record's export and import. Its rules are ``referee.engine.battle``."""
