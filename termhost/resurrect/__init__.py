"""Resurrection: sessions brought back after their server died (a crash, kill -9, a
reboot). `records` keeps a record of each session on disk (mux/resurrection.py decides
when); the `resurrect` verb (mux/commands/resurrect.py) rebuilds a session from one."""
