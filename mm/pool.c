/*
 * mm/pool.c - the free-frame pool state machine (see mm/pool.h): one doubly
 * linked list of frame indices per state, exact accounting of who zeroed
 * what, and an end-of-run balance check. Every entry point validates first
 * and changes state only once nothing can fail any more.
 */
#include "mm/pool.h"

static bool valid_idx(const struct pool *p, uint32_t idx) { return p && idx < p->n; }

static void list_push_tail(struct pool *p, unsigned s, uint32_t i)
{
    struct pool_frame *f = &p->f[i];
    f->state = (uint8_t)s;
    f->next = POOL_NONE;
    f->prev = p->tail[s];
    if (p->tail[s] != POOL_NONE)
        p->f[p->tail[s]].next = i;
    else
        p->head[s] = i;
    p->tail[s] = i;
    p->count[s]++;
}

static void list_push_head(struct pool *p, unsigned s, uint32_t i)
{
    struct pool_frame *f = &p->f[i];
    f->state = (uint8_t)s;
    f->prev = POOL_NONE;
    f->next = p->head[s];
    if (p->head[s] != POOL_NONE)
        p->f[p->head[s]].prev = i;
    else
        p->tail[s] = i;
    p->head[s] = i;
    p->count[s]++;
}

static void list_remove(struct pool *p, uint32_t i)
{
    struct pool_frame *f = &p->f[i];
    unsigned s = f->state;
    if (f->prev != POOL_NONE)
        p->f[f->prev].next = f->next;
    else
        p->head[s] = f->next;
    if (f->next != POOL_NONE)
        p->f[f->next].prev = f->prev;
    else
        p->tail[s] = f->prev;
    f->prev = f->next = POOL_NONE;
    p->count[s]--;
}

static void move_tail(struct pool *p, uint32_t i, unsigned s)
{
    list_remove(p, i);
    list_push_tail(p, s, i);
}

int pool_init(struct pool *p, struct pool_frame *frames, uint32_t cap, uint64_t frame_bytes,
              pool_clear_fn clear, void *clear_ctx)
{
    if (!p)
        return POOL_EINVAL;
    *p = (struct pool){0};
    if (!frames || cap >= POOL_NONE || frame_bytes == 0 || frame_bytes % 64 != 0 || !clear)
        return POOL_EINVAL;
    p->f = frames;
    p->cap = cap;
    p->frame_bytes = frame_bytes;
    p->clear = clear;
    p->clear_ctx = clear_ctx;
    for (unsigned s = 0; s < FRAME_NSTATES; s++)
        p->head[s] = p->tail[s] = POOL_NONE;
    return POOL_OK;
}

int pool_add(struct pool *p, uint64_t phys, uint32_t *idx)
{
    if (!p || !p->f)
        return POOL_EINVAL;
    if (phys + p->frame_bytes < phys)
        return POOL_EINVAL;
    if (p->n >= p->cap)
        return POOL_EFULL;
    uint32_t i = p->n++;
    p->f[i] = (struct pool_frame){.phys = phys, .prev = POOL_NONE, .next = POOL_NONE};
    list_push_tail(p, FRAME_DIRTY, i);
    if (idx)
        *idx = i;
    return POOL_OK;
}

/* Enter ZEROING for origin o, resuming at the cursor unless already zero. */
static void begin_session(struct pool *p, uint32_t i, enum zero_origin o)
{
    struct pool_frame *f = &p->f[i];
    f->was_zero = f->state == FRAME_ZEROED;
    if (f->was_zero)
        f->zero_progress = 0;
    f->origin = (uint8_t)o;
    f->session_start = f->zero_progress;
    if (f->zero_progress)
        p->c.zero_resumed++;
    else
        p->c.zero_started++;
    move_tail(p, i, FRAME_ZEROING);
}

