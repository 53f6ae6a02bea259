"""Known-answer transcripts of the protocol's primitives (SPEC §36.4), from fixed inputs:
the codec, an event's wire form and hash, commit-reveal, the joint key, a shuffle proof, a
decryption share's proof and the transport's key schedule. Every secret, nonce and
randomiser is an input of the transcript, so another implementation can recompute every
output from the file alone. `transcripts()` computes them with this program's code; the
generator writes them to kat.json and tests/test_vectors.py recomputes and checks them."""
from __future__ import annotations

import hashlib
import struct

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from protocol import codec
from protocol.crypto import Identity
from protocol.crypto import commit_reveal as cr
from protocol.crypto import group as g
from protocol.crypto import proofs
from protocol.log import EVENT_DOMAIN, sign_event
from protocol.net.handshake import DIALER, LISTENER, key_schedule_hash, transcript
from protocol.net import secure
from protocol.poker import keys, shuffle_proof
from protocol.poker import deck as mp
from protocol.poker.cards import CardTable, initial_deck
from protocol.poker.shuffle import shuffle_deck


def _h(data: bytes) -> str:
    return bytes(data).hex()


def _seed(*parts: str) -> bytes:
    return hashlib.sha256("/".join(("p2p-asv/test-vectors/kat",) + parts).encode()).digest()


def _scalar(*parts: str) -> bytes:
    """A fixed non-zero scalar: SHA-512 of a name, reduced mod L."""
    return g.scalar_from_int(int.from_bytes(hashlib.sha512("/".join(parts).encode()).digest(), "little") % g.L or 1)


# -- §21 codec ------------------------------------------------------------------------------------

def to_json(value):
    """A codec value as JSON: bytes as {"bin": hex}, the rest as it is."""
    if isinstance(value, (bytes, bytearray)):
        return {"bin": bytes(value).hex()}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {"map": [[k, to_json(v)] for k, v in value.items()]}
    return value


def from_json(value):
    if isinstance(value, dict) and "bin" in value:
        return bytes.fromhex(value["bin"])
    if isinstance(value, dict):
        return {k: from_json(v) for k, v in value["map"]}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


CODEC_VALUES = [None, False, True, 0, 127, 128, 255, 256, 65535, 65536, (1 << 32) - 1, 1 << 32, (1 << 64) - 1,
                -1, -32, -33, -128, -129, -32768, -32769, -(1 << 31) - 1, -(1 << 63),
                "", "a", "é", "x" * 31, "x" * 32, "y" * 256, b"", b"\x00\xff", bytes(range(256)),
                [], [1, [2, [3]]], list(range(16)), {}, {"aa": 1, "b": 2}, {"b": b"\x01", "a": [None]},
                {"z": {"y": {"x": 0}}, "": "empty key"}]
# Bytes `decode` must refuse (SPEC §21.4), each with why.
CODEC_REFUSED = [("cc05", "5 in uint8: wider than a positive fixint"), ("d000", "0 in int8: signed form of a "
                 "non-negative"), ("ca3f800000", "a float"), ("c1", "the unused byte c1"),
                 ("82a16202a1610 1".replace(" ", ""), "map keys out of order"), ("81a16101a16102", "trailing "
                 "bytes"), ("81 01 02".replace(" ", ""), "a map key that is not str"), ("a2c328", "invalid UTF-8"),
                 ("d90161", "str8 for a 1-byte text"), ("92", "an array cut short"), ("", "empty input")]


def codec_transcript() -> dict:
    encoded = [{"value": to_json(v), "hex": _h(codec.encode(v))} for v in CODEC_VALUES]
    return {"about": "SPEC §21: each value's one encoding; JSON maps are {\"map\": [[key, value], ...]} in "
                     "insertion order (the encoding sorts them), bytes are {\"bin\": hex}",
            "encode": encoded, "refuse": [{"hex": h, "why": why} for h, why in CODEC_REFUSED]}


# -- §22 events -----------------------------------------------------------------------------------

