/*
 * lib/cmdline.h - the kernel command line: space-separated `key=value`
 * words (and bare flags such as `nosmp`), checked strictly against a table of
 * options. An unknown key, a repeated key, or a malformed or out-of-range
 * value is an error naming the option and its accepted form; nothing is
 * silently ignored. Portable C (the host unit tests build it).
 *
 * Subsystems declare their options where they live, with HZ_OPTION(); the
 * kernel collects them from the `hz_options` section. docs/options.md lists
 * every one (a test checks the two agree).
 */
#ifndef HZ_LIB_CMDLINE_H
#define HZ_LIB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum opt_kind {
    OPT_U64,    /* decimal or 0x-hex integer in [min, max]        -> uint64_t */
    OPT_SIZE,   /* integer with optional K/M/G/T suffix (2^10..)  -> uint64_t */
    OPT_ENUM,   /* one of choices[]                               -> int index */
    OPT_BOOL,   /* 0/1/yes/no/on/off; a bare key means true       -> bool */
    OPT_FLAG,   /* bare key only, e.g. nosmp                      -> bool true */
    OPT_CUSTOM, /* parse() decides                                -> dest as parse() likes */
};

#define CMDLINE_ERR_LEN 160

struct option {
    const char *name;
    enum opt_kind kind;
    void *dest;
    const char *accepted;       /* the accepted form, printed in errors, e.g. "1..1000" */
    const char *help;           /* one line for docs and `help` output */
    uint64_t min, max;          /* OPT_U64 / OPT_SIZE bounds, inclusive */
    const char *const *choices; /* OPT_ENUM, NULL-terminated */
    /* OPT_CUSTOM: parse value (never NULL; "" for a bare key). Return 0, or
     * -1 after writing a short reason into err (errlen bytes). */
    int (*parse)(const struct option *o, const char *value, char *err, size_t errlen);
    /* Name of an option that must not be given together with this one
     * (e.g. nosmp and smp=), or NULL. */
    const char *conflicts;
};

/* Declare an option in the hz_options section (kernel and host builds). */
#define HZ_OPTION(var_, ...)                                                                       \
    static const struct option var_                                                                \
        __attribute__((used, section("hz_options"), aligned(8))) = {__VA_ARGS__}

/* The reason of a word that names no option. */
#define CMDLINE_UNKNOWN "unknown option"

struct cmdline_error {
    char option[48]; /* the key, or the word if it has no '='; "..." ends a cut one */
    char value[64];  /* the value given, "" for a bare word; "..." ends a cut one */
    char reason[CMDLINE_ERR_LEN];
    const char *accepted; /* accepted form of the option, or NULL if unknown */
};

/*
 * Parse `cmdline` against opts[0..n). Values are stored into each option's
 * dest as they are checked; on error parsing stops at the first bad word and
 * *err says which and why. An option given twice is an error, and so is one
 * given together with its `conflicts` option. A word longer than 255 bytes
 * is an error naming its key (and the option's accepted form when the key
 * is known) with the reason "too long". Returns 0 on success, -1 on error.
 */
int cmdline_parse(const char *cmdline, const struct option *opts, size_t n,
                  struct cmdline_error *err);

/* Where a bad option's reader finds the options: the common ones are in
 * docs/options.md, each scenario's in its own README. */
#define CMDLINE_SEE "(see docs/options.md, or scenarios/NAME/README.md for run=NAME's)"

/*
 * The console line of a bad option into buf (cap bytes, cut to fit, no
 * newline): "hugezero: bad option 'KEY=VALUE': REASON; accepted: ACCEPTED
 * CMDLINE_SEE"; without an accepted form, "; `help` lists the
 * options" for an unknown option (reason CMDLINE_UNKNOWN) and nothing for
 * another reason. value "" prints the bare word. Returns the length written.
 */
size_t cmdline_error_line(const char *option, const char *value, const char *reason,
                          const char *accepted, char *buf, size_t cap);

/*
 * Parse a size such as "4096", "4K", "2M", "32M", "1G", "0x1000" (suffixes
 * are powers of 1024, upper or lower case). Returns 0 and *out, or -1 on
 * malformed input or overflow past 2^64 - 1.
 */
int cmdline_parse_size(const char *s, uint64_t *out);

/*
 * Parse a comma-separated list of sizes ("4K,2M,32M,1G") into out[0..max).
 * Returns the count (>= 1), or -1 for an empty list, a malformed item, a
 * zero size or more than max items.
 */
int cmdline_parse_size_list(const char *s, uint64_t *out, size_t max);

/*
 * cmdline_parse_size_list() for an option's value: every size also a
 * multiple of `align` (> 0). Returns the count, or -1 with a message in
 * err[0..cap): "malformed size list (1..MAX non-zero sizes, K/M/G
 * suffixes)" or "size N is not a multiple of ALIGN".
 */
int cmdline_size_list_opt(const char *s, uint64_t *out, size_t max, uint64_t align, char *err,
                          size_t cap);

/*
 * Find the value of the first `key=value` word in cmdline without checking
 * anything else (used to apply `console=` before the full parse, so that
 * errors go to the chosen console). Returns 1 with the value in val, 0 when
 * absent, or -1 when the value does not fit in cap - 1 bytes or the word is
 * longer than 255 bytes (val untouched: a cut value is never returned).
 */
int cmdline_find(const char *cmdline, const char *key, char *val, size_t cap);

#endif /* HZ_LIB_CMDLINE_H */
