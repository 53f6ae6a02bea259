/*
 * ristretto255 multi-scalar multiplication for p2p-asv (SPEC §25.13).
 *
 * libsodium has no multi-scalar multiplication and exports no curve internals, so this
 * small extension computes sum k_i * P_i itself: field arithmetic modulo p = 2^255 - 19
 * in five 51-bit limbs, points in extended twisted Edwards coordinates (a = -1; the
 * Hisil-Wong-Carter-Dawson formulas), ristretto255 decoding and encoding as RFC 9496
 * section 4.3 defines them, and the sum by Straus's method with width-5 NAF digits for
 * few terms or Pippenger's buckets with signed digits for many.
 *
 * msm, decode_ok and the Ed25519 functions are VARIABLE TIME: their inputs are public
 * (proof verification), never secrets. fixed_table, fixed_batch and ct_msm are the
 * prover's (SPEC §25.13, "the prover's sums"): constant time in their scalars, which are
 * secret nonces and randomisers; their points are public. The pure-Python paths in
 * protocol/crypto/msm.py must give the same answer for every input;
 * tests/test_msm_native.py and tests/test_prover_native.py cross-check them.
 *
 * Python interface:
 *   msm(scalars, points[, method]) -> bytes
 *                                      32*n little-endian scalars, each < L; 32*n encodings.
 *                                      method 0 (default) picks by cost; 1 forces Straus and
 *                                      4..15 Pippenger with that window (tests run every one).
 *                                      Returns the 32-byte encoding of the sum (all zeros for
 *                                      the identity). ValueError if a point does not decode
 *                                      (or is the identity, or has bit 255 set) or a scalar
 *                                      is not reduced.
 *   decode_ok(points) -> int           index of the first 32-byte encoding that is not a valid
 *                                      non-identity point, or -1 when all are.
 *   fixed_table(point) -> bytes      the table of a fixed base (32 rows of 1..8 times 256^i
 *                                      times the point, affine), for fixed_batch. ValueError
 *                                      if the point does not decode.
 *   fixed_batch(tables, scalars, adds) -> bytes
 *                                      m joined tables; count rows of m scalars (< L); adds
 *                                      empty or count encodings (zeros: add nothing). Row k:
 *                                      sum_t k_t B_t (+ adds[k]), encoded (zeros for the
 *                                      identity), the rows joined. Constant time in the scalars.
 *   ct_msm(scalars, points) -> bytes   what msm gives, constant time in the scalars.
 *   ed25519_batch_ok(scalars, points, n_checked) -> bool
 *                                      the same sum over strict Ed25519 encodings (ValueError
 *                                      if one does not decode): True iff it is the identity and
 *                                      the first n_checked points are of the prime-order
 *                                      subgroup, not the identity (by halving, SPEC §20.6). A
 *                                      batch of signatures is one such sum.
 *   ed25519_in_subgroup(points[, method]) -> bytes
 *                                      one byte a 32-byte encoding: 1 when it is a strict Ed25519
 *                                      encoding of a point of the prime-order subgroup other than
 *                                      the identity; method 0 (default) by halving, 1 by the
 *                                      multiplication by L (the reference the tests compare with).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
typedef unsigned __int128 u128;

/* ------------------------------------------------------------------ field GF(2^255-19) */

/* Value = v[0] + v[1]*2^51 + ... + v[4]*2^204. Limbs are "carried" (< 2^51 + 2^18) after
 * mul, sq, sub and carry; an add of two carried elements is < 2^52 + 2^19, which mul and sq
 * accept and sub accepts as its subtrahend (< 2^53 - 76). No add output is added again. */
typedef struct { u64 v[5]; } fe;

#define MASK51 ((((u64)1) << 51) - 1)

static const fe FE_ZERO = {{0, 0, 0, 0, 0}};
static const fe FE_ONE = {{1, 0, 0, 0, 0}};
/* d = -121665/121666, 2d, sqrt(-1) = 2^((p-1)/4), 1/sqrt(a-d) (RFC 9496 section 4.1) */
static const fe FE_D = {{0x34dca135978a3ULL, 0x1a8283b156ebdULL, 0x5e7a26001c029ULL, 0x739c663a03cbbULL, 0x52036cee2b6ffULL}};
static const fe FE_D2 = {{0x69b9426b2f159ULL, 0x35050762add7aULL, 0x3cf44c0038052ULL, 0x6738cc7407977ULL, 0x2406d9dc56dffULL}};
static const fe FE_SQRT_M1 = {{0x61b274a0ea0b0ULL, 0x0d5a5fc8f189dULL, 0x7ef5e9cbd0c60ULL, 0x78595a6804c9eULL, 0x2b8324804fc1dULL}};
static const fe FE_INVSQRT_A_MINUS_D = {{0x0fdaa805d40eaULL, 0x2eb482e57d339ULL, 0x007610274bc58ULL, 0x6510b613dc8ffULL, 0x786c8905cfaffULL}};

static inline void fe_carry(fe *h)
{
    u64 c;
    c = h->v[0] >> 51; h->v[0] &= MASK51; h->v[1] += c;
    c = h->v[1] >> 51; h->v[1] &= MASK51; h->v[2] += c;
    c = h->v[2] >> 51; h->v[2] &= MASK51; h->v[3] += c;
    c = h->v[3] >> 51; h->v[3] &= MASK51; h->v[4] += c;
    c = h->v[4] >> 51; h->v[4] &= MASK51; h->v[0] += 19 * c;
}

static inline void fe_add(fe *h, const fe *f, const fe *g)
{
    for (int i = 0; i < 5; i++)
        h->v[i] = f->v[i] + g->v[i];
}

/* h = f - g, computed as f + 4p - g so no limb goes below zero (g limbs < 2^53 - 76). */
static inline void fe_sub(fe *h, const fe *f, const fe *g)
{
    h->v[0] = f->v[0] + 0x1fffffffffffb4ULL - g->v[0];
    h->v[1] = f->v[1] + 0x1ffffffffffffcULL - g->v[1];
    h->v[2] = f->v[2] + 0x1ffffffffffffcULL - g->v[2];
    h->v[3] = f->v[3] + 0x1ffffffffffffcULL - g->v[3];
    h->v[4] = f->v[4] + 0x1ffffffffffffcULL - g->v[4];
    fe_carry(h);
}

static inline void fe_neg(fe *h, const fe *f)
{
    fe_sub(h, &FE_ZERO, f);
}

/* Reduce the five 128-bit column sums to carried limbs. */
static inline void fe_reduce_wide(fe *h, u128 t0, u128 t1, u128 t2, u128 t3, u128 t4)
{
    u64 r0, r1, r2, r3, r4;
    t1 += (u64)(t0 >> 51); r0 = (u64)t0 & MASK51;
    t2 += (u64)(t1 >> 51); r1 = (u64)t1 & MASK51;
    t3 += (u64)(t2 >> 51); r2 = (u64)t2 & MASK51;
    t4 += (u64)(t3 >> 51); r3 = (u64)t3 & MASK51;
    u128 c = t4 >> 51;     r4 = (u64)t4 & MASK51;
    u128 x = (u128)r0 + c * 19;          /* c < 2^70: no overflow in 128 bits */
    r0 = (u64)x & MASK51;
    r1 += (u64)(x >> 51);                /* x >> 51 < 2^20 */
    h->v[0] = r0; h->v[1] = r1; h->v[2] = r2; h->v[3] = r3; h->v[4] = r4;
}

static inline void fe_mul(fe *h, const fe *f, const fe *g)
{
    u64 f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    u64 g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3], g4 = g->v[4];
    u64 g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4;
    u128 t0 = (u128)f0 * g0 + (u128)f1 * g4_19 + (u128)f2 * g3_19 + (u128)f3 * g2_19 + (u128)f4 * g1_19;
    u128 t1 = (u128)f0 * g1 + (u128)f1 * g0 + (u128)f2 * g4_19 + (u128)f3 * g3_19 + (u128)f4 * g2_19;
    u128 t2 = (u128)f0 * g2 + (u128)f1 * g1 + (u128)f2 * g0 + (u128)f3 * g4_19 + (u128)f4 * g3_19;
    u128 t3 = (u128)f0 * g3 + (u128)f1 * g2 + (u128)f2 * g1 + (u128)f3 * g0 + (u128)f4 * g4_19;
    u128 t4 = (u128)f0 * g4 + (u128)f1 * g3 + (u128)f2 * g2 + (u128)f3 * g1 + (u128)f4 * g0;
    fe_reduce_wide(h, t0, t1, t2, t3, t4);
}

