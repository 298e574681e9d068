"""referee: a referee and replay tool for Battle for Rokugan."""

__version__ = "0.1.0"
ENGINE_VERSION = "1"
