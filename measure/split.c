/*
 * measure/split.c - per-CPU pieces of a clear target (measure/split.h).
 */
#include "measure/split.h"

int split_even(uint64_t total, uint64_t unit, unsigned n, unsigned i, uint64_t *off,
               uint64_t *bytes)
{
    if (n == 0 || i >= n || unit == 0 || total % unit)
        return SPLIT_EINVAL;
    uint64_t units = total / unit, q = units / n, r = units % n;
    /* i * q + min(i, r) <= units, so neither product can pass total */
    *off = ((uint64_t)i * q + (i < r ? i : r)) * unit;
    *bytes = (q + (i < r ? 1 : 0)) * unit;
    return SPLIT_OK;
}

/* Target-space start and size of domain d's extents; -1 when d has none,
 * SPLIT_EORDER when they are not consecutive. */
static int domain_span(const struct split_extent *ext, size_t next, int32_t d, uint64_t *start,
                       uint64_t *size)
{
    uint64_t pos = 0;
    size_t first = next, last = 0;
    *start = *size = 0;
    for (size_t k = 0; k < next; k++) {
        if (ext[k].domain == d) {
            if (first == next) {
                first = k;
                *start = pos;
            } else if (last != k - 1) {
                return SPLIT_EORDER;
            }
            last = k;
            *size += ext[k].bytes;
        }
        pos += ext[k].bytes;
    }
    return first == next ? SPLIT_ENODOMAIN : SPLIT_OK;
}

int split_plan(uint64_t total, uint64_t unit, unsigned n, const int32_t *domain,
               const struct split_extent *ext, size_t next, struct split_piece *out)
{
    uint64_t sum = 0;
    if (!ext || !out || next == 0 || n == 0 || unit == 0 || total % unit)
        return SPLIT_EINVAL;
    for (size_t k = 0; k < next; k++) {
        if (ext[k].bytes % unit || ext[k].bytes > UINT64_MAX - sum)
            return SPLIT_EINVAL;
        sum += ext[k].bytes;
    }
    if (!domain) {
        if (total > sum)
            return SPLIT_ENOSPACE;
        for (unsigned i = 0; i < n; i++)
            split_even(total, unit, n, i, &out[i].off, &out[i].bytes);
        return SPLIT_OK;
    }
    for (unsigned i = 0; i < n; i++) {
        uint64_t start, size, used = 0, off, len;
        int rc = domain_span(ext, next, domain[i], &start, &size);
        if (rc != SPLIT_OK)
            return rc;
        for (unsigned j = 0; j < i; j++) /* earlier participants of the same domain */
            if (domain[j] == domain[i])
                used += out[j].bytes;
        split_even(total, unit, n, i, &off, &len);
        if (len > size - used)
            return SPLIT_ENOSPACE;
        out[i].off = start + used;
        out[i].bytes = len;
    }
    return SPLIT_OK;
}

void split_iter_init(struct split_iter *it, const struct split_extent *ext, size_t next,
                     uint64_t off, uint64_t bytes)
{
    *it = (struct split_iter){ext, next, 0, off, bytes};
}

bool split_iter_next(struct split_iter *it, uint64_t *base, uint64_t *bytes)
{
    while (it->left && it->i < it->next) {
        const struct split_extent *e = &it->ext[it->i];
        if (it->skip >= e->bytes) {
            it->skip -= e->bytes;
            it->i++;
            continue;
        }
        uint64_t avail = e->bytes - it->skip;
        uint64_t len = it->left < avail ? it->left : avail;
        *base = e->base + it->skip;
        *bytes = len;
        it->left -= len;
        it->skip = 0;
        it->i++;
        return true;
    }
    return false;
}

const char *split_strerror(int err)
{
    switch (err) {
    case SPLIT_OK:
        return "ok";
    case SPLIT_EINVAL:
        return "invalid argument";
    case SPLIT_ENOSPACE:
        return "not enough memory in the extents";
    case SPLIT_EORDER:
        return "a domain's extents are not consecutive";
    case SPLIT_ENODOMAIN:
        return "a CPU's domain has no memory";
    default:
        return "unknown error";
    }
}