/* Credit the bytes cleared since begin_session to the session's origin. */
static void close_session(struct pool *p, uint32_t i)
{
    struct pool_frame *f = &p->f[i];
    uint64_t bytes = f->zero_progress - f->session_start;
    p->c.bytes_zeroed[f->origin] += bytes;
    if (f->was_zero)
        p->c.bytes_wasted += bytes;
}

int pool_take(struct pool *p, uint32_t *idx, bool *prezeroed)
{
    if (!p || !idx || !prezeroed)
        return POOL_EINVAL;
    uint32_t i = p->head[FRAME_ZEROED];
    if (i != POOL_NONE) {
        move_tail(p, i, FRAME_IN_USE);
        p->c.taken_prezeroed++;
        *prezeroed = true;
    } else {
        i = p->head[FRAME_DIRTY];
        if (i == POOL_NONE)
            return POOL_EEMPTY;
        begin_session(p, i, ZERO_FAULT);
        *prezeroed = false;
    }
    p->f[i].uses++;
    p->c.taken++;
    *idx = i;
    return POOL_OK;
}

int pool_free(struct pool *p, uint32_t idx, bool zero)
{
    if (!valid_idx(p, idx))
        return POOL_EINVAL;
    struct pool_frame *f = &p->f[idx];
    if (f->state != FRAME_IN_USE)
        return POOL_ESTATE;
    f->frees++;
    p->c.frees++;
    f->zero_progress = 0;
    if (zero)
        begin_session(p, idx, ZERO_ON_FREE);
    else
        move_tail(p, idx, FRAME_DIRTY);
    return POOL_OK;
}

int pool_zero_begin(struct pool *p, uint32_t idx, enum zero_origin origin)
{
    if (!valid_idx(p, idx))
        return POOL_EINVAL;
    if (origin != ZERO_IDLE && origin != ZERO_BOOT && origin != ZERO_BATCH)
        return POOL_EINVAL;
    unsigned s = p->f[idx].state;
    if (s != FRAME_DIRTY && s != FRAME_ZEROED)
        return POOL_ESTATE;
    begin_session(p, idx, origin);
    return POOL_OK;
}

int pool_zero_step(struct pool *p, uint32_t idx, uint64_t max_bytes, uint64_t hint, uint64_t *done)
{
    if (!valid_idx(p, idx))
        return POOL_EINVAL;
    struct pool_frame *f = &p->f[idx];
    if (f->state != FRAME_ZEROING)
        return POOL_ESTATE;
    uint64_t left = p->frame_bytes - f->zero_progress;
    uint64_t n = max_bytes < left ? max_bytes : left;
    if (n)
        p->clear(p->clear_ctx, (void *)(uintptr_t)(f->phys + f->zero_progress), (size_t)n, hint);
    f->zero_progress += n;
    if (done)
        *done = n;
    return POOL_OK;
}

static void finish(struct pool *p, uint32_t idx)
{
    struct pool_frame *f = &p->f[idx];
    close_session(p, idx);
    if (f->was_zero)
        p->c.zeroed_twice++;
    p->c.zero_completed++;
    f->zero_progress = 0;
    f->was_zero = 0;
    move_tail(p, idx, f->origin == ZERO_FAULT ? FRAME_IN_USE : FRAME_ZEROED);
}

int pool_zero_pause(struct pool *p, uint32_t idx)
{
    if (!valid_idx(p, idx))
        return POOL_EINVAL;
    struct pool_frame *f = &p->f[idx];
    if (f->state != FRAME_ZEROING || f->origin == ZERO_FAULT)
        return POOL_ESTATE;
    if (f->zero_progress == p->frame_bytes) {
        finish(p, idx);
        return POOL_OK;
    }
    close_session(p, idx);
    p->c.zero_paused++;
    list_remove(p, idx);
    if (f->was_zero) {
        f->zero_progress = 0;
        f->was_zero = 0;
        list_push_tail(p, FRAME_ZEROED, idx);
    } else {
        list_push_head(p, FRAME_DIRTY, idx);
    }
    return POOL_OK;
}

