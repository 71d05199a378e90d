"""Which other users may connect to the server, and whether they may change anything.

tmux 3.3a's server access list (server-acl.c), kept by uid: the owner (the server's
user) and root are always let in, and never listed or changed; every other uid is
refused at connect unless server-access added it, and a read-only one's clients are
read-only (attach flags `read-only`, and command lines of only the verbs that may run
read-only: verbs.Verb.read_only). Plain data, no I/O: the server asks it as peers
connect and server-access (commands/access.py) changes it.
"""

from __future__ import annotations

import os

__all__ = ["AccessList"]


class AccessList:
    """The uids besides the owner and root that may connect, each writable or read-only."""

    def __init__(self, owner: int | None = None) -> None:
        self.owner = os.getuid() if owner is None else owner
        """tmux's owner is getuid(): the user who started the server."""
        self._read_only: dict[int, bool] = {}

    def owns(self, uid: int) -> bool:
        """The owner and root: always let in, never changed (`root owns the server`)."""
        return uid in (self.owner, 0)

    def __contains__(self, uid: object) -> bool:
        """`uid in access`: it may connect (paths.peer_allowed asks)."""
        return isinstance(uid, int) and (self.owns(uid) or uid in self._read_only)

    def listed(self, uid: int) -> bool:
        return uid in self._read_only

    def read_only(self, uid: int) -> bool:
        """Whether `uid`'s clients may only watch (server-access -r)."""
        return self._read_only.get(uid, False)

    def allow(self, uid: int) -> None:
        """-a: let `uid` in, writable, as tmux's server_acl_user_allow adds it."""
        self._read_only.setdefault(uid, False)

    def deny(self, uid: int) -> None:
        self._read_only.pop(uid, None)

    def set_read_only(self, uid: int, read_only: bool) -> None:
        """-r, -w: for a uid already let in."""
        if uid in self._read_only:
            self._read_only[uid] = read_only

    def entries(self) -> list[tuple[int, bool]]:
        """(uid, read-only) of each listed user, by uid, as tmux's tree is ordered. The
        owner is in tmux's tree and printed by -l, unless it is root, which never is."""
        everyone = dict(self._read_only)
        if self.owner != 0:
            everyone[self.owner] = False
        return sorted(everyone.items())
