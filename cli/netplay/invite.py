"""The invite a host prints and a joiner pastes (SPEC §29.2): HOST:PORT/GAMEID/FINGERPRINT."""
from __future__ import annotations

import re
from dataclasses import dataclass



INVITE_PREFIX = "asv join "
FINGERPRINT = re.compile(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}")   # SPEC §20.2


@dataclass(frozen=True)
class Invite:
    host: str
    port: int
    game: bytes | None = None
    creator: str | None = None     # fingerprint of the peer at host:port, if known

    def text(self) -> str:
        parts = [f"{self.host}:{self.port}"]
        if self.game is not None:
            parts.append(self.game.hex())
            if self.creator:
                parts.append(self.creator)
        return "/".join(parts)


def parse_invite(text: str) -> Invite:
    """HOST:PORT[/GAMEID[/FINGERPRINT]], as printed by `asv host` (SPEC §29.2)."""
    text = text.strip()
    if text.startswith(INVITE_PREFIX):
        text = text[len(INVITE_PREFIX):].strip()
    parts = text.split("/")
    host, sep, port = parts[0].rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise ValueError(f"{parts[0]!r} is not HOST:PORT")
    game = None
    if len(parts) > 1:
        try:
            game = bytes.fromhex(parts[1])
        except ValueError:
            raise ValueError(f"game id {parts[1]!r} is not hex") from None
        if len(game) not in (16, 32):
            raise ValueError("a game id is 16 or 32 bytes (32 or 64 hex digits)")
    creator = parts[2].upper() if len(parts) > 2 else None
    if creator is not None and not FINGERPRINT.fullmatch(creator):
        raise ValueError(f"{parts[2]!r} is not a key fingerprint (XXXX-XXXX-XXXX-XXXX)")
    if len(parts) > 3:
        raise ValueError("an invite is HOST:PORT/GAMEID/FINGERPRINT")
    return Invite(host, int(port), game, creator)