int pool_zero_end(struct pool *p, uint32_t idx)
{
    if (!valid_idx(p, idx))
        return POOL_EINVAL;
    struct pool_frame *f = &p->f[idx];
    if (f->state != FRAME_ZEROING)
        return POOL_ESTATE;
    if (f->zero_progress != p->frame_bytes)
        return POOL_EPARTIAL;
    finish(p, idx);
    return POOL_OK;
}

int pool_pick_background(const struct pool *p, uint32_t *idx)
{
    if (!p || !idx)
        return POOL_EINVAL;
    if (p->head[FRAME_DIRTY] == POOL_NONE)
        return POOL_EEMPTY;
    *idx = p->head[FRAME_DIRTY];
    return POOL_OK;
}

int pool_zero_frame(struct pool *p, uint32_t idx, enum zero_origin origin)
{
    if (!valid_idx(p, idx) || (unsigned)origin >= ZERO_NORIGINS)
        return POOL_EINVAL;
    if (p->f[idx].state == FRAME_ZEROING) {
        if (p->f[idx].origin != origin)
            return POOL_ESTATE;
    } else {
        int rc = pool_zero_begin(p, idx, origin);
        if (rc)
            return rc;
    }
    pool_zero_step(p, idx, p->frame_bytes, 0, NULL);
    return pool_zero_end(p, idx);
}

int pool_zero_some(struct pool *p, uint32_t max_frames, enum zero_origin origin, uint32_t *zeroed)
{
    if (!p || (origin != ZERO_IDLE && origin != ZERO_BOOT && origin != ZERO_BATCH))
        return POOL_EINVAL;
    uint32_t k = 0;
    while (k < max_frames && p->head[FRAME_DIRTY] != POOL_NONE) {
        pool_zero_frame(p, p->head[FRAME_DIRTY], origin);
        k++;
    }
    if (zeroed)
        *zeroed = k;
    return POOL_OK;
}

int pool_idle_chunk(struct pool *p, uint64_t chunk_bytes, uint64_t *cleared)
{
    if (!p || chunk_bytes == 0)
        return POOL_EINVAL;
    uint32_t i = p->head[FRAME_DIRTY];
    if (i == POOL_NONE)
        return POOL_EEMPTY;
    uint64_t done;
    begin_session(p, i, ZERO_IDLE);
    pool_zero_step(p, i, chunk_bytes, 0, &done);
    if (p->f[i].zero_progress == p->frame_bytes)
        finish(p, i);
    else
        pool_zero_pause(p, i);
    if (cleared)
        *cleared = done;
    return POOL_OK;
}

bool pool_background_busy(const struct pool *p)
{
    for (uint32_t i = p->head[FRAME_ZEROING]; i != POOL_NONE; i = p->f[i].next)
        if (p->f[i].origin != ZERO_FAULT)
            return true;
    return false;
}

enum frame_state pool_state(const struct pool *p, uint32_t idx)
{
    return valid_idx(p, idx) ? (enum frame_state)p->f[idx].state : FRAME_NSTATES;
}

uint64_t pool_phys(const struct pool *p, uint32_t idx)
{
    return valid_idx(p, idx) ? p->f[idx].phys : 0;
}

uint64_t pool_progress(const struct pool *p, uint32_t idx)
{
    return valid_idx(p, idx) ? p->f[idx].zero_progress : 0;
}

void pool_summarise(const struct pool *p, struct pool_summary *s)
{
    *s = (struct pool_summary){0};
    if (!p)
        return;
    s->zeroed_unused = p->count[FRAME_ZEROED];
    for (uint32_t i = 0; i < p->n; i++)
        if (p->f[i].state == FRAME_DIRTY)
            s->partial_bytes += p->f[i].zero_progress;
    s->bytes_fault = p->c.bytes_zeroed[ZERO_FAULT];
    for (unsigned o = 0; o < ZERO_NORIGINS; o++)
        if (o != ZERO_FAULT)
            s->bytes_background += p->c.bytes_zeroed[o];
}

