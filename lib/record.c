/*
 * lib/record.c - JSON record writer. Every append is all-or-nothing: it
 * either fits, leaving room for the closing brackets and the "trunc" marker,
 * or it is rolled back and the record is marked as overflowed.
 */
#include "lib/record.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define TRUNC_MARK ",\"trunc\":true"

/* Bytes kept free for closers of all open containers, the marker and NUL. */
static size_t reserve(const struct rec *r) { return (size_t)r->depth + 1 + sizeof(TRUNC_MARK); }

static bool room(const struct rec *r, size_t n) { return r->len + n + reserve(r) <= r->cap; }

static void raw(struct rec *r, const char *s, size_t n)
{
    memcpy(r->buf + r->len, s, n);
    r->len += n;
}

/* Dropped containers (too deep or no room) swallow everything inside them. */
static bool skipping(const struct rec *r) { return r->dropped > 0; }

/* Escaped length of s, and optionally the escaped text into out. */
static size_t escape(const char *s, char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char e[6];
        size_t k;
        if (*p == '"' || *p == '\\') {
            e[0] = '\\';
            e[1] = (char)*p;
            k = 2;
        } else if (*p < 0x20) {
            memcpy(e, "\\u00", 4);
            e[4] = hex[*p >> 4];
            e[5] = hex[*p & 15];
            k = 6;
        } else {
            e[0] = (char)*p;
            k = 1;
        }
        if (out)
            memcpy(out + n, e, k);
        n += k;
    }
    return n;
}

/* Append `,"key":` (or the element separator) followed by value text, with
 * `extra` more bytes kept free (the closer of a container being opened).
 * Objects need a key and arrays take none: a mismatch would break the JSON,
 * so it is dropped like a member that does not fit. */
static bool member_room(struct rec *r, const char *key, const char *val, size_t vlen, bool quote,
                        size_t extra)
{
    size_t klen = key ? escape(key, NULL) : 0;
    size_t vesc = quote ? escape(val, NULL) : vlen;
    size_t need = (r->need_comma[r->depth] ? 1 : 0) + (key ? klen + 3 : 0) + vesc + (quote ? 2 : 0);
    if (!key != r->in_array[r->depth] || !room(r, need + extra)) {
        r->overflow = true;
        return false;
    }
    if (r->need_comma[r->depth])
        raw(r, ",", 1);
    if (key) {
        raw(r, "\"", 1);
        escape(key, r->buf + r->len);
        r->len += klen;
        raw(r, "\":", 2);
    }
    if (quote) {
        raw(r, "\"", 1);
        escape(val, r->buf + r->len);
        r->len += vesc;
        raw(r, "\"", 1);
    } else {
        raw(r, val, vlen);
    }
    r->need_comma[r->depth] = true;
    return true;
}

static bool member(struct rec *r, const char *key, const char *val, size_t vlen, bool quote)
{
    return member_room(r, key, val, vlen, quote, 0);
}

void rec_begin(struct rec *r, char *buf, size_t cap, const char *type)
{
    memset(r, 0, sizeof(*r));
    r->buf = buf;
    r->cap = cap;
    const char *head = HZ_RECORD_PREFIX "{";
    raw(r, head, strlen(head));
    rec_str(r, "t", type);
    rec_u64(r, "v", HZ_RECORD_VERSION);
}

void rec_str(struct rec *r, const char *key, const char *val)
{
    if (skipping(r))
        return;
    if (!val)
        member(r, key, "null", 4, false);
    else
        member(r, key, val, 0, true);
}

void rec_u64(struct rec *r, const char *key, uint64_t val)
{
    char t[24];
    if (!skipping(r))
        member(r, key, t, (size_t)hz_snprintf(t, sizeof(t), "%llu", (unsigned long long)val),
               false);
}

void rec_i64(struct rec *r, const char *key, int64_t val)
{
    char t[24];
    if (!skipping(r))
        member(r, key, t, (size_t)hz_snprintf(t, sizeof(t), "%lld", (long long)val), false);
}

void rec_bool(struct rec *r, const char *key, bool val)
{
    if (!skipping(r))
        member(r, key, val ? "true" : "false", val ? 4 : 5, false);
}

void rec_u64_opt(struct rec *r, const char *key, bool known, uint64_t val)
{
    if (known)
        rec_u64(r, key, val);
    else
        rec_str(r, key, NULL);
}

void rec_hex(struct rec *r, const char *key, uint64_t val)
{
    char t[24];
    if (skipping(r))
        return;
    hz_snprintf(t, sizeof(t), "0x%llx", (unsigned long long)val);
    member(r, key, t, 0, true);
}

void rec_fixed(struct rec *r, const char *key, uint64_t val, unsigned digits)
{
    char t[32];
    if (skipping(r))
        return;
    size_t n = fmt_fixed(t, sizeof(t), val, digits);
    if (!n) {
        r->overflow = true;
        return;
    }
    member(r, key, t, n, false);
}

void rec_sfixed(struct rec *r, const char *key, int64_t val, unsigned digits)
{
    char t[32];
    if (skipping(r))
        return;
    t[0] = '-';
    uint64_t mag = val < 0 ? 0 - (uint64_t)val : (uint64_t)val;
    size_t n = fmt_fixed(t + (val < 0), sizeof(t) - 1, mag, digits);
    if (!n) {
        r->overflow = true;
        return;
    }
    member(r, key, t, n + (val < 0), false);
}

static void open_container(struct rec *r, const char *key, bool array)
{
    /* The closer of the new container must fit as well: reserve it now. */
    if (skipping(r) || r->depth >= HZ_RECORD_DEPTH ||
        !member_room(r, key, array ? "[" : "{", 1, false, 1)) {
        r->overflow = true;
        r->dropped++;
        return;
    }
    r->depth++;
    r->need_comma[r->depth] = false;
    r->in_array[r->depth] = array;
}

static void close_container(struct rec *r, bool array)
{
    if (r->dropped > 0) {
        r->dropped--;
        return;
    }
    if (r->depth == 0 || r->in_array[r->depth] != array) {
        r->overflow = true; /* unbalanced call: ignore it */
        return;
    }
    r->depth--;
    raw(r, array ? "]" : "}", 1);
}

void rec_obj_begin(struct rec *r, const char *key) { open_container(r, key, false); }
void rec_obj_end(struct rec *r) { close_container(r, false); }
void rec_arr_begin(struct rec *r, const char *key) { open_container(r, key, true); }
void rec_arr_end(struct rec *r) { close_container(r, true); }

const char *rec_end(struct rec *r)
{
    r->dropped = 0;
    while (r->depth > 0) {
        raw(r, r->in_array[r->depth] ? "]" : "}", 1);
        r->depth--;
    }
    if (r->overflow)
        raw(r, TRUNC_MARK, sizeof(TRUNC_MARK) - 1);
    raw(r, "}", 1);
    r->buf[r->len] = 0;
    return r->buf;
}