def event_transcript() -> dict:
    seed = _seed("event", "author")
    ident = Identity.from_seed(seed)
    game = _seed("event", "game")[:16]
    first = sign_event(ident, game, 0, bytes(32), "hello", {"name": "alice", "n": 1})
    second = sign_event(ident, game, 1, first.hash, "move", {"pad": b"\x01\x02", "list": [1, -1, "x"]})
    events = []
    for ev in (first, second):
        events.append({"seq": ev.seq, "prev": _h(ev.prev), "kind": ev.kind, "body": to_json(ev.body),
                       "envelope": _h(ev.envelope), "signed": _h(EVENT_DOMAIN + ev.envelope),
                       "signature": _h(ev.signature), "wire": _h(ev.wire), "hash": _h(ev.hash)})
    return {"about": "SPEC §22.1-§22.4: envelope = encode(map), signature = Ed25519(seed, EVENT_DOMAIN ‖ envelope), "
                     "wire = encode({e, s}), hash = SHA-256(wire)",
            "ed25519_seed": _h(seed), "author": _h(ident.public_key_bytes),
            "game": _h(game), "event_domain": _h(EVENT_DOMAIN), "events": events}


# -- §24 commit-reveal ----------------------------------------------------------------------------

def commit_reveal_transcript() -> dict:
    context = g.lp(b"p2p-asv/seat-order/v1", _seed("commit", "game")[:16])
    values = [_seed("commit", f"value{i}") for i in range(3)]
    joint = cr.joint_value(values)
    return {"about": "SPEC §24: commit(value, context), the joint value of the reveals in seat order, and the "
                     "permutation of n drawn from it (§24.5)",
            "context": _h(context),
            "commits": [{"value": _h(v), "commitment": _h(cr.commit(v, context))} for v in values],
            "joint_value": _h(joint),
            "permutations": {str(n): cr.permutation_from_seed(joint, n) for n in (1, 2, 3, 4, 10)}}


# -- §25 keys, shuffle, shares ----------------------------------------------------------------------

NAMES = ["MFRG-ALICE", "MFRG-BOB", "MFRG-CAROL"]


def _key_shares() -> list[keys.KeyShare]:
    return [keys.KeyShare.generate(_scalar("kat", "key", name)) for name in NAMES]


def joint_key_transcript() -> dict:
    context = _seed("key", "game")[:16]
    shares = _key_shares()
    published = []
    for name, share in zip(NAMES, shares):
        nonce = _scalar("kat", "key-nonce", name)
        proof = proofs.prove_dlog(share.secret, keys.proof_context(context, name), public=share.public, nonce=nonce)
        published.append({"participant": name, "secret": _h(share.secret), "public": _h(share.public),
                          "commitment": _h(keys.key_commitment(share, context)),
                          "proof_context": _h(keys.proof_context(context, name)),
                          "nonce": _h(nonce), "published": _h(share.public + proof.to_bytes())})
    return {"about": "SPEC §25.2-§25.3: x_i, Y_i = x_i·G (ristretto255), the key commitment, a Schnorr proof with "
                     "the given nonce, Y = ΣY_i",
            "context": _h(context), "shares": published,
            "joint_key": _h(keys.joint_public_key([s.public for s in shares]))}


def _small_deck():
    joint = keys.joint_public_key([s.public for s in _key_shares()])
    table = CardTable([f"card-{i}" for i in range(4)])
    return joint, table, initial_deck(table, joint)


def shuffle_transcript() -> dict:
    joint, table, before = _small_deck()
    permutation = [2, 0, 3, 1]
    randomizers = [_scalar("kat", "shuffle", str(i)) for i in range(4)]
    after, witness = shuffle_deck(before, joint, permutation=permutation, randomizers=randomizers)
    context = _seed("shuffle", "context")
    entropy = _seed("shuffle", "entropy")
    proof = shuffle_proof.prove_shuffle(before, after, witness, joint, context, entropy=entropy)
    return {"about": "SPEC §25.4-§25.5, §25.10: the initial deck of 4 labels under the joint key, the shuffle "
                     "after[i] = before[permutation[i]] re-encrypted with randomizers[i], and its proof made "
                     "with the given 32 bytes of entropy",
            "joint_key": _h(joint), "labels": list(table.labels), "context": _h(context),
            "before": [_h(c.to_bytes()) for c in before], "permutation": permutation,
            "randomizers": [_h(r) for r in randomizers], "after": [_h(c.to_bytes()) for c in after],
            "entropy": _h(entropy), "proof": _h(proof.to_bytes())}


