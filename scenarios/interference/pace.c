/*
 * scenarios/interference/pace.c - the token bucket that paces a background
 * zeroer of the `interference` scenario (scenarios/interference/interference.h): credit in
 * bytes accrues with the TSC at the target rate, a call is issued when its
 * bytes of credit are there, and the credit is capped at a burst (the token
 * bucket of Turner, "New directions in communications", IEEE Commun. Mag.
 * 24(10), 1986; RFC 2697 meters the same way). Periods lost to a long call
 * or a host preemption are made up, up to the burst, so the achieved rate
 * converges to the target at any call duration. Integer arithmetic only.
 */
#include "arch/x86.h" /* mul_div_u64: the kernel links no 128-bit division */
#include "scenarios/interference/interference.h"

/* Credit at TSC `now`, bytes (may be negative after an early take). */
static int64_t credit(const struct if_bucket *b, uint64_t now)
{
    uint64_t dt = now > b->t0 ? now - b->t0 : 0;
    uint64_t acc = mul_div_u64(dt, b->rate_bps, b->hz); /* UINT64_MAX on overflow */
    if (acc > INT64_MAX / 2)
        acc = INT64_MAX / 2;
    return b->credit0 + (int64_t)acc;
}

bool if_bucket_init(struct if_bucket *b, uint64_t rate_bps, uint64_t hz, uint64_t piece,
                    uint64_t burst, uint64_t now)
{
    if (!rate_bps || !hz || !piece || piece > INT64_MAX / 4 || burst > INT64_MAX / 4)
        return false;
    *b = (struct if_bucket){.rate_bps = rate_bps,
                            .hz = hz,
                            .piece = piece,
                            .burst = burst < piece ? piece : burst,
                            .t0 = now,
                            .credit0 = (int64_t)piece};
    return true;
}

uint64_t if_bucket_ready_at(const struct if_bucket *b)
{
    if (b->credit0 >= (int64_t)b->piece)
        return b->t0;
    uint64_t need = (uint64_t)((int64_t)b->piece - b->credit0);
    uint64_t dt = mul_div_u64(need, b->hz, b->rate_bps);
    if (dt == UINT64_MAX)
        return UINT64_MAX;
    if ((unsigned __int128)dt * b->rate_bps < (unsigned __int128)need * b->hz)
        dt++; /* rounded up: the first tick with the credit there */
    return dt > UINT64_MAX - b->t0 ? UINT64_MAX : b->t0 + dt;
}

void if_bucket_take(struct if_bucket *b, uint64_t now)
{
    int64_t c = credit(b, now);
    if (c > (int64_t)b->burst)
        c = (int64_t)b->burst; /* a long idle stretch earns at most a burst */
    b->credit0 = c - (int64_t)b->piece;
    b->t0 = now > b->t0 ? now : b->t0;
}
