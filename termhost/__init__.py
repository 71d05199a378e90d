"""termhost: a terminal multiplexer and PTY session manager in Python."""

__all__ = ["__version__"]

__version__ = "0.1.0"
