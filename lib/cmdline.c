/*
 * lib/cmdline.c - strict `key=value` command-line parser.
 */
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define WORD_MAX 256
#define OPTIONS_MAX 128

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Copy the next word into w; returns the position after it, or NULL at end.
 * *len is the word's full length in bytes; a word of WORD_MAX bytes or more
 * is cut to WORD_MAX - 1. */
static const char *next_word(const char *p, char *w, size_t *len)
{
    while (*p && is_space(*p))
        p++;
    if (!*p)
        return 0;
    size_t n = 0;
    for (; *p && !is_space(*p); p++, n++)
        if (n + 1 < WORD_MAX)
            w[n] = *p;
    w[n < WORD_MAX ? n : WORD_MAX - 1] = 0;
    *len = n;
    return p;
}

static int parse_u64(const char *s, uint64_t *out, const char **end)
{
    uint64_t v = 0;
    unsigned base = 10;
    const char *p = s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    const char *digits = p;
    for (;; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9')
            d = (unsigned)(*p - '0');
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            d = (unsigned)(*p - 'a' + 10);
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            d = (unsigned)(*p - 'A' + 10);
        else
            break;
        if (v > (UINT64_MAX - d) / base)
            return -1;
        v = v * base + d;
    }
    if (p == digits)
        return -1;
    *out = v;
    *end = p;
    return 0;
}

int cmdline_parse_size(const char *s, uint64_t *out)
{
    uint64_t v;
    const char *e;
    if (parse_u64(s, &v, &e) < 0)
        return -1;
    unsigned shift = 0;
    switch (*e) {
    case 0:
        break;
    case 'k':
    case 'K':
        shift = 10;
        e++;
        break;
    case 'm':
    case 'M':
        shift = 20;
        e++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        e++;
        break;
    case 't':
    case 'T':
        shift = 40;
        e++;
        break;
    default:
        return -1;
    }
    if (*e || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    *out = v << shift;
    return 0;
}

int cmdline_parse_size_list(const char *s, uint64_t *out, size_t max)
{
    char item[32];
    size_t count = 0;
    for (const char *p = s;;) {
        size_t n = 0;
        while (p[n] && p[n] != ',')
            n++;
        if (n == 0 || n >= sizeof(item) || count == max)
            return -1;
        memcpy(item, p, n);
        item[n] = 0;
        if (cmdline_parse_size(item, &out[count]) < 0 || out[count] == 0)
            return -1;
        count++;
        if (!p[n])
            return (int)count;
        p += n + 1;
    }
}

int cmdline_size_list_opt(const char *s, uint64_t *out, size_t max, uint64_t align, char *err,
                          size_t cap)
{
    int k = cmdline_parse_size_list(s, out, max);
    if (k < 0)
        return hz_snprintf(err, cap, "malformed size list (1..%zu non-zero sizes, K/M/G suffixes)",
                           max),
               -1;
    for (int i = 0; i < k; i++)
        if (out[i] % align)
            return hz_snprintf(err, cap, "size %llu is not a multiple of %llu",
                               (unsigned long long)out[i], (unsigned long long)align),
                   -1;
    return k;
}

/* Copy src into dst (cap >= 4 bytes); a cut copy ends in "...". */
static void copy_cut(char *dst, size_t cap, const char *src)
{
    if ((size_t)hz_snprintf(dst, cap, "%s", src) >= cap)
        memcpy(dst + cap - 4, "...", 4);
}

static void set_err(struct cmdline_error *err, const char *opt, const char *val,
                    const char *accepted, const char *reason)
{
    copy_cut(err->option, sizeof(err->option), opt);
    copy_cut(err->value, sizeof(err->value), val ? val : "");
    hz_snprintf(err->reason, sizeof(err->reason), "%s", reason);
    err->accepted = accepted;
}

static int parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = {"1", "yes", "on", "true", ""};
    static const char *const no[] = {"0", "no", "off", "false"};
    for (unsigned i = 0; i < 5; i++)
        if (strcmp(v, yes[i]) == 0)
            return *out = true, 0;
    for (unsigned i = 0; i < 4; i++)
        if (strcmp(v, no[i]) == 0)
            return *out = false, 0;
    return -1;
}