def share_transcript() -> dict:
    joint, table, deck = _small_deck()
    card = deck[1]
    context = _seed("share", "context")
    out = []
    for name, share in zip(NAMES, _key_shares()):
        nonce = _scalar("kat", "share-nonce", name)
        d = g.mul(share.secret, card.c1)
        proof = proofs.prove_equal_dlog(share.secret, card.c1, mp.share_context(context, name), public=share.public,
                                        share=d, nonce=nonce)
        out.append({"participant": name, "public": _h(share.public), "nonce": _h(nonce),
                    "share_context": _h(mp.share_context(context, name)), "share": _h(d + proof.to_bytes())})
    return {"about": "SPEC §25.6: D_i = x_i·C1 with its Chaum-Pedersen proof (given nonce); the shares of every "
                     "seat open the card: C2 − ΣD_i is its point",
            "ciphertext": _h(card.to_bytes()), "context": _h(context), "shares": out,
            "label": table.labels[1], "point": _h(table.point(table.labels[1]))}


# -- §28.4, §28.11 transport ------------------------------------------------------------------------

def _x25519(name: str) -> tuple[X25519PrivateKey, bytes, bytes]:
    raw = _seed("transport", name)
    key = X25519PrivateKey.from_private_bytes(raw)
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return key, raw, public


def transport_transcript() -> dict:
    game = _seed("transport", "game")[:16]
    d_seed, l_seed = _seed("transport", "dialer"), _seed("transport", "listener")
    dialer, listener = Identity.from_seed(d_seed), Identity.from_seed(l_seed)
    dn, ln = _seed("transport", "dn")[:16], _seed("transport", "ln")[:16]
    d_eph, d_raw, de = _x25519("dialer-eph")
    l_eph, l_raw, le = _x25519("listener-eph")
    args = (game, dialer.public_key_bytes, dn, de, listener.public_key_bytes, ln, le)
    salt = key_schedule_hash(*args)
    shared = d_eph.exchange(X25519PublicKey.from_public_bytes(le))
    keys_d = secure.derive_keys(shared, salt, dialer=True)
    frames = []
    sealer = secure.FrameSealer(keys_d.send)
    for payload in (b"hello", b"second frame"):
        head = struct.pack(">I", len(payload) + 16)
        frames.append({"header": _h(head), "payload": _h(payload), "sealed": _h(sealer.seal(head, payload))})
    return {"about": "SPEC §28.4, §28.11: the transcripts each side signs, the HKDF salt, the X25519 secret, the "
                     "two frame keys and the first frames the dialer seals (nonce 0, 1; the header is the AAD)",
            "game": _h(game), "dialer_seed": _h(d_seed), "dialer_key": _h(dialer.public_key_bytes),
            "listener_seed": _h(l_seed), "listener_key": _h(listener.public_key_bytes),
            "dialer_nonce": _h(dn), "listener_nonce": _h(ln),
            "dialer_ephemeral_private": _h(d_raw), "dialer_ephemeral": _h(de),
            "listener_ephemeral_private": _h(l_raw), "listener_ephemeral": _h(le),
            "dialer_transcript": _h(transcript(DIALER, *args)),
            "dialer_signature": _h(dialer.sign(transcript(DIALER, *args))),
            "listener_transcript": _h(transcript(LISTENER, *args)),
            "listener_signature": _h(listener.sign(transcript(LISTENER, *args))),
            "salt": _h(salt), "shared": _h(shared), "kdf_info": _h(secure.KDF_INFO),
            "dialer_to_listener": _h(keys_d.send), "listener_to_dialer": _h(keys_d.receive),
            "dialer_frames": frames}


def transcripts() -> dict:
    return {"codec": codec_transcript(), "event": event_transcript(), "commit_reveal": commit_reveal_transcript(),
            "joint_key": joint_key_transcript(), "shuffle": shuffle_transcript(), "share": share_transcript(),
            "transport": transport_transcript()}
