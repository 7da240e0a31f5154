/*
 * mm/pool.h - the free-frame pool behind hugezero's demand-fault simulation:
 * huge frames (1 GiB, or 2 MiB when CPUID.80000001H:EDX.Page1GB[bit 26] is
 * missing, SDM Vol. 3A §4.5) and the state each one is in:
 *
 *   DIRTY    free, content unknown (may carry a partial-zeroing cursor)
 *   ZEROING  owned by exactly one zeroer (fault path, idle loop, boot,
 *            on_free, batch request) that is clearing it chunk by chunk
 *   ZEROED   free and known to be all zero
 *   IN_USE   handed out to a fault, mapped
 *
 * Transitions (anything else is refused with POOL_ESTATE, nothing changed):
 *   pool_take        ZEROED -> IN_USE              (pre-zeroed hit)
 *                    DIRTY  -> ZEROING[fault]      (caller zeroes, then end)
 *   pool_free        IN_USE -> DIRTY, or -> ZEROING[on_free]
 *   pool_zero_begin  DIRTY | ZEROED -> ZEROING[idle|boot|batch]
 *   pool_zero_step   ZEROING -> ZEROING (progress += chunk)
 *   pool_zero_pause  ZEROING -> DIRTY (cursor kept), or back to ZEROED when
 *                    the frame was already zero; not for a fault's frame
 *   pool_zero_end    ZEROING (progress == frame size) -> ZEROED, or -> IN_USE
 *                    for a fault's frame
 *
 * Each state has its own doubly linked list of frame indices, so every
 * operation is O(1) apart from the clearing itself and pool_check()/
 * pool_summarise(), which walk the frames once at the end of a run.
 *
 * Locking (SMP), one rule for every caller (the fault path, on_free release,
 * SMP zeroers): all pool state lives in struct pool, guarded by one caller
 * lock. Hold it around every call except pool_zero_step(), and call
 * pool_zero_step() without it: the step only touches the frame it clears,
 * which is ZEROING and so owned by the caller alone, and a 1 GiB clear under
 * the lock would stall every other CPU's fault and zeroer. So: lock; take /
 * free / begin; unlock; steps; lock; end / pause; unlock. The one-call
 * helpers pool_zero_frame(), pool_zero_some() and pool_idle_chunk() clear
 * inside the call, so they are for runs with one CPU using the pool.
 *
 * Portable C (the host unit tests build it); prints nothing.
 */
#ifndef HZ_MM_POOL_H
#define HZ_MM_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum frame_state { FRAME_DIRTY, FRAME_ZEROING, FRAME_ZEROED, FRAME_IN_USE, FRAME_NSTATES };

/* Who zeroed the bytes: the pre-zero policy (docs/prezero.md) doing it. */
enum zero_origin {
    ZERO_FAULT,   /* in the fault path, policy none or a miss */
    ZERO_IDLE,    /* idle loop / background, policy idle */
    ZERO_BOOT,    /* before the workload, policy boot */
    ZERO_ON_FREE, /* when freed, policy on_free */
    ZERO_BATCH,   /* on request, policy batch=N */
    ZERO_NORIGINS
};

/* Results; every failing call leaves the pool exactly as it was. */
enum {
    POOL_OK = 0,
    POOL_EINVAL = -1,   /* bad argument: index out of range, NULL, bad origin */
    POOL_EEMPTY = -2,   /* no frame in a state the call can use */
    POOL_ESTATE = -3,   /* illegal transition for the frame's current state */
    POOL_EPARTIAL = -4, /* pool_zero_end before the whole frame was cleared */
    POOL_EFULL = -5,    /* pool_add past the capacity given to pool_init */
};

#define POOL_NONE UINT32_MAX /* "no frame" in links and results */

/* Clears `bytes` bytes at dst (identity-mapped physical memory in the
 * kernel, a buffer in host tests); ctx is the pointer given to pool_init()
 * (in the kernel: the fault environment whose strategy and CPL to use).
 * hint is the pool_zero_step() caller's: for a fault's frame the faulting
 * linear address (CR2, Linux's addr_hint of folio_zero_user), so that the
 * clear can order its work around the page the fault wants; 0 for none
 * (idle, boot, batch, on_free zeroing). */
typedef void (*pool_clear_fn)(void *ctx, void *dst, size_t bytes, uint64_t hint);

/* One frame. Callers read it through the accessors below. */
struct pool_frame {
    uint64_t phys;          /* physical base, frame_bytes-aligned in the kernel */
    uint64_t zero_progress; /* bytes [0, zero_progress) already cleared (DIRTY/ZEROING) */
    uint64_t session_start; /* zero_progress when the current ZEROING began */
    uint32_t prev, next;    /* links in the list of its state */
    uint32_t uses, frees;   /* times handed out / freed */
    uint8_t state;          /* enum frame_state */
    uint8_t origin;         /* enum zero_origin of the current ZEROING */
    uint8_t was_zero;       /* current ZEROING started on a ZEROED frame */
    uint8_t pad[5];
};