static inline void fe_sq(fe *h, const fe *f)
{
    u64 f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    u64 f0_2 = 2 * f0, f1_2 = 2 * f1;
    u64 f1_38 = 38 * f1, f2_38 = 38 * f2, f3_38 = 38 * f3, f3_19 = 19 * f3, f4_19 = 19 * f4;
    u128 t0 = (u128)f0 * f0 + (u128)f1_38 * f4 + (u128)f2_38 * f3;
    u128 t1 = (u128)f0_2 * f1 + (u128)f2_38 * f4 + (u128)f3_19 * f3;
    u128 t2 = (u128)f0_2 * f2 + (u128)f1 * f1 + (u128)f3_38 * f4;
    u128 t3 = (u128)f0_2 * f3 + (u128)f1_2 * f2 + (u128)f4_19 * f4;
    u128 t4 = (u128)f0_2 * f4 + (u128)f1_2 * f3 + (u128)f2 * f2;
    fe_reduce_wide(h, t0, t1, t2, t3, t4);
}

/* h = f^(2^n) for n >= 1 */
static void fe_sq_n(fe *h, const fe *f, int n)
{
    fe_sq(h, f);
    for (int i = 1; i < n; i++)
        fe_sq(h, h);
}

static inline u64 load64_le(const unsigned char *s)
{
    u64 r = 0;
    for (int i = 7; i >= 0; i--)
        r = (r << 8) | s[i];
    return r;
}

static inline void store64_le(unsigned char *s, u64 x)
{
    for (int i = 0; i < 8; i++) {
        s[i] = (unsigned char)(x & 0xff);
        x >>= 8;
    }
}

/* Bits 0..254 of s (bit 255 is dropped: callers that care look at it themselves). */
static void fe_frombytes(fe *h, const unsigned char s[32])
{
    u64 w0 = load64_le(s), w1 = load64_le(s + 8), w2 = load64_le(s + 16), w3 = load64_le(s + 24);
    h->v[0] = w0 & MASK51;
    h->v[1] = ((w0 >> 51) | (w1 << 13)) & MASK51;
    h->v[2] = ((w1 >> 38) | (w2 << 26)) & MASK51;
    h->v[3] = ((w2 >> 25) | (w3 << 39)) & MASK51;
    h->v[4] = (w3 >> 12) & MASK51;
}

/* The canonical encoding: the representative in [0, p), little-endian, bit 255 clear. */
static void fe_tobytes(unsigned char s[32], const fe *f)
{
    fe t = *f;
    fe_carry(&t);
    fe_carry(&t);             /* now t < 2^255 + 19*2: every limb < 2^51 except v[0] a little over */
    /* q = 1 iff t >= p: the carry out of bit 255 when adding 19 */
    u64 q = (t.v[0] + 19) >> 51;
    q = (t.v[1] + q) >> 51;
    q = (t.v[2] + q) >> 51;
    q = (t.v[3] + q) >> 51;
    q = (t.v[4] + q) >> 51;
    t.v[0] += 19 * q;         /* t + 19q - q*2^255: the 2^255 goes with the mask below */
    u64 c;
    c = t.v[0] >> 51; t.v[0] &= MASK51; t.v[1] += c;
    c = t.v[1] >> 51; t.v[1] &= MASK51; t.v[2] += c;
    c = t.v[2] >> 51; t.v[2] &= MASK51; t.v[3] += c;
    c = t.v[3] >> 51; t.v[3] &= MASK51; t.v[4] += c;
    t.v[4] &= MASK51;
    store64_le(s, t.v[0] | (t.v[1] << 51));
    store64_le(s + 8, (t.v[1] >> 13) | (t.v[2] << 38));
    store64_le(s + 16, (t.v[2] >> 26) | (t.v[3] << 25));
    store64_le(s + 24, (t.v[3] >> 39) | (t.v[4] << 12));
}

static int fe_is_negative(const fe *f)
{
    unsigned char s[32];
    fe_tobytes(s, f);
    return s[0] & 1;
}

static int fe_is_zero(const fe *f)
{
    unsigned char s[32];
    unsigned char acc = 0;
    fe_tobytes(s, f);
    for (int i = 0; i < 32; i++)
        acc |= s[i];
    return acc == 0;
}

static int fe_eq(const fe *f, const fe *g)
{
    unsigned char a[32], b[32];
    fe_tobytes(a, f);
    fe_tobytes(b, g);
    return memcmp(a, b, 32) == 0;
}

/* |f|: f or -f, whichever is non-negative (even); carried. */
static void fe_abs(fe *h, const fe *f)
{
    if (fe_is_negative(f)) {
        fe_neg(h, f);
    } else {
        *h = *f;
        fe_carry(h);
    }
}

/* h = z^((p-5)/8) = z^(2^252 - 3) */
static void fe_pow22523(fe *h, const fe *z)
{
    fe z2, z9, z11, a, b, c;
    fe_sq(&z2, z);                  /* z^2 */
    fe_sq_n(&a, &z2, 2);            /* z^8 */
    fe_mul(&z9, &a, z);             /* z^9 */
    fe_mul(&z11, &z9, &z2);         /* z^11 */
    fe_sq(&a, &z11);                /* z^22 */
    fe_mul(&a, &a, &z9);            /* z^31 = z^(2^5 - 1) */
    fe_sq_n(&b, &a, 5);
    fe_mul(&a, &b, &a);             /* z^(2^10 - 1) */
    fe_sq_n(&b, &a, 10);
    fe_mul(&b, &b, &a);             /* z^(2^20 - 1) */
    fe_sq_n(&c, &b, 20);
    fe_mul(&b, &c, &b);             /* z^(2^40 - 1) */
    fe_sq_n(&b, &b, 10);
    fe_mul(&a, &b, &a);             /* z^(2^50 - 1) */
    fe_sq_n(&b, &a, 50);
    fe_mul(&b, &b, &a);             /* z^(2^100 - 1) */
    fe_sq_n(&c, &b, 100);
    fe_mul(&b, &c, &b);             /* z^(2^200 - 1) */
    fe_sq_n(&b, &b, 50);
    fe_mul(&a, &b, &a);             /* z^(2^250 - 1) */
    fe_sq_n(&a, &a, 2);             /* z^(2^252 - 4) */
    fe_mul(h, &a, z);               /* z^(2^252 - 3) */
}

/* RFC 9496 section 4.2 SQRT_RATIO_M1(u, v): returns was_square, and r = the non-negative
 * sqrt(u/v) when u/v is a square, else the non-negative sqrt(i*u/v). */
static int fe_sqrt_ratio_m1(fe *r_out, const fe *u, const fe *v)
{
    fe v3, v7, t, r, check, neg_u, neg_u_i;
    fe_sq(&v3, v);
    fe_mul(&v3, &v3, v);            /* v^3 */
    fe_sq(&v7, &v3);
    fe_mul(&v7, &v7, v);            /* v^7 */
    fe_mul(&t, u, &v7);
    fe_pow22523(&t, &t);            /* (u v^7)^((p-5)/8) */
    fe_mul(&r, u, &v3);
    fe_mul(&r, &r, &t);
    fe_sq(&check, &r);
    fe_mul(&check, &check, v);
    fe_neg(&neg_u, u);
    fe_mul(&neg_u_i, &neg_u, &FE_SQRT_M1);
    int correct = fe_eq(&check, u);
    int flipped = fe_eq(&check, &neg_u);
    int flipped_i = fe_eq(&check, &neg_u_i);
    if (flipped || flipped_i)
        fe_mul(&r, &r, &FE_SQRT_M1);
    fe_abs(r_out, &r);
    return correct || flipped;
}

/* ------------------------------------------------------------------ group (a = -1) */

typedef struct { fe X, Y, Z, T; } ge_p3;          /* x = X/Z, y = Y/Z, xy = T/Z */
typedef struct { fe X, Y, Z; } ge_p2;             /* projective, T not kept */
typedef struct { fe E, F, G, H; } ge_p1p1;        /* X = EF, Y = GH, Z = FG, T = EH */
typedef struct { fe YpX, YmX, Z2, T2d; } ge_cached; /* Y+X, Y-X, 2Z, 2dT: an addend */

static void p3_identity(ge_p3 *p)
{
    p->X = FE_ZERO; p->Y = FE_ONE; p->Z = FE_ONE; p->T = FE_ZERO;
}

static void p1p1_to_p3(ge_p3 *r, const ge_p1p1 *p)
{
    fe_mul(&r->X, &p->E, &p->F);
    fe_mul(&r->Y, &p->G, &p->H);
    fe_mul(&r->Z, &p->F, &p->G);
    fe_mul(&r->T, &p->E, &p->H);
}

static void p1p1_to_p2(ge_p2 *r, const ge_p1p1 *p)
{
    fe_mul(&r->X, &p->E, &p->F);
    fe_mul(&r->Y, &p->G, &p->H);
    fe_mul(&r->Z, &p->F, &p->G);
}

static void p3_to_p2(ge_p2 *r, const ge_p3 *p)
{
    r->X = p->X; r->Y = p->Y; r->Z = p->Z;
}

