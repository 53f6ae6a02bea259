"""Length-prefixed frames over a trio stream (SPEC §28.1).

    frame = length (4 bytes, big-endian, unsigned) ‖ payload (length bytes)

After the handshake every payload is sealed with ChaCha20-Poly1305 under the connection's
keys (`secure`, SPEC §28.11): the length then counts the 16-byte tag too, and the header is
the associated data. Each payload (once opened) is one canonical codec map (SPEC §21) with a str field "t" naming the
message type; `protocol.net.messages` checks the rest. The limit applies to the payload;
a length over it is refused from the 4 header bytes, before anything is buffered.
"""
from __future__ import annotations

import struct
from typing import Any

import trio

from protocol import codec
from protocol.errors import CodecError
from protocol.net.errors import (
    LOCAL, ConnectionClosed, FrameAuthError, FrameTooLarge, MalformedFrame, TransportError,
)
from protocol.net.secure import TAG_SIZE, FrameOpener, FrameSealer

__all__ = ["FramedStream", "encode_frame", "DEFAULT_MAX_FRAME", "HEADER_SIZE", "MAX_FRAME_DEPTH"]

DEFAULT_MAX_FRAME = 1 << 20     # bytes of one payload (1 MiB)
HEADER_SIZE = 4
MAX_FRAME_DEPTH = 3             # map > list > map of scalars ("peers" is the deepest)
_HEADER = struct.Struct(">I")
_RECEIVE_CHUNK = 65536
_DRAIN_LIMIT = 4 << 20          # bytes read and thrown away while closing with an error


def encode_frame(payload: bytes, *, max_frame: int = DEFAULT_MAX_FRAME) -> bytes:
    """Header plus payload. Raises FrameTooLarge (side "local") over the limit."""
    if len(payload) > max_frame:
        raise FrameTooLarge(len(payload), max_frame, side=LOCAL)
    return _HEADER.pack(len(payload)) + payload