static int fail(const char **why, uint32_t *bad, const char *rule, uint32_t idx)
{
    if (why)
        *why = rule;
    if (bad)
        *bad = idx;
    return POOL_ESTATE;
}

/* Walk list s; each link must be consistent and the walk end within n. */
static int check_list(const struct pool *p, unsigned s, uint32_t *len, const char **why,
                      uint32_t *bad)
{
    uint32_t k = 0, prev = POOL_NONE;
    for (uint32_t i = p->head[s]; i != POOL_NONE; prev = i, i = p->f[i].next) {
        if (i >= p->n || k == p->n)
            return fail(why, bad, "list link out of range or cyclic", i);
        if (p->f[i].state != s)
            return fail(why, bad, "frame state differs from its list", i);
        if (p->f[i].prev != prev)
            return fail(why, bad, "broken back link", i);
        k++;
    }
    if (p->tail[s] != prev)
        return fail(why, bad, "list tail is not the last frame", prev);
    *len = k;
    return POOL_OK;
}

int pool_check(const struct pool *p, const char **why, uint32_t *bad_idx)
{
    if (why)
        *why = "";
    if (bad_idx)
        *bad_idx = POOL_NONE;
    if (!p || !p->f)
        return fail(why, bad_idx, "no pool", POOL_NONE);
    uint64_t listed = 0;
    for (unsigned s = 0; s < FRAME_NSTATES; s++) {
        uint32_t len;
        int rc = check_list(p, s, &len, why, bad_idx);
        if (rc)
            return rc;
        if (len != p->count[s])
            return fail(why, bad_idx, "list length differs from count", POOL_NONE);
        listed += len;
    }
    if (listed != p->n)
        return fail(why, bad_idx, "frames not in exactly one list", POOL_NONE);

    uint64_t uses = 0, frees = 0, fault_zeroing = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        const struct pool_frame *f = &p->f[i];
        bool held =
            f->state == FRAME_IN_USE || (f->state == FRAME_ZEROING && f->origin == ZERO_FAULT);
        if (f->uses - f->frees != (held ? 1u : 0u))
            return fail(why, bad_idx, "frame handed out twice or freed unheld", i);
        bool cursor = f->state == FRAME_DIRTY || f->state == FRAME_ZEROING;
        if (f->zero_progress > p->frame_bytes || (!cursor && f->zero_progress) ||
            (f->state == FRAME_DIRTY && f->zero_progress == p->frame_bytes))
            return fail(why, bad_idx, "zeroing cursor out of place", i);
        fault_zeroing += f->state == FRAME_ZEROING && f->origin == ZERO_FAULT;
        uses += f->uses;
        frees += f->frees;
    }
    const struct pool_counters *c = &p->c;
    if (uses != c->taken || frees != c->frees)
        return fail(why, bad_idx, "per-frame uses/frees differ from totals", POOL_NONE);
    if (c->taken != c->frees + p->count[FRAME_IN_USE] + fault_zeroing)
        return fail(why, bad_idx, "taken != frees + in use", POOL_NONE);
    if (c->zero_started + c->zero_resumed !=
        c->zero_paused + c->zero_completed + p->count[FRAME_ZEROING])
        return fail(why, bad_idx, "zeroing sessions do not add up", POOL_NONE);
    if (c->taken_prezeroed > c->taken || c->zeroed_twice > c->zero_completed)
        return fail(why, bad_idx, "sub-counter exceeds its total", POOL_NONE);
    return POOL_OK;
}

const char *pool_state_name(unsigned state)
{
    static const char *const names[FRAME_NSTATES] = {"dirty", "zeroing", "zeroed", "in_use"};
    return state < FRAME_NSTATES ? names[state] : "?";
}

const char *pool_origin_name(unsigned origin)
{
    static const char *const names[ZERO_NORIGINS] = {"fault", "idle", "boot", "on_free", "batch"};
    return origin < ZERO_NORIGINS ? names[origin] : "?";
}