static void p3_to_cached(ge_cached *r, const ge_p3 *p)
{
    fe_add(&r->YpX, &p->Y, &p->X);
    fe_sub(&r->YmX, &p->Y, &p->X);
    fe_add(&r->Z2, &p->Z, &p->Z);
    fe_mul(&r->T2d, &p->T, &FE_D2);
}

static void p3_neg(ge_p3 *r, const ge_p3 *p)
{
    fe_neg(&r->X, &p->X);
    r->Y = p->Y;
    r->Z = p->Z;
    fe_neg(&r->T, &p->T);
}

/* r = p + q (the unified formula: complete on this curve, so any inputs, equal ones too) */
static void ge_add(ge_p1p1 *r, const ge_p3 *p, const ge_cached *q)
{
    fe a, b, c, d, t;
    fe_sub(&t, &p->Y, &p->X);
    fe_mul(&a, &t, &q->YmX);
    fe_add(&t, &p->Y, &p->X);
    fe_mul(&b, &t, &q->YpX);
    fe_mul(&c, &p->T, &q->T2d);
    fe_mul(&d, &p->Z, &q->Z2);
    fe_sub(&r->E, &b, &a);
    fe_sub(&r->F, &d, &c);
    fe_add(&r->G, &d, &c);
    fe_add(&r->H, &b, &a);
}

/* r = p - q: the addition with q negated, (Y+X, Y-X) swapped and 2dT negated */
static void ge_sub(ge_p1p1 *r, const ge_p3 *p, const ge_cached *q)
{
    fe a, b, c, d, t;
    fe_sub(&t, &p->Y, &p->X);
    fe_mul(&a, &t, &q->YpX);
    fe_add(&t, &p->Y, &p->X);
    fe_mul(&b, &t, &q->YmX);
    fe_mul(&c, &p->T, &q->T2d);
    fe_mul(&d, &p->Z, &q->Z2);
    fe_sub(&r->E, &b, &a);
    fe_add(&r->F, &d, &c);
    fe_sub(&r->G, &d, &c);
    fe_add(&r->H, &b, &a);
}

/* r = 2p */
static void ge_dbl(ge_p1p1 *r, const ge_p2 *p)
{
    fe a, b, c, t, s;
    fe_sq(&a, &p->X);
    fe_sq(&b, &p->Y);
    fe_sq(&c, &p->Z);
    fe_add(&c, &c, &c);             /* 2 Z^2 */
    fe_add(&t, &p->X, &p->Y);
    fe_sq(&t, &t);                  /* (X + Y)^2 */
    fe_sub(&t, &t, &a);
    fe_sub(&r->E, &t, &b);          /* E = 2XY */
    fe_sub(&r->G, &b, &a);          /* G = B - A */
    fe_sub(&r->F, &r->G, &c);       /* F = G - C */
    fe_add(&s, &a, &b);
    fe_neg(&r->H, &s);              /* H = -A - B */
}

static void p3_add_p3(ge_p3 *r, const ge_p3 *p, const ge_p3 *q)
{
    ge_cached qc;
    ge_p1p1 t;
    p3_to_cached(&qc, q);
    ge_add(&t, p, &qc);
    p1p1_to_p3(r, &t);
}

/* RFC 9496 section 4.3.1. Returns 1 and the point when s is a canonical encoding of a
 * group element other than the identity (bit 255 clear), else 0. */
static int ristretto_decode(ge_p3 *p, const unsigned char s_bytes[32])
{
    unsigned char check[32];
    unsigned char any = 0;
    fe s, ss, u1, u2, u2_sqr, v, t, invsqrt, den_x, den_y, x, y;

    for (int i = 0; i < 32; i++)
        any |= s_bytes[i];
    if (any == 0)
        return 0;                   /* the identity: refused, as validate_point does */
    if (s_bytes[31] & 0x80)
        return 0;                   /* bit 255 set: not canonical */
    fe_frombytes(&s, s_bytes);
    fe_tobytes(check, &s);
    if (memcmp(check, s_bytes, 32) != 0)
        return 0;                   /* s >= p */
    if (s_bytes[0] & 1)
        return 0;                   /* s negative */

    fe_sq(&ss, &s);
    fe_sub(&u1, &FE_ONE, &ss);
    fe_add(&u2, &FE_ONE, &ss);
    fe_sq(&u2_sqr, &u2);
    fe_sq(&t, &u1);
    fe_mul(&t, &t, &FE_D);
    fe_neg(&t, &t);
    fe_sub(&v, &t, &u2_sqr);        /* v = -(d u1^2) - u2^2 */
    fe_mul(&t, &v, &u2_sqr);
    int was_square = fe_sqrt_ratio_m1(&invsqrt, &FE_ONE, &t);
    fe_mul(&den_x, &invsqrt, &u2);
    fe_mul(&den_y, &invsqrt, &den_x);
    fe_mul(&den_y, &den_y, &v);
    fe_mul(&t, &s, &den_x);
    fe_add(&t, &t, &t);
    fe_abs(&x, &t);                 /* x = |2 s den_x| */
    fe_mul(&y, &u1, &den_y);
    fe_mul(&t, &x, &y);
    if (!was_square || fe_is_negative(&t) || fe_is_zero(&y))
        return 0;
    p->X = x;
    p->Y = y;
    p->Z = FE_ONE;
    p->T = t;
    return 1;
}

/* RFC 9496 section 4.3.2 (the identity, and anything equal to it, encodes to zeros). */
static void ristretto_encode(unsigned char s_out[32], const ge_p3 *p)
{
    fe u1, u2, t, a, b, invsqrt, den1, den2, z_inv, ix, iy, x, y, den_inv;
    fe_add(&a, &p->Z, &p->Y);
    fe_sub(&b, &p->Z, &p->Y);
    fe_mul(&u1, &a, &b);
    fe_mul(&u2, &p->X, &p->Y);
    fe_sq(&t, &u2);
    fe_mul(&t, &t, &u1);
    (void)fe_sqrt_ratio_m1(&invsqrt, &FE_ONE, &t);
    fe_mul(&den1, &invsqrt, &u1);
    fe_mul(&den2, &invsqrt, &u2);
    fe_mul(&z_inv, &den1, &den2);
    fe_mul(&z_inv, &z_inv, &p->T);
    fe_mul(&ix, &p->X, &FE_SQRT_M1);
    fe_mul(&iy, &p->Y, &FE_SQRT_M1);
    fe_mul(&t, &p->T, &z_inv);
    if (fe_is_negative(&t)) {
        x = iy;
        y = ix;
        fe_mul(&den_inv, &den1, &FE_INVSQRT_A_MINUS_D);
    } else {
        x = p->X;
        y = p->Y;
        den_inv = den2;
    }
    fe_mul(&t, &x, &z_inv);
    if (fe_is_negative(&t))
        fe_neg(&y, &y);
    else
        fe_carry(&y);
    fe_sub(&t, &p->Z, &y);
    fe_mul(&t, &den_inv, &t);
    fe_abs(&t, &t);
    fe_tobytes(s_out, &t);
}

/* ------------------------------------------------------------------ scalars */

/* L = 2^252 + 27742317777372353535851937790883648493, little-endian */
static const unsigned char L_BYTES[32] = {
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10};

static int scalar_is_reduced(const unsigned char s[32])
{
    for (int i = 31; i >= 0; i--) {
        if (s[i] < L_BYTES[i])
            return 1;
        if (s[i] > L_BYTES[i])
            return 0;
    }
    return 0;                       /* equal to L */
}

/* The scalar as six 64-bit words, the top two zero, so a window read past bit 255 is zero. */
#define SC_WORDS 6
static void scalar_words(u64 w[SC_WORDS], const unsigned char s[32])
{
    for (int i = 0; i < 4; i++)
        w[i] = load64_le(s + 8 * i);
    w[4] = 0;
    w[5] = 0;
}

/* bits [pos, pos + width) of w, width <= 32, pos + width <= 64 * (SC_WORDS - 1) */
static u64 scalar_bits(const u64 w[SC_WORDS], unsigned pos, unsigned width)
{
    unsigned limb = pos / 64, sh = pos % 64;
    u64 v = w[limb] >> sh;
    if (sh + width > 64)
        v |= w[limb + 1] << (64 - sh);
    return v & ((((u64)1) << width) - 1);
}

/* Width-5 NAF: digits odd in [-15, 15] or zero, at most one non-zero in any 5 in a row,
 * sum naf[i] 2^i = k. k < L < 2^253, so NAF_LEN digits are enough. Returns the index of the
 * top non-zero digit, or -1 for k = 0. */