struct pool_counters {
    uint64_t taken;                       /* successful pool_take calls (frames handed out) */
    uint64_t taken_prezeroed;             /* ... of which got a ZEROED frame */
    uint64_t frees;                       /* successful pool_free calls */
    uint64_t zero_started;                /* ZEROING sessions begun at progress 0 */
    uint64_t zero_resumed;                /* ZEROING sessions begun on a partial frame */
    uint64_t zero_paused;                 /* sessions ended by pool_zero_pause */
    uint64_t zero_completed;              /* sessions ended by pool_zero_end */
    uint64_t bytes_zeroed[ZERO_NORIGINS]; /* bytes cleared, by origin */
    uint64_t zeroed_twice;                /* completed zeroings of frames already ZEROED */
    uint64_t bytes_wasted;                /* bytes cleared on frames already ZEROED */
};

struct pool {
    struct pool_frame *f; /* caller's storage, cap entries */
    uint32_t n, cap;
    uint64_t frame_bytes;
    pool_clear_fn clear;
    void *clear_ctx; /* first argument of every clear call */
    uint32_t head[FRAME_NSTATES], tail[FRAME_NSTATES];
    uint32_t count[FRAME_NSTATES];
    struct pool_counters c;
};

/*
 * Start an empty pool over caller storage frames[0..cap) (cap < 2^32 - 1).
 * frame_bytes: size of every frame in bytes, a non-zero multiple of 64
 * (1 GiB or 2 MiB in the kernel; tests use e.g. 64 KiB). clear must not be
 * NULL; every call of it gets clear_ctx (may be NULL) first. Returns POOL_OK or POOL_EINVAL (pool
 * left zeroed, unusable).
 */
int pool_init(struct pool *p, struct pool_frame *frames, uint32_t cap, uint64_t frame_bytes,
              pool_clear_fn clear, void *clear_ctx);

/*
 * Add a free frame at physical base phys, in state DIRTY (boot memory has
 * unknown content). *idx (may be NULL) gets its index, 0, 1, 2... in order.
 * POOL_EFULL when cap frames exist; POOL_EINVAL when phys + frame_bytes wraps.
 */
int pool_add(struct pool *p, uint64_t phys, uint32_t *idx);

/*
 * A fault needs a frame. A ZEROED frame is preferred: it goes IN_USE and
 * *prezeroed = true. Otherwise the first DIRTY frame (one with a partial
 * cursor first) becomes ZEROING[fault], *prezeroed = false, and the caller
 * clears it with pool_zero_step() and hands it over with pool_zero_end().
 * POOL_EEMPTY when no frame is ZEROED or DIRTY (frames being zeroed by
 * someone else are not taken); POOL_EINVAL for NULL outputs.
 */
int pool_take(struct pool *p, uint32_t *idx, bool *prezeroed);

/*
 * Free an IN_USE frame. zero == false: it becomes DIRTY (appended, cursor
 * 0). zero == true (policy on_free): it becomes ZEROING[on_free], owned by
 * the caller, who steps and ends it. POOL_ESTATE for any other state (a
 * double free finds DIRTY/ZEROED), POOL_EINVAL for a bad index.
 */
int pool_free(struct pool *p, uint32_t idx, bool zero);

/*
 * Begin (or resume at the frame's cursor) zeroing a free frame for a
 * background origin: ZERO_IDLE, ZERO_BOOT or ZERO_BATCH (fault and on_free
 * zeroing begin in pool_take/pool_free; other origins give POOL_EINVAL).
 * DIRTY or ZEROED -> ZEROING; a ZEROED frame is zeroed again from 0 and the
 * work counts as wasted. IN_USE or ZEROING -> POOL_ESTATE.
 */
int pool_zero_begin(struct pool *p, uint32_t idx, enum zero_origin origin);

/*
 * Clear the next min(max_bytes, remaining) bytes of a ZEROING frame with
 * p->clear, at phys + zero_progress, and advance the cursor; hint goes to
 * p->clear as it is (the faulting address for a fault's frame, else 0: see
 * pool_clear_fn). *done (may be NULL) gets the bytes cleared now; 0 when
 * the frame was already complete.
 * max_bytes 0 clears nothing. POOL_ESTATE unless the frame is ZEROING.
 */
int pool_zero_step(struct pool *p, uint32_t idx, uint64_t max_bytes, uint64_t hint, uint64_t *done);

