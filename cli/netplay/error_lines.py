"""The one line `asv host`/`asv join` print for an error the user can cause or fix
(SPEC §29.6, §30): plain words and what to do next, never an exception's class name or
the transport's `[broken by ...]` blame bracket."""
from __future__ import annotations

import errno

from cli.games.refusal_words import describe
from protocol.errors import LogError, MissingKeyFile, ProtocolError
from protocol.node import LOBBY_REFUSALS, LobbyRefused
from protocol.net import CannotListen, NotConnected, PeerRefused, TransportError, plain_reason

__all__ = ["error_line"]


def error_line(err: BaseException) -> str:
    if isinstance(err, CannotListen):
        return _cannot_listen(err)
    if isinstance(err, NotConnected) and err.reason.startswith("cannot connect to "):
        where = err.peer or err.reason[len("cannot connect to "):].split(": ")[0]
        return (f"cannot connect to {where}: no game listens there now. Check the address with whoever gave it to you "
                "(the host's invite line, or `listening on ...` in any player's window)")
    if isinstance(err, LobbyRefused) and err.code == "not-creator":
        return (f"{err.reason}: the invite was mistyped or is from another game. Copy it again whole from the "
                "host's screen (the `invite:` line `asv host` prints)")
    if isinstance(err, LobbyRefused) or (isinstance(err, PeerRefused) and err.code in LOBBY_REFUSALS):
        return err.reason
    if isinstance(err, TransportError):
        return plain_reason(err)
    if isinstance(err, MissingKeyFile):
        return f"{err}; create one with `asv keygen`"
    if isinstance(err, LogError):
        where = f" {err.path}" if err.path else ""
        return f"cannot read the log{where}: {describe(err)}; `asv verify LOG` says more"
    if isinstance(err, OSError) and err.filename is not None:
        return f"{err.filename}: {err.strerror or err}"
    if isinstance(err, ProtocolError):
        return describe(err)   # some put their class name first (EventError): the table's words instead
    return str(err)


def _cannot_listen(err: CannotListen) -> str:
    code = getattr(err, "errno", None)
    where = f"{err.host}:{err.port}"
    if code == errno.EADDRINUSE:
        return (f"port {err.port} is already in use on {err.host} (another asv, or another program): "
                "choose another with --port P, or leave --port out for any free port")
    if code == errno.EADDRNOTAVAIL:
        return (f"{err.host} is not an address of this machine, so nothing can listen there: give one of its "
                "addresses with --listen (127.0.0.1: this machine only), or leave --listen out for every interface")
    if code in (errno.EACCES, errno.EPERM):
        return f"not allowed to listen on {where} (ports below 1024 need privileges): choose --port 1024 or above"
    return f"{err.reason}: try another --port, or leave --port and --listen out"