class FramedStream:
    """Frames and codec messages over one trio stream.

    `peer` is a label for error messages (the address, then the fingerprint once the
    handshake has named the peer). Sending is serialised by a lock, so a keepalive and
    an error frame may be sent from different tasks; receiving must stay in one task."""

    def __init__(self, stream: trio.abc.Stream, *, max_frame: int = DEFAULT_MAX_FRAME,
                 peer: str | None = None) -> None:
        if max_frame < 1 or max_frame > 0xFFFFFFFF:
            raise ValueError("max_frame must be in [1, 2**32-1]")
        self.stream = stream
        self.max_frame = max_frame
        self.peer = peer
        self._buffer = bytearray()
        self._send_lock = trio.Lock()
        self._closed = False
        self._sealer: FrameSealer | None = None
        self._opener: FrameOpener | None = None
        self._plain_error_allowed = False
        self._send_broken = False

    # ------------------------------------------------------------------- encryption

    def secure_sending(self, key: bytes) -> None:
        """Seal every frame sent from now on under `key` (SPEC §28.11)."""
        self._sealer = FrameSealer(key)

    def secure_receiving(self, key: bytes, *, plain_error_first: bool = False) -> None:
        """Open every frame received from now on under `key`. With `plain_error_first`, the
        next frame may instead be a plaintext `error` (the peer refused our hello before it
        had keys): the only plaintext the handshake still accepts."""
        self._opener = FrameOpener(key)
        self._plain_error_allowed = plain_error_first

    def seal_frame(self, frame: bytes) -> bytes:
        """A plain frame (header ‖ payload) as it goes on the wire now: sealed under the next
        counter once sending is secured. The caller writes it, in this order."""
        if self._sealer is None:
            return frame
        header = _HEADER.pack(len(frame) - HEADER_SIZE + TAG_SIZE)
        return header + self._sealer.seal(header, frame[HEADER_SIZE:])

    @property
    def secured(self) -> bool:
        return self._sealer is not None and self._opener is not None

    # ------------------------------------------------------------------------ bytes

    async def send_frame(self, payload: bytes) -> None:
        frame = encode_frame(bytes(payload), max_frame=self.max_frame)
        # a free lock (the usual case) is taken without a schedule point: the frame is
        # sealed and written in the turn of the loop that woke its writer, one turn sooner
        # (SPEC §28.13); send_all's own checkpoint still follows the write
        lock = self._send_lock
        try:
            lock.acquire_nowait()
        except trio.WouldBlock:
            await lock.acquire()
        try:
            await self._send_locked(frame)
        finally:
            lock.release()

    async def _send_locked(self, frame: bytes) -> None:
        if self._send_broken:
            raise ConnectionClosed("cannot send: an earlier sealed frame was cut off",
                                   peer=self.peer)
        if self._sealer is not None:
            # A send cancelled before it starts must not burn a frame counter: check first,
            # then seal and start writing with no checkpoint in between. Sealing under the
            # lock keeps the counters in send order.
            await trio.lowlevel.checkpoint_if_cancelled()
            frame = self.seal_frame(frame)
        try:
            await self.stream.send_all(frame)
        except trio.Cancelled:
            # cut off mid-write (or blocked before any byte): the peer can no longer
            # open the frames that would follow, so nothing more is sent on this stream
            self._send_broken = self._sealer is not None
            raise
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            raise ConnectionClosed(f"cannot send: {exc or type(exc).__name__}",
                                   peer=self.peer) from None

    async def _fill(self, n: int, in_frame: bool) -> None:
        """Read until the buffer holds n bytes; a clean EOF or a short read is typed."""
        while len(self._buffer) < n:
            try:
                chunk = await self.stream.receive_some(_RECEIVE_CHUNK)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                raise ConnectionClosed(f"connection broken: {exc or type(exc).__name__}",
                                       mid_frame=bool(self._buffer) or in_frame, peer=self.peer) from None
            if not chunk:
                if not self._buffer and not in_frame:
                    raise ConnectionClosed("closed the connection", peer=self.peer)
                raise ConnectionClosed(
                    f"closed the connection inside a frame ({len(self._buffer)} of {n} bytes read)",
                    mid_frame=True, peer=self.peer)
            self._buffer += chunk

    async def receive_frame(self) -> bytes:
        """The next payload. Raises ConnectionClosed (EOF; `mid_frame` on a short read)
        or FrameTooLarge (the length prefix is over the limit; side "remote")."""
        await self._fill(HEADER_SIZE, False)
        (length,) = _HEADER.unpack_from(self._buffer)
        limit = self.max_frame + (TAG_SIZE if self._opener is not None else 0)
        if length > limit:
            raise FrameTooLarge(length, limit, peer=self.peer)
        await self._fill(HEADER_SIZE + length, True)
        header = bytes(self._buffer[:HEADER_SIZE])
        payload = bytes(self._buffer[HEADER_SIZE:HEADER_SIZE + length])
        del self._buffer[:HEADER_SIZE + length]
        if self._opener is None:
            return payload
        plain_error_allowed, self._plain_error_allowed = self._plain_error_allowed, False
        opened = self._opener.open(header, payload)
        if opened is not None:
            return opened
        if plain_error_allowed and _is_plain_error(payload):
            return payload
        raise FrameAuthError("a frame failed to authenticate under the connection key "
                             "(altered, injected, replayed or reordered bytes)", peer=self.peer)

    # --------------------------------------------------------------------- messages

    async def send_message(self, message: dict) -> None:
        await self.send_frame(codec.encode(message))

    async def receive_message(self) -> dict[str, Any]:
        """The next payload decoded as a canonical codec map with a str "t". The fields of
        the type are checked by `protocol.net.messages.check`. Raises MalformedFrame."""
        return decode_message(await self.receive_frame(), max_frame=self.max_frame, peer=self.peer)

    # ---------------------------------------------------------------------- closing

    async def send_error_and_close(self, error: TransportError | tuple[str, str],
                                   *, linger: float = 0.5) -> None:
        """Best effort: send an error frame {"t": "error", "code", "msg"}, half-close, and
        read (and drop) what the peer still sends for up to `linger` seconds so that the
        error frame is not lost to a TCP reset; then close. Never raises."""
        code, msg = (error.code, error.reason) if isinstance(error, TransportError) else error
        with trio.move_on_after(linger):
            try:
                await self.send_message({"t": "error", "code": code, "msg": msg[:1000]})
                await self.send_eof()
                drained = 0
                while drained < _DRAIN_LIMIT:
                    chunk = await self.stream.receive_some(_RECEIVE_CHUNK)
                    if not chunk:
                        break
                    drained += len(chunk)
            except (TransportError, trio.BrokenResourceError, trio.ClosedResourceError,
                    trio.BusyResourceError):
                pass
        await self.aclose()

    async def send_eof(self) -> None:
        """Half-close: no more frames from this side (the peer reads a clean EOF)."""
        send_eof = getattr(self.stream, "send_eof", None)
        if send_eof is not None:
            async with self._send_lock:
                try:
                    await send_eof()
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                    raise ConnectionClosed(f"cannot half-close: {exc or type(exc).__name__}",
                                           peer=self.peer) from None

    async def aclose(self) -> None:
        if not self._closed:
            self._closed = True
            await trio.aclose_forcefully(self.stream)


