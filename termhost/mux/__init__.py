"""The multiplexer: server, sessions, windows, panes, and the client protocol."""