/* Check and store one value; returns 0 or -1 with a reason in why. */
static int apply(const struct option *o, const char *val, int bare, char *why, size_t wl)
{
    uint64_t v;
    const char *end;
    switch (o->kind) {
    case OPT_FLAG:
        if (!bare)
            return hz_snprintf(why, wl, "takes no value"), -1;
        *(bool *)o->dest = true;
        return 0;
    case OPT_BOOL:
        if (parse_bool(val, (bool *)o->dest) < 0)
            return hz_snprintf(why, wl, "not a boolean"), -1;
        return 0;
    case OPT_CUSTOM:
        return o->parse(o, val, why, wl);
    default:
        break;
    }
    if (bare || !*val)
        return hz_snprintf(why, wl, "needs a value"), -1;
    if (o->kind == OPT_ENUM) {
        for (int i = 0; o->choices[i]; i++)
            if (strcmp(val, o->choices[i]) == 0)
                return *(int *)o->dest = i, 0;
        return hz_snprintf(why, wl, "unknown choice"), -1;
    }
    int bad =
        o->kind == OPT_SIZE ? cmdline_parse_size(val, &v) : parse_u64(val, &v, &end) < 0 || *end;
    if (bad)
        return hz_snprintf(why, wl, "malformed number"), -1;
    uint64_t max = o->max ? o->max : UINT64_MAX;
    if (v < o->min || v > max)
        return hz_snprintf(why, wl, "out of range"), -1;
    *(uint64_t *)o->dest = v;
    return 0;
}

static size_t find_option(const struct option *opts, size_t n, const char *name)
{
    size_t i = 0;
    while (i < n && strcmp(opts[i].name, name) != 0)
        i++;
    return i;
}

/* An error for the first option given together with the one it conflicts
 * with; 0 when there is none. */
static int check_conflicts(const struct option *opts, size_t n, const bool *seen,
                           struct cmdline_error *err)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = opts[i].conflicts ? find_option(opts, n, opts[i].conflicts) : n;
        if (seen[i] && j < n && seen[j]) {
            char why[CMDLINE_ERR_LEN];
            hz_snprintf(why, sizeof(why), "conflicts with %s=; give only one of them",
                        opts[j].name);
            set_err(err, opts[i].name, "", opts[i].accepted, why);
            return -1;
        }
    }
    return 0;
}

int cmdline_parse(const char *cmdline, const struct option *opts, size_t n,
                  struct cmdline_error *err)
{
    bool seen[OPTIONS_MAX] = {0};
    char w[WORD_MAX];
    size_t len;
    int first = 1;
    if (n > OPTIONS_MAX) {
        set_err(err, "", "", 0, "internal: too many options");
        return -1;
    }
    for (const char *p = cmdline; p && (p = next_word(p, w, &len)); first = 0) {
        /* Some loaders pass the image path first ("/boot/hugezero.elf"). */
        if (first && (w[0] == '/' || w[0] == '('))
            continue;
        char *eq = strchr(w, '=');
        const char *val = eq ? eq + 1 : "";
        if (eq)
            *eq = 0;
        size_t i = find_option(opts, n, w);
        if (len >= WORD_MAX) {
            char why[CMDLINE_ERR_LEN];
            hz_snprintf(why, sizeof(why), "too long: the word is %zu bytes, at most %d", len,
                        WORD_MAX - 1);
            set_err(err, w, val, i < n ? opts[i].accepted : 0, why);
            return -1;
        }
        if (i == n) {
            set_err(err, w, val, 0, CMDLINE_UNKNOWN);
            return -1;
        }
        if (seen[i]) {
            set_err(err, w, val, opts[i].accepted, "given more than once");
            return -1;
        }
        seen[i] = true;
        char why[CMDLINE_ERR_LEN];
        if (apply(&opts[i], val, !eq, why, sizeof(why)) < 0) {
            set_err(err, w, val, opts[i].accepted, why);
            return -1;
        }
    }
    return check_conflicts(opts, n, seen, err);
}

int cmdline_find(const char *cmdline, const char *key, char *val, size_t cap)
{
    char w[WORD_MAX];
    size_t len, k = strlen(key);
    for (const char *p = cmdline; (p = next_word(p, w, &len));) {
        if (strncmp(w, key, k) == 0 && w[k] == '=') {
            if (len >= WORD_MAX || len - k - 1 >= cap)
                return -1;
            memcpy(val, w + k + 1, len - k);
            return 1;
        }
    }
    return 0;
}

size_t cmdline_error_line(const char *option, const char *value, const char *reason,
                          const char *accepted, char *buf, size_t cap)
{
    size_t n =
        (size_t)hz_snprintf(buf, cap, "hugezero: bad option '%s%s%s': %s%s%s " CMDLINE_SEE, option,
                            value[0] ? "=" : "", value, reason,
                            accepted                               ? "; accepted: "
                            : strcmp(reason, CMDLINE_UNKNOWN) == 0 ? "; `help` lists the options"
                                                                   : "",
                            accepted ? accepted : "");
    return n < cap ? n : cap - 1;
}