def _is_plain_error(payload: bytes) -> bool:
    try:
        msg = codec.decode(payload, max_depth=MAX_FRAME_DEPTH)
    except CodecError:
        return False
    return isinstance(msg, dict) and msg.get("t") == "error"


# An event frame, the message of a game's steady state, is written and read without the
# general codec: it is exactly the canonical encoding of {"t": "event", "wire": WIRE}, the
# map header, the two keys and "event" (this prefix), then WIRE's bin header and bytes.
EVENT_PREFIX = codec.encode({"t": "event", "wire": b""})[:-2]


def event_frame(wire: bytes) -> bytes:
    """codec.encode({"t": "event", "wire": wire}), without its general encoder."""
    return EVENT_PREFIX + codec.bin_head(len(wire)) + wire


def _event_wire(payload: bytes) -> bytes | None:
    """WIRE if `payload` is exactly event_frame(WIRE), else None (the general decoder then
    reads it: what it accepts of this form is the same map, canonical forms being unique)."""
    n = len(EVENT_PREFIX)
    if not payload.startswith(EVENT_PREFIX) or len(payload) < n + 2:
        return None
    head = payload[n]
    if head == 0xC4:
        size, start, floor = payload[n + 1], n + 2, -1
    elif head == 0xC5 and len(payload) >= n + 3:
        size, start, floor = int.from_bytes(payload[n + 1:n + 3], "big"), n + 3, 0xFF
    elif head == 0xC6 and len(payload) >= n + 5:
        size, start, floor = int.from_bytes(payload[n + 1:n + 5], "big"), n + 5, 0xFFFF
    else:
        return None
    if size <= floor or len(payload) - start != size:
        return None
    return payload[start:]


def decode_message(payload: bytes, *, max_frame: int = DEFAULT_MAX_FRAME,
                   peer: str | None = None) -> dict[str, Any]:
    if isinstance(payload, bytes) and len(payload) <= max_frame:
        wire = _event_wire(payload)
        if wire is not None:
            return {"t": "event", "wire": wire}
    try:
        msg = codec.decode(payload, max_size=max_frame, max_depth=MAX_FRAME_DEPTH)
    except CodecError as exc:
        raise MalformedFrame(f"frame payload is not canonical codec: {exc.reason}"
                             + (f" at offset {exc.offset}" if exc.offset is not None else ""),
                             peer=peer) from None
    if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
        raise MalformedFrame('frame payload is not a map with a str "t"', peer=peer)
    return msg
