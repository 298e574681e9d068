"""referee: a referee and replay tool for three Rokugan games: Battle for Rokugan, the Legend of the Five Rings
card game and Champions of Rokugan."""

__version__ = "0.1.0"
ENGINE_VERSION = "1"
