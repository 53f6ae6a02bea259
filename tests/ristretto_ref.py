"""A slow pure-Python ristretto255 (RFC 9496 §4.3.1, §4.3.2, §4.3.4) for checking libsodium's
from the outside: the encoding of an extended Edwards point and the one-way map from 64
bytes. Test helper only; nothing here is constant-time."""
from __future__ import annotations

P = 2**255 - 19
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _inv(x: int) -> int:
    return pow(x, P - 2, P)


def _is_negative(x: int) -> bool:
    return (x % P) & 1 == 1


def _abs(x: int) -> int:
    return (-x) % P if _is_negative(x) else x % P


def sqrt_ratio_m1(u: int, v: int) -> tuple[bool, int]:
    u, v = u % P, v % P
    r = (u * pow(v, 3, P)) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    check = v * r * r % P
    correct = check == u
    flipped = check == (-u) % P
    flipped_i = check == (-u) * SQRT_M1 % P
    if flipped or flipped_i:
        r = r * SQRT_M1 % P
    return correct or flipped, _abs(r)


# RFC 9496 §4.1 (a = −1); the asserts tie them to their definitions.
SQRT_AD_MINUS_ONE = 25063068953384623474111414158702152701244531502492656460079210482610430750235
INVSQRT_A_MINUS_D = 54469307008909316920995813868745141605393597292927456921205312896311721017578
assert SQRT_AD_MINUS_ONE * SQRT_AD_MINUS_ONE % P == (-D - 1) % P
assert INVSQRT_A_MINUS_D * INVSQRT_A_MINUS_D * (-1 - D) % P == 1
ONE_MINUS_D_SQ = (1 - D * D) % P
D_MINUS_ONE_SQ = (D - 1) * (D - 1) % P


def encode(pt: tuple[int, int, int, int]) -> bytes:
    x0, y0, z0, t0 = pt
    u1 = (z0 + y0) * (z0 - y0) % P
    u2 = x0 * y0 % P
    _, invsqrt = sqrt_ratio_m1(1, u1 * u2 * u2)
    den1 = invsqrt * u1 % P
    den2 = invsqrt * u2 % P
    z_inv = den1 * den2 * t0 % P
    if _is_negative(t0 * z_inv):
        x, y, den_inv = y0 * SQRT_M1 % P, x0 * SQRT_M1 % P, den1 * INVSQRT_A_MINUS_D % P
    else:
        x, y, den_inv = x0, y0, den2
    if _is_negative(x * z_inv):
        y = -y
    return _abs(den_inv * (z0 - y)).to_bytes(32, "little")


def _elligator(t: int) -> tuple[int, int, int, int]:
    r = SQRT_M1 * t * t % P
    u = (r + 1) * ONE_MINUS_D_SQ % P
    v = (-1 - r * D) * (r + D) % P
    was_square, s = sqrt_ratio_m1(u, v)
    if not was_square:
        s = (-_abs(s * t)) % P
        c = r
    else:
        c = P - 1
    n = (c * (r - 1) * D_MINUS_ONE_SQ - v) % P
    w0 = 2 * s * v % P
    w1 = n * SQRT_AD_MINUS_ONE % P
    w2 = (1 - s * s) % P
    w3 = (1 + s * s) % P
    return (w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P)


def _add(p1: tuple[int, int, int, int], p2: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x1, y1 = p1[0] * _inv(p1[2]) % P, p1[1] * _inv(p1[2]) % P
    x2, y2 = p2[0] * _inv(p2[2]) % P, p2[1] * _inv(p2[2]) % P
    k = D * x1 * x2 * y1 * y2 % P
    x3 = (x1 * y2 + y1 * x2) * _inv(1 + k) % P
    y3 = (y1 * y2 + x1 * x2) * _inv(1 - k) % P
    return (x3, y3, 1, x3 * y3 % P)


def from_hash(digest: bytes) -> bytes:
    """RFC 9496 §4.3.4: MAP each 32-byte half (top bit masked), add, encode."""
    t1 = (int.from_bytes(digest[:32], "little") & ((1 << 255) - 1)) % P
    t2 = (int.from_bytes(digest[32:64], "little") & ((1 << 255) - 1)) % P
    return encode(_add(_elligator(t1), _elligator(t2)))


def ed25519_base_point() -> tuple[int, int, int, int]:
    y = 4 * _inv(5) % P
    _, x = sqrt_ratio_m1(y * y - 1, D * y * y + 1)   # x^2 = (y^2 − 1)/(d·y^2 + 1), x even
    return (x, y, 1, x * y % P)


def base_mul(n: int) -> bytes:
    """n·B by double-and-add (slow; for a few known answers)."""
    acc = (0, 1, 1, 0)
    addend = ed25519_base_point()
    while n:
        if n & 1:
            acc = _add(acc, addend)
        addend = _add(addend, addend)
        n >>= 1
    return encode(acc)