#define NAF_W 5
#define NAF_LEN 256
#define NAF_TABLE 8                 /* odd multiples 1P, 3P, ..., 15P */
static int naf_recode(signed char naf[NAF_LEN], const unsigned char s[32])
{
    u64 k[SC_WORDS];
    int top = -1;
    scalar_words(k, s);
    memset(naf, 0, NAF_LEN);
    for (int i = 0; i < NAF_LEN; i++) {
        if (k[0] & 1) {
            int d = (int)(k[0] & ((1u << NAF_W) - 1));    /* k mod 32 */
            if (d >= (1 << (NAF_W - 1)))
                d -= (1 << NAF_W);                          /* to (-16, 16), odd */
            naf[i] = (signed char)d;
            top = i;
            /* k -= d: d > 0 clears the low bits; d < 0 adds |d|, carrying */
            if (d > 0) {
                k[0] -= (u64)d;
            } else {
                u64 add = (u64)(-d);
                for (int j = 0; j < SC_WORDS && add; j++) {
                    u64 before = k[j];
                    k[j] += add;
                    add = (k[j] < before) ? 1 : 0;
                }
            }
        }
        /* k >>= 1 */
        for (int j = 0; j < SC_WORDS - 1; j++)
            k[j] = (k[j] >> 1) | (k[j + 1] << 63);
        k[SC_WORDS - 1] >>= 1;
    }
    return top;
}

/* ------------------------------------------------------------------ the sums */

/* Straus: one shared chain of doublings, each point adding its own NAF digits from a table
 * of its odd multiples. */
static void msm_straus(ge_p3 *out, size_t n, const ge_p3 *pts, const unsigned char *scalars,
                       ge_cached *tab /* n * NAF_TABLE */, signed char *naf /* NAF_LEN * n */)
{
    int top = -1;
    for (size_t j = 0; j < n; j++) {
        signed char one[NAF_LEN];
        int t = naf_recode(one, scalars + 32 * j);
        if (t > top)
            top = t;
        for (int i = 0; i < NAF_LEN; i++)
            naf[(size_t)i * n + j] = one[i];        /* digit-major: the main loop reads in order */
        /* table: P, 3P, 5P, ..., 15P */
        ge_p3 cur = pts[j], p2x;
        ge_p2 pp;
        ge_p1p1 r;
        ge_cached twice;
        p3_to_p2(&pp, &pts[j]);
        ge_dbl(&r, &pp);
        p1p1_to_p3(&p2x, &r);
        p3_to_cached(&twice, &p2x);
        p3_to_cached(&tab[j * NAF_TABLE], &cur);
        for (int m = 1; m < NAF_TABLE; m++) {
            ge_add(&r, &cur, &twice);
            p1p1_to_p3(&cur, &r);
            p3_to_cached(&tab[j * NAF_TABLE + m], &cur);
        }
    }
    ge_p3 acc;
    p3_identity(&acc);
    if (top < 0) {
        *out = acc;
        return;
    }
    ge_p2 a2;
    ge_p1p1 r;
    p3_to_p2(&a2, &acc);
    for (int i = top; i >= 0; i--) {
        ge_dbl(&r, &a2);
        for (size_t j = 0; j < n; j++) {
            int d = naf[(size_t)i * n + j];
            if (d == 0)
                continue;
            p1p1_to_p3(&acc, &r);
            if (d > 0)
                ge_add(&r, &acc, &tab[j * NAF_TABLE + d / 2]);
            else
                ge_sub(&r, &acc, &tab[j * NAF_TABLE + (-d) / 2]);
        }
        if (i > 0)
            p1p1_to_p2(&a2, &r);
        else
            p1p1_to_p3(&acc, &r);
    }
    *out = acc;
}

/* Pippenger: windows of c bits as signed digits in [-(2^(c-1) - 1), 2^(c-1)]; per window
 * each point goes into the bucket of its digit's size (negated for a negative digit) and
 * the buckets are summed by the running-sum trick: sum_b b * bucket_b. */
#define PIP_MAX_C 15                 /* digits up to 2^14 fit the int16_t digit array */
static unsigned pip_windows(unsigned c)
{
    return (253 + c - 1) / c + 1;   /* 253 bits, plus one window for the last carry */
}

static void msm_pippenger(ge_p3 *out, size_t n, unsigned c, const ge_p3 *pts, const unsigned char *scalars,
                          ge_cached *cpts /* n */, int16_t *digits /* n * windows */,
                          ge_p3 *buckets /* 2^(c-1) */, unsigned char *used /* 2^(c-1) */)
{
    unsigned nw = pip_windows(c);
    size_t nb = (size_t)1 << (c - 1);
    int half = 1 << (c - 1), full = 1 << c;
    for (size_t j = 0; j < n; j++) {
        u64 w[SC_WORDS];
        int carry = 0;
        scalar_words(w, scalars + 32 * j);
        for (unsigned i = 0; i < nw; i++) {
            int v = (int)scalar_bits(w, i * c, c) + carry;
            if (v > half) {
                v -= full;
                carry = 1;
            } else {
                carry = 0;
            }
            digits[j * nw + i] = (int16_t)v;
        }
        p3_to_cached(&cpts[j], &pts[j]);
    }
    ge_p3 total;
    int total_set = 0;
    ge_p1p1 r;
    for (unsigned wi = nw; wi-- > 0;) {
        if (total_set) {
            ge_p2 t2;
            p3_to_p2(&t2, &total);
            for (unsigned b = 0; b < c; b++) {
                ge_dbl(&r, &t2);
                if (b + 1 < c)
                    p1p1_to_p2(&t2, &r);
            }
            p1p1_to_p3(&total, &r);
        }
        memset(used, 0, nb);
        for (size_t j = 0; j < n; j++) {
            int d = digits[j * nw + wi];
            if (d == 0)
                continue;
            size_t b = (size_t)(d > 0 ? d : -d) - 1;
            if (!used[b]) {
                if (d > 0)
                    buckets[b] = pts[j];
                else
                    p3_neg(&buckets[b], &pts[j]);
                used[b] = 1;
            } else {
                if (d > 0)
                    ge_add(&r, &buckets[b], &cpts[j]);
                else
                    ge_sub(&r, &buckets[b], &cpts[j]);
                p1p1_to_p3(&buckets[b], &r);
            }
        }
        ge_p3 running, sum;
        int running_set = 0, sum_set = 0;
        for (size_t b = nb; b-- > 0;) {
            if (used[b]) {
                if (running_set)
                    p3_add_p3(&running, &running, &buckets[b]);
                else
                    running = buckets[b];
                running_set = 1;
            }
            if (running_set) {
                if (sum_set)
                    p3_add_p3(&sum, &sum, &running);
                else
                    sum = running;
                sum_set = 1;
            }
        }
        if (sum_set) {
            if (total_set)
                p3_add_p3(&total, &total, &sum);
            else
                total = sum;
            total_set = 1;
        }
    }
    if (!total_set)
        p3_identity(&total);
    *out = total;
}

/* Estimated point additions (doublings counted the same) for each method; the choice only
 * affects speed, never the result. */
static double straus_cost(size_t n)
{
    /* 1.3: measured (benchmarks/msm_bench.py), Straus's adds cost more than the model's,
     * Pippenger wins from about 128 terms on this project's machine */
    return 1.3 * ((double)n * (NAF_TABLE + 1 + 253.0 / (NAF_W + 1)) + 253.0);
}

