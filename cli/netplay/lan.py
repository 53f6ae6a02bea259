"""The LAN side of `asv host`/`asv join` (SPEC §32): the address an invite carries, and
games announced and found by mDNS/DNS-SD (the `zeroconf` package).

SAFETY: the tests and demos announce and browse on 127.0.0.1 only (`interfaces`
argument); a user's `asv host --announce` uses every interface, as a LAN game must.
"""
from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass

from cli.errors import UserError

__all__ = ["WILDCARDS", "lan_address", "invite_host", "SERVICE_TYPE", "Announcement",
           "announce", "browse"]

WILDCARDS = ("", "0.0.0.0", "::")
SERVICE_TYPE = "_asv._tcp.local."


def lan_address() -> str:
    """This machine's address on its LAN: the source address the kernel picks for a route
    out (a UDP connect sends no packet), else the host name's address, else loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))          # TEST-NET-1: only the route is looked up
            address = s.getsockname()[0]
        if address and address not in WILDCARDS:
            return address
    except OSError:
        pass
    try:
        address = socket.gethostbyname(socket.gethostname())
        if address not in WILDCARDS:
            return address
    except OSError:
        pass
    return "127.0.0.1"


def invite_host(listen: str, advertise: str | None) -> str:
    """The host part of an invite: --advertise, else the --listen address when it names
    one, else the LAN address. Never a wildcard (0.0.0.0 reaches nobody)."""
    if advertise is not None:
        if advertise.strip() in WILDCARDS:
            raise UserError(f"asv: --advertise {advertise!r} is not an address others can dial; "
                             "give this machine's LAN address (or leave it out)")
        return advertise.strip()
    if listen in WILDCARDS:
        return lan_address()
    return listen


@dataclass(frozen=True)
class Announcement:
    """One game found on the LAN."""
    invite: str           # HOST:PORT/GAMEID/FINGERPRINT
    host_name: str        # the creator's display name
    seats: int
    free: int

    def line(self) -> str:
        return f"{self.host_name} ({self.seats - self.free}/{self.seats} seats taken)  asv join {self.invite}"


def _service_name(game_hex: str) -> str:
    return f"asv-{game_hex[:12]}.{SERVICE_TYPE}"


class Announcer:
    """A registered mDNS service for one game; `update(free)` re-announces the free seats."""

    def __init__(self, zc, info) -> None:
        self.zc, self.info = zc, info

    def update(self, free: int) -> None:
        from zeroconf import ServiceInfo
        props = dict(self.info.properties)
        props[b"free"] = str(free).encode()
        info = ServiceInfo(self.info.type, self.info.name, addresses=self.info.addresses,
                           port=self.info.port, properties=props, server=self.info.server)
        self.zc.update_service(info)
        self.info = info

    def close(self) -> None:
        try:
            self.zc.unregister_service(self.info)
        finally:
            self.zc.close()


def announce(invite_host_: str, port: int, game: bytes, creator: str, name: str, seats: int, free: int,
             *, interfaces: list[str] | None = None) -> Announcer:
    """Register the game as `asv-<game12>._asv._tcp.local.` with the invite in its TXT
    record. `interfaces` None: every interface (a user's LAN game); tests pass
    ["127.0.0.1"]."""
    from zeroconf import InterfaceChoice, ServiceInfo, Zeroconf
    zc = Zeroconf(interfaces=interfaces if interfaces is not None else InterfaceChoice.All)
    invite = f"{invite_host_}:{port}/{game.hex()}/{creator}"
    info = ServiceInfo(SERVICE_TYPE, _service_name(game.hex()),
                       addresses=[ipaddress.ip_address(invite_host_).packed] if _is_ip(invite_host_) else [],
                       port=port, server=f"asv-{game.hex()[:12]}.local.",
                       properties={b"invite": invite.encode(), b"name": name[:64].encode(),
                                   b"seats": str(seats).encode(), b"free": str(free).encode()})
    try:
        zc.register_service(info)
    except BaseException:
        zc.close()
        raise
    return Announcer(zc, info)


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return False


def browse(seconds: float = 3.0, *, interfaces: list[str] | None = None) -> list[Announcement]:
    """The games announced on the LAN within `seconds`, in the order found."""
    from zeroconf import InterfaceChoice, ServiceBrowser, ServiceStateChange, Zeroconf
    # On loopback every mDNS program of this machine shares 127.0.0.1:5353, and an answer sent
    # there reached only one of them: with another one running (a second asv, another test
    # run) nothing was found. Asking from a port of our own gets the answers sent to it.
    direct = interfaces is not None and all(ipaddress.ip_address(i).is_loopback for i in interfaces)
    zc = Zeroconf(interfaces=interfaces if interfaces is not None else InterfaceChoice.All, unicast=direct)
    names: list[str] = []

    def on_change(zeroconf, service_type, name, state_change) -> None:
        if state_change is ServiceStateChange.Added and name not in names:
            names.append(name)

    found: list[Announcement] = []
    try:
        browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[on_change])
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(0.1)
        browser.cancel()
        for name in list(names):
            info = zc.get_service_info(SERVICE_TYPE, name, timeout=1000)
            if info is None:
                continue
            a = _announcement(info.properties)
            if a is not None and a not in found:
                found.append(a)
    finally:
        zc.close()
    return found


def _announcement(props: dict) -> Announcement | None:
    """A TXT record read defensively: anyone on the LAN can announce anything."""
    try:
        invite = props[b"invite"].decode()
        name = (props.get(b"name") or b"?").decode(errors="replace")[:64]
        seats, free = int(props.get(b"seats") or b"0"), int(props.get(b"free") or b"0")
    except (KeyError, AttributeError, ValueError, UnicodeDecodeError):
        return None
    if not 0 <= free <= seats <= 4 or len(invite) > 200:
        return None
    return Announcement(invite, name, seats, free)


def mdns_interfaces(listen: str) -> list[str] | None:
    """mDNS goes where the game listens: the --listen address when it names one (so
    `--listen 127.0.0.1` announces and browses on loopback only), else every interface."""
    return None if listen in WILDCARDS else [listen]