/*
 * Stop zeroing between chunks (the idle loop saw pending work). The bytes of
 * this session are credited to its origin; the frame returns to the head of
 * DIRTY with its cursor kept, so the next pool_take or background pick
 * resumes it, or to ZEROED when it was zero before. A fault's frame
 * (ZERO_FAULT) cannot pause: POOL_ESTATE. A frame whose cursor already
 * reached frame_bytes is finished as by pool_zero_end (-> ZEROED), so a DIRTY
 * frame's cursor is always below frame_bytes.
 */
int pool_zero_pause(struct pool *p, uint32_t idx);

/*
 * Finish a ZEROING frame whose cursor reached frame_bytes: the session's
 * bytes are credited to its origin, the cursor is reset, and the frame goes
 * to ZEROED (tail), or IN_USE for a fault's frame. POOL_EPARTIAL before the
 * end (nothing changed), POOL_ESTATE unless ZEROING.
 */
int pool_zero_end(struct pool *p, uint32_t idx);

/* The frame background zeroing should work on next: the head of DIRTY (a
 * partially zeroed frame first). POOL_EEMPTY when nothing is DIRTY. */
int pool_pick_background(const struct pool *p, uint32_t *idx);

/*
 * One-CPU helpers built from the calls above (clearing inside one call).
 * pool_zero_frame: begin + step to the end + end for ZERO_BOOT/IDLE/BATCH;
 * on a frame already ZEROING (a fault's or on_free frame the caller owns)
 * origin must equal the session's (else POOL_ESTATE) and it is finished.
 * pool_zero_some: pool_zero_frame on up to max_frames DIRTY frames, head
 * first (boot: all, batch=N: N); *zeroed (may be NULL) gets how many.
 * Only ZERO_IDLE/BOOT/BATCH (else POOL_EINVAL). Fewer DIRTY frames than
 * max_frames is not an error.
 * pool_idle_chunk: clear at most chunk_bytes (> 0, else POOL_EINVAL) of the
 * next DIRTY frame for ZERO_IDLE, then end it (complete) or pause it (cursor
 * kept, frame stays at the head of DIRTY so the next chunk resumes it);
 * *cleared (may be NULL) gets the bytes cleared. POOL_EEMPTY when nothing is
 * DIRTY. Linux's clear_pages() bound is 32 MiB per chunk (docs/prezero.md).
 */
int pool_zero_frame(struct pool *p, uint32_t idx, enum zero_origin origin);
int pool_zero_some(struct pool *p, uint32_t max_frames, enum zero_origin origin, uint32_t *zeroed);
int pool_idle_chunk(struct pool *p, uint64_t chunk_bytes, uint64_t *cleared);

/* True when some frame is ZEROING for anyone but a fault (idle, boot, batch,
 * on_free): it will come back DIRTY (paused) or ZEROED, so a fault finding
 * the pool empty may wait for it. O(frames in ZEROING). Hold the lock. */
bool pool_background_busy(const struct pool *p);

/* Accessors; out-of-range idx gives FRAME_NSTATES / 0. */
enum frame_state pool_state(const struct pool *p, uint32_t idx);
uint64_t pool_phys(const struct pool *p, uint32_t idx);
uint64_t pool_progress(const struct pool *p, uint32_t idx);

/* End-of-run figures computed by one walk over the frames. */
struct pool_summary {
    uint32_t zeroed_unused;    /* frames ZEROED at the end: pre-zeroed, never used */
    uint64_t partial_bytes;    /* cleared bytes sitting in DIRTY frames' cursors */
    uint64_t bytes_fault;      /* bytes_zeroed[ZERO_FAULT] */
    uint64_t bytes_background; /* every other origin added up */
};
void pool_summarise(const struct pool *p, struct pool_summary *s);

/*
 * Balance check: each frame is in exactly one state list and its state field
 * agrees; list lengths equal count[]; counts add up to n; taken = frees +
 * IN_USE + ZEROING[fault]; per frame uses - frees is 1 when it is IN_USE or
 * ZEROING[fault] and 0 otherwise (no frame handed out twice); sessions begun
 * = paused + completed + ZEROING; cursors within the frame, 0 outside
 * DIRTY/ZEROING. Returns POOL_OK, or POOL_ESTATE with *why (may be NULL) set
 * to a constant string naming the first failed rule and *bad_idx (may be
 * NULL) the frame involved or POOL_NONE.
 */
int pool_check(const struct pool *p, const char **why, uint32_t *bad_idx);

/* "dirty", "zeroing", "zeroed", "in_use"; "fault", "idle", "boot",
 * "on_free", "batch"; "?" out of range. */
const char *pool_state_name(unsigned state);
const char *pool_origin_name(unsigned origin);

#endif /* HZ_MM_POOL_H */
