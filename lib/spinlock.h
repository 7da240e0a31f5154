/*
 * lib/spinlock.h - a test-and-test-and-set spinlock (XCHG is a locked
 * read-modify-write, SDM Vol. 3A §9.1.2.1). Interrupts are not touched:
 * hugezero runs with interrupts off except where a subsystem says otherwise.
 */
#ifndef HZ_LIB_SPINLOCK_H
#define HZ_LIB_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct spinlock {
    volatile uint32_t locked;
};

/* Try once; true when taken. */
static inline bool spin_trylock(struct spinlock *l)
{
    return __atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE) == 0;
}

/* Spin until taken (no timeout: hold times must be short and bounded). */
static inline void spin_lock(struct spinlock *l)
{
    while (!spin_trylock(l))
        while (l->locked)
            __builtin_ia32_pause();
}

static inline void spin_unlock(struct spinlock *l)
{
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif /* HZ_LIB_SPINLOCK_H */
