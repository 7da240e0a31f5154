/*
 * fuzz/fuzz_cmdline.c - libFuzzer harness for the command-line parser
 * (lib/cmdline.c, docs/options.md) on lines of up to 1023 bytes, the
 * boot-information limit (BOOT_CMDLINE_MAX).
 *
 * Checks, besides the sanitizers:
 *   - cmdline_parse returns 0 or -1; on -1 every error field is a
 *     NUL-terminated string that fits, and the reason is not empty;
 *   - cmdline_find (the early `console=` lookup) never returns a cut value:
 *     with a 64-byte buffer it finds exactly what a 256-byte one finds, or
 *     says the value does not fit;
 *   - when the strict parse accepts a line, the console value it checked is
 *     the one cmdline_find returns (the early console and the strict parser
 *     agree);
 *   - cmdline_parse_size agrees with a strtoull-based reference.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cmdline.h"
#include "lib/fmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LINE_MAX_BYTES 1024
#define CONSOLE_MAX 64 /* kernel/main.c early_console() buffer */

static uint64_t v_u64, v_size;
static int v_enum;
static bool v_bool, v_flag;
static char v_console[256];
static bool console_seen;

static const char *const choices[] = {"stosb", "avx512", "nt", NULL};

/* Like console_option_parse: an empty value (a bare `console`) and values of
 * CONSOLE_MAX bytes or more are refused. */
static int console_opt(const struct option *o, const char *value, char *err, size_t errlen)
{
    (void)o;
    if (value[0] == 0 || strlen(value) >= CONSOLE_MAX) {
        hz_snprintf(err, errlen, "value too long");
        return -1;
    }
    strcpy(v_console, value);
    console_seen = true;
    return 0;
}

static const struct option opts[] = {
    {.name = "smp", .kind = OPT_U64, .dest = &v_u64, .accepted = "1..1024", .min = 1, .max = 1024},
    {.name = "bytes",
     .kind = OPT_SIZE,
     .dest = &v_size,
     .accepted = "4K..1T",
     .min = 4096,
     .max = 1ull << 40},
    {.name = "mode",
     .kind = OPT_ENUM,
     .dest = &v_enum,
     .accepted = "stosb|avx512|nt",
     .choices = choices},
    {.name = "verify", .kind = OPT_BOOL, .dest = &v_bool, .accepted = "on|off"},
    {.name = "nosmp", .kind = OPT_FLAG, .dest = &v_flag, .accepted = "nosmp", .conflicts = "smp"},
    {.name = "console", .kind = OPT_CUSTOM, .accepted = "ttyS0..3", .parse = console_opt},
};

static void check_str(const char *s, size_t cap)
{
    if (memchr(s, 0, cap) == NULL)
        abort();
}

/* Reference for cmdline_parse_size: [0x]digits[KMGT], no sign, no space. */
static int ref_size(const char *s, uint64_t *out)
{
    const char *digits = s;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, digits = s + 2;
    size_t n = strspn(digits, base == 16 ? "0123456789abcdefABCDEF" : "0123456789");
    if (n == 0)
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(digits, &end, base);
    if (errno == ERANGE || end != digits + n)
        return -1;
    unsigned shift = 0;
    const char *suffix = "kKmMgGtT";
    const char *hit = *end ? strchr(suffix, *end) : NULL;
    if (*end && !hit)
        return -1;
    if (hit) {
        shift = 10 * (unsigned)(1 + (hit - suffix) / 2);
        end++;
    }
    if (*end || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char line[LINE_MAX_BYTES];
    size_t n = size < sizeof(line) - 1 ? size : sizeof(line) - 1;
    memcpy(line, data, n);
    line[n] = 0;

    struct cmdline_error e;
    memset(&e, 0x5a, sizeof(e));
    console_seen = false;
    int rc = cmdline_parse(line, opts, sizeof(opts) / sizeof(opts[0]), &e);
    if (rc == -1) {
        check_str(e.option, sizeof(e.option));
        check_str(e.value, sizeof(e.value));
        check_str(e.reason, sizeof(e.reason));
        if (e.reason[0] == 0)
            abort();
    } else if (rc != 0) {
        abort();
    }

    char small[CONSOLE_MAX], big[256];
    int fs = cmdline_find(line, "console", small, sizeof(small));
    int fb = cmdline_find(line, "console", big, sizeof(big));
    if (fs < -1 || fs > 1 || fb < -1 || fb > 1)
        abort();
    if (fs == 1 && (fb != 1 || strcmp(small, big) != 0))
        abort(); /* a cut value was returned */
    if (fs == -1 && fb == 1 && strlen(big) < sizeof(small))
        abort(); /* it would have fitted */
    if (rc == 0 && console_seen && (fs != 1 || strcmp(small, v_console) != 0))
        abort(); /* the early console would apply another value */
    if (rc == 0 && fs == -1)
        abort(); /* the strict parse accepted what the early one refused */

    uint64_t got = 0, want = 0;
    char word[40];
    size_t wn = strcspn(line, " ");
    if (wn < sizeof(word)) {
        memcpy(word, line, wn);
        word[wn] = 0;
        int a = cmdline_parse_size(word, &got), b = ref_size(word, &want);
        if (a != b || (a == 0 && got != want))
            abort();
    }
    uint64_t list[4];
    int k = cmdline_parse_size_list(line, list, 4);
    if (k < -1 || k == 0 || k > 4)
        abort();
    return 0;
}