static unsigned pip_best_c(size_t n, double *cost_out)
{
    unsigned best = 4;
    double best_cost = 0;
    for (unsigned c = 4; c <= PIP_MAX_C; c++) {
        double cost = (double)pip_windows(c) * ((double)n + (double)(1u << c)) + 253.0;
        if (c == 4 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    *cost_out = best_cost;
    return best;
}

/* 1 when all n 32-byte scalars at sp are below L; else 0 with ValueError naming the first. */
static int scalars_reduced(const unsigned char *sp, size_t n, const char *who)
{
    for (size_t j = 0; j < n; j++) {
        if (!scalar_is_reduced(sp + 32 * j)) {
            PyErr_Format(PyExc_ValueError, "%s: scalar %zu is not reduced modulo L", who, j);
            return 0;
        }
    }
    return 1;
}

/* bounds every work buffer's size (n * 1280 bytes at most for Straus) far below SIZE_MAX */
#define MSM_MAX_TERMS ((size_t)1 << 24)

/* sum = sum k_j P_j by the method asked (0: by cost, 1: Straus, 4..15: Pippenger with that
 * window), n >= 1. Returns 0, or -1 with MemoryError set. */
static int msm_by_method(ge_p3 *sum, size_t n, const ge_p3 *pts, const unsigned char *sp, int method)
{
    void *work1 = NULL, *work2 = NULL, *work3 = NULL, *work4 = NULL;
    int status = -1;
    double pcost;
    unsigned c = pip_best_c(n, &pcost);
    int use_straus = straus_cost(n) <= pcost;
    if (method == 1) {
        use_straus = 1;
    } else if (method >= 4) {
        use_straus = 0;
        c = (unsigned)method;
    }
    if (use_straus) {
        work1 = PyMem_Malloc(n * NAF_TABLE * sizeof(ge_cached));
        work2 = PyMem_Malloc(n * NAF_LEN);
        if (work1 == NULL || work2 == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        Py_BEGIN_ALLOW_THREADS
        msm_straus(sum, n, pts, sp, (ge_cached *)work1, (signed char *)work2);
        Py_END_ALLOW_THREADS
    } else {
        size_t nb = (size_t)1 << (c - 1);
        work1 = PyMem_Malloc(n * sizeof(ge_cached));
        work2 = PyMem_Malloc(n * pip_windows(c) * sizeof(int16_t));
        work3 = PyMem_Malloc(nb * sizeof(ge_p3));
        work4 = PyMem_Malloc(nb);
        if (work1 == NULL || work2 == NULL || work3 == NULL || work4 == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        Py_BEGIN_ALLOW_THREADS
        msm_pippenger(sum, n, c, pts, sp, (ge_cached *)work1, (int16_t *)work2, (ge_p3 *)work3,
                      (unsigned char *)work4);
        Py_END_ALLOW_THREADS
    }
    status = 0;
done:
    PyMem_Free(work1);
    PyMem_Free(work2);
    PyMem_Free(work3);
    PyMem_Free(work4);
    return status;
}

/* ------------------------------------------------------------------ constant time (secret scalars) */

/* The prover's sums (SPEC §25.13, "secret scalars"): its scalars are nonces and witnesses,
 * so these functions neither branch nor index memory on a scalar. Each scalar is written in
 * 64 signed radix-16 digits in [-8, 8] (as ref10's base multiplication does); the multiple
 * of a digit is read from a table of 1P..8P by scanning all eight entries with masks, and
 * negated by a masked swap. The points are public (validated encodings, decoded in variable
 * time as everywhere here), and so is each sum once encoded. */

_Static_assert(sizeof(ge_cached) == 20 * sizeof(u64), "ge_cached is twenty limbs, no padding");

/* f = g when b = 1, f unchanged when b = 0 (b is 0 or 1), without a branch */
static inline void fe_cmov(fe *f, const fe *g, u64 b)
{
    u64 mask = (u64)0 - b;
    for (int i = 0; i < 5; i++)
        f->v[i] ^= mask & (f->v[i] ^ g->v[i]);
}

static inline void cached_cmov(ge_cached *t, const ge_cached *u, u64 b)
{
    fe_cmov(&t->YpX, &u->YpX, b);
    fe_cmov(&t->YmX, &u->YmX, b);
    fe_cmov(&t->Z2, &u->Z2, b);
    fe_cmov(&t->T2d, &u->T2d, b);
}

/* 1 when a == b, else 0, without a branch */
static inline u64 ct_eq(u64 a, u64 b)
{
    u64 x = a ^ b;
    return 1 ^ ((x | ((u64)0 - x)) >> 63);
}

/* out[0..limbs) = the entry of index mag (1..8) of entries (8 entries of `limbs` u64 each,
 * back to back), or `identity` for mag = 0: every entry is read and masked, so neither the
 * time nor the memory touched depends on mag. limbs is 15 or 20 (even pairs for the vector
 * path, which gcc and clang turn into two-lane SIMD where the machine has it). */
#if defined(__GNUC__) || defined(__clang__)
typedef u64 v2u64 __attribute__((vector_size(16)));
#define HAVE_V2 1
#endif
static inline void ct_pick(u64 *out, const u64 *entries, size_t limbs, const u64 *identity, u64 mag)
{
    u64 masks[9];
    for (u64 j = 0; j < 9; j++)
        masks[j] = (u64)0 - ct_eq(mag, j);
    size_t k = 0;
#ifdef HAVE_V2
    v2u64 mv[9];
    for (int j = 0; j < 9; j++) {
        v2u64 m = {masks[j], masks[j]};
        mv[j] = m;
    }
    for (; k + 2 <= limbs; k += 2) {
        v2u64 acc, e;
        memcpy(&acc, identity + k, 16);
        acc &= mv[0];
#pragma GCC unroll 8     /* gcc -O2 leaves the eight reads a loop otherwise: 43 -> 26 ns a read */
        for (size_t j = 0; j < 8; j++) {
            memcpy(&e, entries + j * limbs + k, 16);
            acc |= e & mv[j + 1];
        }
        memcpy(out + k, &acc, 16);
    }
#endif
    for (; k < limbs; k++) {
        u64 acc = identity[k] & masks[0];
        for (size_t j = 0; j < 8; j++)
            acc |= entries[j * limbs + k] & masks[j + 1];
        out[k] = acc;
    }
}

/* t = d·P from table[0..7] = 1P..8P, for a digit d in [-8, 8] (0 gives the identity). */
static const u64 CACHED_IDENTITY[20] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static void cached_select(ge_cached *t, const ge_cached table[8], signed char d)
{
    u64 neg = (u64)((int64_t)d >> 63) & 1;
    u64 mag = (u64)(((int64_t)d ^ -(int64_t)neg) + (int64_t)neg);    /* |d| */
    ge_cached minus;
    ct_pick((u64 *)t, (const u64 *)table, 20, CACHED_IDENTITY, mag);
    minus.YpX = t->YmX;
    minus.YmX = t->YpX;
    minus.Z2 = t->Z2;
    fe_neg(&minus.T2d, &t->T2d);
    cached_cmov(t, &minus, neg);
}

/* A scalar below 2^255 as 64 digits in [-8, 8], sum e[i] 16^i = k (ref10's recoding; no
 * branch on the scalar). */
static void radix16(signed char e[64], const unsigned char s[32])
{
    int carry = 0;
    for (int i = 0; i < 32; i++) {
        e[2 * i] = (signed char)(s[i] & 15);
        e[2 * i + 1] = (signed char)((s[i] >> 4) & 15);
    }
    for (int i = 0; i < 63; i++) {
        e[i] = (signed char)(e[i] + carry);
        carry = (e[i] + 8) >> 4;
        e[i] = (signed char)(e[i] - carry * 16);
    }
    e[63] = (signed char)(e[63] + carry);
}

/* 1P, 2P, ..., 8P */
static void multiples8(ge_cached tab[8], const ge_p3 *p)
{
    ge_p3 cur = *p;
    ge_cached one;
    ge_p1p1 r;
    p3_to_cached(&one, p);
    tab[0] = one;
    for (int m = 1; m < 8; m++) {
        ge_add(&r, &cur, &one);
        p1p1_to_p3(&cur, &r);
        p3_to_cached(&tab[m], &cur);
    }
}

/* acc = 16·acc (four doublings) */
static void times16(ge_p3 *acc)
{
    ge_p2 a2;
    ge_p1p1 r;
    p3_to_p2(&a2, acc);
    for (int k = 0; k < 3; k++) {
        ge_dbl(&r, &a2);
        p1p1_to_p2(&a2, &r);
    }
    ge_dbl(&r, &a2);
    p1p1_to_p3(acc, &r);
}

static inline void add_cached(ge_p3 *acc, const ge_cached *q)
{
    ge_p1p1 r;
    ge_add(&r, acc, q);
    p1p1_to_p3(acc, &r);
}

/* h = 1/z = z^(p - 2) = (z^(2^252 - 3))^8 · z^3 (0 for z = 0) */
static void fe_invert(fe *h, const fe *z)
{
    fe t, z3;
    fe_pow22523(&t, z);
    fe_sq_n(&t, &t, 3);
    fe_sq(&z3, z);
    fe_mul(&z3, &z3, z);
    fe_mul(h, &t, &z3);
}

/* A fixed base's table entry: an affine point (Z = 1) as y + x, y - x, 2d·x·y, so an
 * addition of it costs 7 multiplications and a masked read 15 limbs (ref10's "niels" form). */
typedef struct { fe ypx, ymx, xy2d; } ge_niels;
_Static_assert(sizeof(ge_niels) == 15 * sizeof(u64), "ge_niels is fifteen limbs, no padding");

static inline void niels_cmov(ge_niels *t, const ge_niels *u, u64 b)
{
    fe_cmov(&t->ypx, &u->ypx, b);
    fe_cmov(&t->ymx, &u->ymx, b);
    fe_cmov(&t->xy2d, &u->xy2d, b);
}

/* t = d·B from row[0..7] = 1B..8B, for a digit d in [-8, 8] (0 gives the identity). */
static const u64 NIELS_IDENTITY[15] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static void niels_select(ge_niels *t, const ge_niels row[8], signed char d)
{
    u64 neg = (u64)((int64_t)d >> 63) & 1;
    u64 mag = (u64)(((int64_t)d ^ -(int64_t)neg) + (int64_t)neg);    /* |d| */
    ge_niels minus;
    ct_pick((u64 *)t, (const u64 *)row, 15, NIELS_IDENTITY, mag);
    minus.ypx = t->ymx;
    minus.ymx = t->ypx;
    fe_neg(&minus.xy2d, &t->xy2d);
    niels_cmov(t, &minus, neg);
}

/* acc += q (the unified addition with q's Z = 1) */
static inline void add_niels(ge_p3 *acc, const ge_niels *q)
{
    fe a, b, c, d, t;
    ge_p1p1 r;
    fe_sub(&t, &acc->Y, &acc->X);
    fe_mul(&a, &t, &q->ymx);
    fe_add(&t, &acc->Y, &acc->X);
    fe_mul(&b, &t, &q->ypx);
    fe_mul(&c, &acc->T, &q->xy2d);
    fe_add(&d, &acc->Z, &acc->Z);
    fe_carry(&d);
    fe_sub(&r.E, &b, &a);
    fe_sub(&r.F, &d, &c);
    fe_add(&r.G, &d, &c);
    fe_add(&r.H, &b, &a);
    p1p1_to_p3(acc, &r);
}

/* A fixed base's table: row i (0..31) holds 1..8 times 256^i·B in niels form, so a
 * scalar's radix-16 digits e[2i] and e[2i+1] both read row i (the odd ones then shifted by
 * 16, as in ref10). Each row's eight Z are inverted together (one inversion a row). */
#define FIXED_ROWS 32
#define FIXED_TABLE_BYTES (FIXED_ROWS * 8 * sizeof(ge_niels))

static void fixed_table(ge_niels *tab /* FIXED_ROWS * 8 */, const ge_p3 *p)
{
    ge_p3 row = *p;
    for (int i = 0; i < FIXED_ROWS; i++) {
        ge_p3 m[8];
        fe prefix[8], inv, zinv;
        ge_cached one;
        ge_p1p1 r;
        m[0] = row;
        p3_to_cached(&one, &row);
        for (int j = 1; j < 8; j++) {
            ge_add(&r, &m[j - 1], &one);
            p1p1_to_p3(&m[j], &r);
        }
        prefix[0] = m[0].Z;
        for (int j = 1; j < 8; j++)
            fe_mul(&prefix[j], &prefix[j - 1], &m[j].Z);
        fe_invert(&inv, &prefix[7]);
        for (int j = 7; j >= 0; j--) {
            fe x, y;
            if (j > 0) {
                fe_mul(&zinv, &inv, &prefix[j - 1]);
                fe_mul(&inv, &inv, &m[j].Z);
            } else {
                zinv = inv;
            }
            fe_mul(&x, &m[j].X, &zinv);
            fe_mul(&y, &m[j].Y, &zinv);
            ge_niels *e = &tab[8 * i + j];
            fe_add(&e->ypx, &y, &x);
            fe_carry(&e->ypx);
            fe_sub(&e->ymx, &y, &x);
            fe_mul(&e->xy2d, &x, &y);
            fe_mul(&e->xy2d, &e->xy2d, &FE_D2);
        }
        if (i + 1 < FIXED_ROWS) {
            times16(&row);
            times16(&row);
        }
    }
}

/* out = sum over t < m of k_t·B_t for fixed bases given by their tables, plus *add when
 * add is not NULL; digits[t] are the scalars' radix-16 digits. 4 doublings + 64m additions. */
static void fixed_sum(ge_p3 *out, size_t m, const ge_niels *const *tabs, signed char (*digits)[64],
                      const ge_p3 *add)
{
    ge_p3 acc;
    ge_niels t;
    p3_identity(&acc);
    for (int i = 1; i < 64; i += 2)
        for (size_t b = 0; b < m; b++) {
            niels_select(&t, tabs[b] + 8 * (i / 2), digits[b][i]);
            add_niels(&acc, &t);
        }
    times16(&acc);
    for (int i = 0; i < 64; i += 2)
        for (size_t b = 0; b < m; b++) {
            niels_select(&t, tabs[b] + 8 * (i / 2), digits[b][i]);
            add_niels(&acc, &t);
        }
    if (add != NULL) {
        ge_cached c;
        p3_to_cached(&c, add);
        add_cached(&acc, &c);
    }
    *out = acc;
}

/* out = sum k_j P_j over variable points with secret scalars: Straus over radix-16 digits,
 * one chain of 252 doublings, 64 masked table reads a point. */
static void ct_straus(ge_p3 *out, size_t n, const ge_p3 *pts, const unsigned char *scalars,
                      ge_cached *tab /* n * 8 */, signed char *dig /* n * 64 */)
{
    for (size_t j = 0; j < n; j++) {
        multiples8(tab + 8 * j, &pts[j]);
        radix16(dig + 64 * j, scalars + 32 * j);
    }
    ge_p3 acc;
    ge_cached t;
    p3_identity(&acc);
    for (int i = 63; i >= 0; i--) {
        if (i < 63)
            times16(&acc);
        for (size_t j = 0; j < n; j++) {
            cached_select(&t, tab + 8 * j, dig[64 * j + i]);
            add_cached(&acc, &t);
        }
    }
    *out = acc;
}

/* ------------------------------------------------------------------ Ed25519 signatures */

/* RFC 8032 section 5.1.3, strict: 1 and the point when s is the canonical encoding of a
 * curve point (y < p; x = 0 with the sign bit set refused), else 0. */
static int ed25519_decode(ge_p3 *p, const unsigned char s[32])
{
    unsigned char y_bytes[32], check[32];
    fe y, yy, u, v, x;
    memcpy(y_bytes, s, 32);
    int sign = y_bytes[31] >> 7;
    y_bytes[31] &= 0x7f;
    fe_frombytes(&y, y_bytes);
    fe_tobytes(check, &y);
    if (memcmp(check, y_bytes, 32) != 0)
        return 0;                   /* y >= p */
    fe_sq(&yy, &y);
    fe_sub(&u, &yy, &FE_ONE);       /* x^2 = (y^2 - 1) / (d y^2 + 1); the denominator is never 0 */
    fe_mul(&v, &yy, &FE_D);
    fe_add(&v, &v, &FE_ONE);
    if (!fe_sqrt_ratio_m1(&x, &u, &v))
        return 0;                   /* not on the curve */
    if (fe_is_zero(&x) && sign)
        return 0;                   /* -0: not canonical */
    if (sign)
        fe_neg(&x, &x);
    p->X = x;
    p->Y = y;
    p->Z = FE_ONE;
    fe_mul(&p->T, &x, &y);
    return 1;
}

static int p3_is_identity(const ge_p3 *p)
{
    return fe_is_zero(&p->X) && fe_eq(&p->Y, &p->Z);
}

/* 1 when p is in the prime-order subgroup and not the identity: L*p is the identity. One
 * multiplication by L (about 250 doublings); kept as the reference that tests compare
 * in_prime_subgroup with (ed25519_in_subgroup(points, 1)). */
static int in_prime_subgroup_by_l(const ge_p3 *p)
{
    ge_cached tab[NAF_TABLE];
    signed char naf[NAF_LEN];
    ge_p3 lp;
    if (p3_is_identity(p))
        return 0;
    msm_straus(&lp, 1, p, L_BYTES, tab, naf);
    return p3_is_identity(&lp);
}

/* 1 + d; 2*a0, for a0 = x8*y8 = i*y8^2 at a point (x8, y8) of order 8 */
static const fe FE_ONE_PLUS_D = {{0x34dca135978a4ULL, 0x1a8283b156ebdULL, 0x5e7a26001c029ULL, 0x739c663a03cbbULL, 0x52036cee2b6ffULL}};
static const fe FE_TWO_A0 = {{0x5b5824302f0d8ULL, 0x2cc815e9a74bcULL, 0x03a87aa2b3614ULL, 0x414cfcd892e6dULL, 0x263b76793ebb2ULL}};

/* The same answer as in_prime_subgroup_by_l for every affine point (x, y) of the curve, by
 * two field exponentiations instead of a multiplication by L (SPEC §20.6 has the proof). The
 * group is Z/8 x Z/L, so P is of the prime-order subgroup iff P is in 8E. Apart from the eight
 * points of small order (all refused, the identity included):
 *   1. P is in 2E iff D = (1 + d)(1 + d y^2) is a square (2-isogeny descent); if it is, the
 *      halves Q of P (2Q = P, over the closure) have y_Q^2 = t = N/Dn, for N = +-sqrt(D) -
 *      (1 - d y) and Dn = d (1 + y), and x_Q y_Q = x (d t^2 + 1) / (2 (1 + d t));
 *   2. (b, a) = (y_Q^2, x_Q y_Q) is the image of Q on the curve E/<(0, -1)>, and there
 *      g = (1 + d b)(a + a0)^2 has divisor 4(S) - 4(W) (S of order 4, W of order 2), so
 *      g^((p-1)/4) is a Tate pairing with S + W: a character of order 4 that is 1 exactly
 *      when Q is in 4E, that is when P is in 8E, for either sign of sqrt(D).
 * With M = Dn + d N, g = num^2 / (4 Dn^3 M) for num = x (d N^2 + Dn^2) + 2 a0 Dn M, which is
 * -num^2 Dn M^3 times a fourth power (64 = -1 modulo fourth powers, as p = 5 mod 8). None of
 * Dn, M, num is zero off the small-order points. */
static int in_prime_subgroup_affine(const fe *x, const fe *y)
{
    fe t, u, D, s, N, Dn, M, num, h;
    /* the eight points of small order: x = 0 (identity, order 2), y = 0 (order 4),
     * x = +-i y (order 8) */
    fe_mul(&t, &FE_SQRT_M1, y);
    fe_neg(&u, &t);
    if (fe_is_zero(x) || fe_is_zero(y) || fe_eq(x, &t) || fe_eq(x, &u))
        return 0;
    /* 1. D = (1 + d)(1 + d y^2) a square, or P is not even in 2E */
    fe_sq(&t, y);
    fe_mul(&t, &t, &FE_D);
    fe_add(&t, &t, &FE_ONE);
    fe_mul(&D, &t, &FE_ONE_PLUS_D);
    if (!fe_sqrt_ratio_m1(&s, &D, &FE_ONE))
        return 0;
    /* N = s - (1 - d y), Dn = d (1 + y), M = Dn + d N */
    fe_mul(&t, &FE_D, y);
    fe_sub(&u, &FE_ONE, &t);
    fe_sub(&N, &s, &u);
    fe_add(&t, &FE_ONE, y);
    fe_mul(&Dn, &t, &FE_D);
    fe_mul(&t, &FE_D, &N);
    fe_add(&M, &Dn, &t);
    /* num = x (d N^2 + Dn^2) + 2 a0 Dn M */
    fe_sq(&t, &N);
    fe_mul(&t, &t, &FE_D);
    fe_sq(&u, &Dn);
    fe_add(&t, &t, &u);
    fe_mul(&num, &t, x);
    fe_mul(&t, &Dn, &M);
    fe_mul(&t, &t, &FE_TWO_A0);
    fe_add(&num, &num, &t);
    /* 2. h = num^2 Dn M^3; in 8E iff h^((p-1)/4) = -1 (g^((p-1)/4) = 1) */
    fe_sq(&h, &num);
    fe_mul(&h, &h, &Dn);
    fe_sq(&t, &M);
    fe_mul(&t, &t, &M);
    fe_mul(&h, &h, &t);
    fe_pow22523(&t, &h);                /* h^((p-5)/8) */
    fe_sq(&t, &t);
    fe_mul(&t, &t, &h);                 /* h^((p-5)/4 + 1) = h^((p-1)/4) */
    fe_neg(&u, &FE_ONE);
    return fe_eq(&t, &u);
}

/* 1 when p, as ed25519_decode leaves it (Z = 1), is in the prime-order subgroup and is not
 * the identity. */
static int in_prime_subgroup(const ge_p3 *p)
{
    return in_prime_subgroup_affine(&p->X, &p->Y);
}

/* batch_ok(scalars, points, n_checked) -> bool. The Ed25519 encodings are decoded strictly
 * (ValueError naming the first that does not decode); the first n_checked must be of the
 * prime-order subgroup and not the identity (else False); then True iff sum k_j P_j is the
 * identity. The caller (protocol/crypto/sig_batch.py) builds the one equation of a batch of
 * signatures from its R points, keys and the base point (SPEC §20.6). */
static PyObject *py_ed25519_batch_ok(PyObject *self, PyObject *args)
{
    Py_buffer sc, pt;
    Py_ssize_t n_checked;
    PyObject *result = NULL;
    ge_p3 *pts = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*n", &sc, &pt, &n_checked))
        return NULL;
    if (sc.len != pt.len || pt.len % 32 != 0 || pt.len == 0) {
        PyErr_SetString(PyExc_ValueError, "ed25519_batch_ok: scalars and points must be 32*n bytes each, n >= 1");
        goto done;
    }
    size_t n = (size_t)pt.len / 32;
    if (n > MSM_MAX_TERMS || n_checked < 0 || (size_t)n_checked > n) {
        PyErr_SetString(PyExc_ValueError, "ed25519_batch_ok: too many terms, or n_checked out of range");
        goto done;
    }
    const unsigned char *sp = (const unsigned char *)sc.buf;
    const unsigned char *pp = (const unsigned char *)pt.buf;
    if (!scalars_reduced(sp, n, "ed25519_batch_ok"))
        goto done;
    pts = PyMem_Malloc(n * sizeof(ge_p3));
    if (pts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t j = 0; j < n; j++) {
        if (!ed25519_decode(&pts[j], pp + 32 * j)) {
            PyErr_Format(PyExc_ValueError, "ed25519_batch_ok: point %zu is not a canonical Ed25519 encoding", j);
            goto done;
        }
    }
    int ok = 1;
    for (size_t j = 0; ok && j < (size_t)n_checked; j++)
        ok = in_prime_subgroup(&pts[j]);
    if (ok) {
        ge_p3 sum;
        if (msm_by_method(&sum, n, pts, sp, 0) != 0)
            goto done;
        ok = p3_is_identity(&sum);
    }
    result = PyBool_FromLong(ok);
done:
    PyMem_Free(pts);
    PyBuffer_Release(&sc);
    PyBuffer_Release(&pt);
    return result;
}

/* ed25519_in_subgroup(points[, method]) -> bytes: for each 32-byte encoding, 1 when it is the
 * canonical encoding of a point of the prime-order subgroup other than the identity (the
 * check ed25519_batch_ok makes of its first n_checked points), else 0. method 0 (default) is
 * the check by halving that the batch uses, 1 the multiplication by L; tests compare the two
 * and libsodium's crypto_core_ed25519_is_valid_point. */
static PyObject *py_ed25519_in_subgroup(PyObject *self, PyObject *args)
{
    Py_buffer pt;
    int method = 0;
    PyObject *result = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*|i", &pt, &method))
        return NULL;
    if (pt.len % 32 != 0 || (method != 0 && method != 1)) {
        PyErr_SetString(PyExc_ValueError, "ed25519_in_subgroup: points are 32*n bytes, method 0 or 1");
        goto done;
    }
    size_t n = (size_t)pt.len / 32;
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (result == NULL)
        goto done;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(result);
    const unsigned char *pp = (const unsigned char *)pt.buf;
    Py_BEGIN_ALLOW_THREADS
    for (size_t j = 0; j < n; j++) {
        ge_p3 p;
        if (!ed25519_decode(&p, pp + 32 * j))
            out[j] = 0;
        else
            out[j] = (unsigned char)(method == 0 ? in_prime_subgroup(&p) : in_prime_subgroup_by_l(&p));
    }
    Py_END_ALLOW_THREADS
done:
    PyBuffer_Release(&pt);
    return result;
}

/* ------------------------------------------------------------------ Python */


#define TERMS_ERROR ((size_t)-1)

/* The terms of msm and ct_msm, checked for `who`: n reduced scalars and n points, the
   points decoded into *pts (PyMem_Malloc'd; NULL when n is 0). Returns n, or TERMS_ERROR
   with a Python error set and *pts NULL. */
static size_t decoded_terms(const Py_buffer *sc, const Py_buffer *pt, const char *who, ge_p3 **pts)
{
    *pts = NULL;
    if (sc->len != pt->len || pt->len % 32 != 0) {
        PyErr_Format(PyExc_ValueError, "%s: scalars and points must be 32*n bytes each, the same n", who);
        return TERMS_ERROR;
    }
    size_t n = (size_t)pt->len / 32;
    if (n > MSM_MAX_TERMS) {
        PyErr_Format(PyExc_ValueError, "%s: too many terms", who);
        return TERMS_ERROR;
    }
    if (!scalars_reduced((const unsigned char *)sc->buf, n, who))
        return TERMS_ERROR;
    if (n == 0)
        return 0;
    ge_p3 *decoded = PyMem_Malloc(n * sizeof(ge_p3));
    if (decoded == NULL) {
        PyErr_NoMemory();
        return TERMS_ERROR;
    }
    const unsigned char *pp = (const unsigned char *)pt->buf;
    for (size_t j = 0; j < n; j++) {
        if (!ristretto_decode(&decoded[j], pp + 32 * j)) {
            PyErr_Format(PyExc_ValueError, "%s: point %zu is not a valid ristretto255 encoding", who, j);
            PyMem_Free(decoded);
            return TERMS_ERROR;
        }
    }
    *pts = decoded;
    return n;
}

static PyObject *py_msm(PyObject *self, PyObject *args)
{
    Py_buffer sc, pt;
    PyObject *result = NULL;
    ge_p3 *pts = NULL;
    (void)self;

    int method = 0;
    if (!PyArg_ParseTuple(args, "y*y*|i", &sc, &pt, &method))
        return NULL;
    if (method != 0 && method != 1 && (method < 4 || method > PIP_MAX_C)) {
        PyErr_SetString(PyExc_ValueError, "msm: method is 0 (by cost), 1 (Straus) or a window 4..15");
        goto done;
    }
    size_t n = decoded_terms(&sc, &pt, "msm", &pts);
    if (n == TERMS_ERROR)
        goto done;
    const unsigned char *sp = (const unsigned char *)sc.buf;
    ge_p3 sum;
    if (n == 0) {
        p3_identity(&sum);
    } else if (msm_by_method(&sum, n, pts, sp, method) != 0) {
        goto done;
    }
    unsigned char enc[32];
    ristretto_encode(enc, &sum);
    result = PyBytes_FromStringAndSize((const char *)enc, 32);
done:
    PyMem_Free(pts);
    PyBuffer_Release(&sc);
    PyBuffer_Release(&pt);
    return result;
}

static PyObject *py_decode_ok(PyObject *self, PyObject *args)
{
    Py_buffer pt;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*", &pt))
        return NULL;
    if (pt.len % 32 != 0) {
        PyBuffer_Release(&pt);
        PyErr_SetString(PyExc_ValueError, "decode_ok: points must be 32*n bytes");
        return NULL;
    }
    size_t n = (size_t)pt.len / 32;
    const unsigned char *pp = (const unsigned char *)pt.buf;
    Py_ssize_t bad = -1;
    ge_p3 p;
    for (size_t j = 0; j < n; j++) {
        if (!ristretto_decode(&p, pp + 32 * j)) {
            bad = (Py_ssize_t)j;
            break;
        }
    }
    PyBuffer_Release(&pt);
    return PyLong_FromSsize_t(bad);
}

/* fixed_table(point) -> bytes: the table of a fixed base (FIXED_TABLE_BYTES). */
static PyObject *py_fixed_table(PyObject *self, PyObject *args)
{
    Py_buffer pt;
    PyObject *result = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*", &pt))
        return NULL;
    ge_p3 p;
    if (pt.len != 32 || !ristretto_decode(&p, (const unsigned char *)pt.buf)) {
        PyErr_SetString(PyExc_ValueError, "fixed_table: not a valid ristretto255 encoding");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)FIXED_TABLE_BYTES);
    if (result == NULL)
        goto done;
    ge_niels *tab = PyMem_Malloc(FIXED_TABLE_BYTES);
    if (tab == NULL) {
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto done;
    }
    fixed_table(tab, &p);
    memcpy(PyBytes_AS_STRING(result), tab, FIXED_TABLE_BYTES);
    PyMem_Free(tab);
done:
    PyBuffer_Release(&pt);
    return result;
}

#define FIXED_MAX_BASES 16

/* fixed_batch(tables, scalars, adds) -> bytes. tables: m tables from fixed_table, joined;
 * scalars: count rows of m 32-byte scalars (< L); adds: count 32-byte encodings (zeros: add
 * nothing) or empty. Output row k: sum_t scalars[k][t]·B_t (+ adds[k]), encoded (zeros for
 * the identity), the rows joined. */
static PyObject *py_fixed_batch(PyObject *self, PyObject *args)
{
    Py_buffer tb, sc, ad;
    PyObject *result = NULL;
    ge_niels *copy = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*", &tb, &sc, &ad))
        return NULL;
    size_t m = (size_t)tb.len / FIXED_TABLE_BYTES;
    if (m == 0 || m > FIXED_MAX_BASES || (size_t)tb.len != m * FIXED_TABLE_BYTES) {
        PyErr_SetString(PyExc_ValueError, "fixed_batch: tables must be 1 to 16 tables from fixed_table, joined");
        goto done;
    }
    if (sc.len % (Py_ssize_t)(32 * m) != 0) {
        PyErr_SetString(PyExc_ValueError, "fixed_batch: scalars must be rows of 32 bytes a table");
        goto done;
    }
    size_t count = (size_t)sc.len / (32 * m);
    if (count > MSM_MAX_TERMS || (ad.len != 0 && (size_t)ad.len != 32 * count)) {
        PyErr_SetString(PyExc_ValueError, "fixed_batch: adds must be empty or 32 bytes a row");
        goto done;
    }
    const unsigned char *sp = (const unsigned char *)sc.buf;
    const unsigned char *ap = (const unsigned char *)ad.buf;
    if (!scalars_reduced(sp, count * m, "fixed_batch"))
        goto done;
    const ge_niels *base = (const ge_niels *)tb.buf;
    if (((uintptr_t)tb.buf) % sizeof(u64) != 0) {
        copy = PyMem_Malloc((size_t)tb.len);
        if (copy == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        memcpy(copy, tb.buf, (size_t)tb.len);
        base = copy;
    }
    const ge_niels *tabs[FIXED_MAX_BASES];
    for (size_t t = 0; t < m; t++)
        tabs[t] = base + t * FIXED_ROWS * 8;
    static const unsigned char zeros[32];
    ge_p3 *adds = NULL;
    if (ad.len != 0) {
        adds = PyMem_Malloc(count * sizeof(ge_p3));
        if (adds == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (size_t k = 0; k < count; k++) {
            if (memcmp(ap + 32 * k, zeros, 32) == 0) {
                p3_identity(&adds[k]);
            } else if (!ristretto_decode(&adds[k], ap + 32 * k)) {
                PyErr_Format(PyExc_ValueError, "fixed_batch: add %zu is not a valid ristretto255 encoding", k);
                PyMem_Free(adds);
                goto done;
            }
        }
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(32 * count));
    if (result == NULL) {
        PyMem_Free(adds);
        goto done;
    }
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    signed char digits[FIXED_MAX_BASES][64];
    for (size_t k = 0; k < count; k++) {
        for (size_t t = 0; t < m; t++)
            radix16(digits[t], sp + 32 * (k * m + t));
        ge_p3 sum;
        fixed_sum(&sum, m, tabs, digits, adds != NULL ? &adds[k] : NULL);
        ristretto_encode(out + 32 * k, &sum);
    }
    memset(digits, 0, sizeof(digits));
    Py_END_ALLOW_THREADS
    PyMem_Free(adds);
done:
    PyMem_Free(copy);
    PyBuffer_Release(&tb);
    PyBuffer_Release(&sc);
    PyBuffer_Release(&ad);
    return result;
}

/* ct_msm(scalars, points) -> bytes: sum k_j P_j (zeros for the identity) with secret scalars
 * (constant time in them); the same answer as msm. */
static PyObject *py_ct_msm(PyObject *self, PyObject *args)
{
    Py_buffer sc, pt;
    PyObject *result = NULL;
    ge_p3 *pts = NULL;
    ge_cached *tab = NULL;
    signed char *dig = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*", &sc, &pt))
        return NULL;
    size_t n = decoded_terms(&sc, &pt, "ct_msm", &pts);
    if (n == TERMS_ERROR)
        goto done;
    const unsigned char *sp = (const unsigned char *)sc.buf;
    ge_p3 sum;
    if (n == 0) {
        p3_identity(&sum);
    } else {
        tab = PyMem_Malloc(n * 8 * sizeof(ge_cached));
        dig = PyMem_Malloc(n * 64);
        if (tab == NULL || dig == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        Py_BEGIN_ALLOW_THREADS
        ct_straus(&sum, n, pts, sp, tab, dig);
        memset(dig, 0, n * 64);
        Py_END_ALLOW_THREADS
    }
    unsigned char enc[32];
    ristretto_encode(enc, &sum);
    result = PyBytes_FromStringAndSize((const char *)enc, 32);
done:
    PyMem_Free(pts);
    PyMem_Free(tab);
    PyMem_Free(dig);
    PyBuffer_Release(&sc);
    PyBuffer_Release(&pt);
    return result;
}

static PyMethodDef methods[] = {
    {"msm", py_msm, METH_VARARGS,
     "msm(scalars, points) -> 32-byte encoding of sum k_i P_i (zeros for the identity)"},
    {"ed25519_batch_ok", py_ed25519_batch_ok, METH_VARARGS,
     "ed25519_batch_ok(scalars, points, n_checked) -> whether sum k_i P_i over Ed25519 points is the identity"},
    {"ed25519_in_subgroup", py_ed25519_in_subgroup, METH_VARARGS,
     "ed25519_in_subgroup(points[, method]) -> one byte a point: 1 if canonical, of prime order L"},
    {"fixed_table", py_fixed_table, METH_VARARGS,
     "fixed_table(point) -> the precomputed table of a fixed base, for fixed_batch"},
    {"fixed_batch", py_fixed_batch, METH_VARARGS,
     "fixed_batch(tables, scalars, adds) -> rows of sum k_t B_t (+ add) over fixed bases (constant time in k)"},
    {"ct_msm", py_ct_msm, METH_VARARGS,
     "ct_msm(scalars, points) -> 32-byte encoding of sum k_i P_i, constant time in the scalars"},
    {"decode_ok", py_decode_ok, METH_VARARGS,
     "decode_ok(points) -> index of the first invalid 32-byte encoding, or -1"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ristretto_native",
    "ristretto255 multi-scalar multiplication: variable time for public inputs, and the prover's constant-time sums. SPEC 25.13.",
    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__ristretto_native(void)
{
    return PyModule_Create(&module);
}
