"""One peer of a game on the network (SPEC §29): a SessionPeer driven over a Mesh.

Game-agnostic. Every event wire that arrives is checked by the session before it is
applied (a rejected one is never logged); events that arrive early wait in a buffer
until their height; whenever this peer owes the next event it writes it and broadcasts
it. A peer that falls behind (a gap, a reconnect, a resume) asks the others for the
events since its height. If the peer due to write stays silent past the timeout, the
other peers each sign a vote naming it, and the abort carrying every vote ends the game
(SPEC §29.6); a peer that voted never applies the silent peer's late event. Spectators
(SPEC §29.16) are the mesh's, up to `NodeOptions.spectators`: the node only answers their
catch-up requests, so none is ever waited for, polled or counted.

The parts, each a private module behind this one:

    _node       the Node: its state, lifecycle and loop (receive, act, idle)
    _notes      what it tells people, as data: a NoteKind and its facts (§29.13)
    _early      events that arrived before their height, within bounds (§29.4)
    _lobby      who may take a lobby seat: the join request (§29.2)
    _presence   peers up and down, how long a seat has been gone (§29.13, §29.15)
    _duty       silent-peer votes, refusals, co-signed aborts and halts (§29.6, §29.10)
    _catchup    answering and asking for the events since a height; a resumed peer asks
                before it writes (§29.7, §29.21)
    _thinking   the agent's answer from a worker thread (§12.3)
    _resume     rebuilding a peer from its own log and secrets (§29.7)
    _options    NodeOptions, the timing record and the node's own errors
"""
from protocol.node._early import (
    MAX_AHEAD, MAX_AUTHOR_BYTES, MAX_AUTHOR_HEIGHTS, MAX_BUFFERED_BYTES, MAX_PER_HEIGHT, EarlyEvents, held_cost,
)
from protocol.node._lobby import LOBBY_REFUSALS, MAX_UNSEATED, LobbyRefused
from protocol.node._node import MAX_BARRED, Node
from protocol.node._notes import Note, NoteKind
from protocol.node._options import DEFAULT_TIMEOUT, NodeOptions, NotInRoster, ResumeError, Timing
from protocol.node._resume import recorded_agent, restore_peer
from protocol.node._settle import MAX_LOOKED_AT, MAX_REFUSALS, end_rank

__all__ = ["Node", "Note", "NoteKind", "NodeOptions", "NotInRoster", "LobbyRefused", "LOBBY_REFUSALS",
           "MAX_UNSEATED", "ResumeError", "restore_peer", "recorded_agent", "DEFAULT_TIMEOUT", "Timing",
           "MAX_AHEAD", "MAX_PER_HEIGHT", "MAX_BUFFERED_BYTES", "MAX_AUTHOR_HEIGHTS",
           "MAX_AUTHOR_BYTES", "held_cost", "EarlyEvents", "end_rank", "MAX_BARRED", "MAX_LOOKED_AT", "MAX_REFUSALS"]
