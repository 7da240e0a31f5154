/*
 * tests/unit/test_cmdline.c - lib/cmdline.c: strict `key=value` parsing
 * against an explicit option table (every option kind), exact error reports
 * for bad input, and cmdline_find (sizes and size lists:
 * test_cmdline_size.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/cmdline.h"
#include "lib/fmt.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t v_threads, v_addr, v_size, v_sizes[4];
static int v_mode, v_nsizes;
static bool v_smp, v_nosmp, v_single;

static const char *const modes[] = {"stosb", "avx512", "nt", NULL};

static int parse_sizes(const struct option *o, const char *value, char *err, size_t errlen)
{
    int n = cmdline_parse_size_list(value, v_sizes, ARRAY_LEN(v_sizes));
    if (n < 0) {
        hz_snprintf(err, errlen, "bad list \"%s\"", value);
        return -1;
    }
    v_nsizes = n;
    return 0;
}

static const struct option opts[] = {
    {.name = "threads",
     .kind = OPT_U64,
     .dest = &v_threads,
     .accepted = "1..64",
     .min = 1,
     .max = 64},
    {.name = "addr", .kind = OPT_U64, .dest = &v_addr, .accepted = "0..2^64-1"}, /* max 0: none */
    {.name = "size",
     .kind = OPT_SIZE,
     .dest = &v_size,
     .accepted = "4K..1G",
     .min = 4096,
     .max = 1u << 30},
    {.name = "mode",
     .kind = OPT_ENUM,
     .dest = &v_mode,
     .accepted = "stosb|avx512|nt",
     .choices = modes},
    {.name = "smp", .kind = OPT_BOOL, .dest = &v_smp, .accepted = "on|off"},
    {.name = "nosmp", .kind = OPT_FLAG, .dest = &v_nosmp, .accepted = "(flag)"},
    {.name = "sizes", .kind = OPT_CUSTOM, .accepted = "size,size,...", .parse = parse_sizes},
    {.name = "single",
     .kind = OPT_FLAG,
     .dest = &v_single,
     .accepted = "single (not with threads=)",
     .conflicts = "threads"},
};

static void reset(void)
{
    v_threads = v_addr = v_size = 777;
    v_mode = -1;
    v_nsizes = -1;
    v_smp = false;
    v_nosmp = false;
    v_single = false;
    memset(v_sizes, 0, sizeof(v_sizes));
}

static int parse(const char *line, struct cmdline_error *e)
{
    reset();
    memset(e, 0x55, sizeof(*e));
    return cmdline_parse(line, opts, ARRAY_LEN(opts), e);
}

static void expect_ok(const char *line)
{
    struct cmdline_error e;
    if (parse(line, &e) != 0)
        fail_msg("\"%s\": %s=%s: %s", line, e.option, e.value, e.reason);
}

static void expect_err(const char *line, const char *option, const char *value, const char *reason,
                       const char *accepted)
{
    struct cmdline_error e;
    assert_int_equal(parse(line, &e), -1);
    assert_string_equal(e.option, option);
    assert_string_equal(e.value, value);
    assert_string_equal(e.reason, reason);
    if (accepted)
        assert_string_equal(e.accepted, accepted);
    else
        assert_null(e.accepted);
}

static void test_good_lines(void **state)
{
    expect_ok("threads=8 addr=0x1000 size=2M mode=nt smp=off nosmp sizes=4K,2M");
    assert_int_equal(v_threads, 8);
    assert_int_equal(v_addr, 0x1000);
    assert_int_equal(v_size, 2u << 20);
    assert_int_equal(v_mode, 2);
    assert_false(v_smp);
    assert_true(v_nosmp);
    assert_int_equal(v_nsizes, 2);
    assert_int_equal(v_sizes[0], 4096);
    assert_int_equal(v_sizes[1], 2u << 20);

    expect_ok("smp mode=stosb threads=1"); /* bare bool means true; order is free */
    assert_true(v_smp);
    assert_int_equal(v_mode, 0);
    assert_int_equal(v_threads, 1);
    assert_int_equal(v_addr, 777); /* untouched */
    assert_false(v_nosmp);

    static const char *const yes[] = {"smp=1", "smp=yes", "smp=on", "smp=true"};
    static const char *const no[] = {"smp=0", "smp=no", "smp=off", "smp=false"};
    for (size_t i = 0; i < ARRAY_LEN(yes); i++) {
        expect_ok(yes[i]);
        assert_true(v_smp);
        expect_ok(no[i]);
        assert_false(v_smp);
    }
}

static void test_numbers(void **state)
{
    expect_ok("addr=0");
    assert_int_equal(v_addr, 0);
    expect_ok("addr=0XaB");
    assert_int_equal(v_addr, 0xab);
    expect_ok("addr=18446744073709551615");
    assert_int_equal(v_addr, UINT64_MAX);
    expect_ok("addr=0xFFFFFFFFFFFFFFFF");
    assert_int_equal(v_addr, UINT64_MAX);
    expect_ok("addr=007");
    assert_int_equal(v_addr, 7);
    expect_ok("threads=64");
    assert_int_equal(v_threads, 64);
    expect_ok("size=1G");
    assert_int_equal(v_size, 1u << 30);
    expect_ok("size=0x1000");
    assert_int_equal(v_size, 4096);

    expect_err("addr=18446744073709551616", "addr", "18446744073709551616", "malformed number",
               "0..2^64-1");
    expect_err("addr=0x10000000000000000", "addr", "0x10000000000000000", "malformed number",
               "0..2^64-1");
    static const char *const bad[] = {"12x", "0x", "-1", "+1", "1.5", "x", "0x0g", "1K"};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char line[32];
        hz_snprintf(line, sizeof(line), "threads=%s", bad[i]);
        expect_err(line, "threads", bad[i], "malformed number", "1..64");
    }
    expect_err("threads=0", "threads", "0", "out of range", "1..64");
    expect_err("threads=65", "threads", "65", "out of range", "1..64");
    expect_err("size=2K", "size", "2K", "out of range", "4K..1G");
    expect_err("size=1025M", "size", "1025M", "out of range", "4K..1G");
    expect_err("size=4KB", "size", "4KB", "malformed number", "4K..1G");
    expect_err("size=16777216T", "size", "16777216T", "malformed number", "4K..1G");
}

/* The console line of a bad option: an unknown one points at `help`
 * (finding 7: it read "accepted: no such option; `help` lists them"). */
static void test_error_line(void **state)
{
    char b[160];
    size_t n = cmdline_error_line("bogus", "1", CMDLINE_UNKNOWN, NULL, b, sizeof(b));
    assert_int_equal(n, strlen(b));
    assert_string_equal(
        b, "hugezero: bad option 'bogus=1': unknown option; `help` lists the "
           "options (see docs/options.md, or scenarios/NAME/README.md for run=NAME's)");
    cmdline_error_line("repeats", "0", "out of range", "1..100", b, sizeof(b));
    assert_string_equal(b, "hugezero: bad option 'repeats=0': out of range; accepted: 1..100 (see "
                           "docs/options.md, or scenarios/NAME/README.md for run=NAME's)");
    cmdline_error_line("race", "clzero", "the strategy has no clear cell in this run", NULL, b,
                       sizeof(b));
    assert_string_equal(
        b, "hugezero: bad option 'race=clzero': the strategy has no clear cell in "
           "this run (see docs/options.md, or scenarios/NAME/README.md for run=NAME's)");
    cmdline_error_line("single", "", CMDLINE_UNKNOWN, NULL, b, sizeof(b));
    assert_string_equal(
        b, "hugezero: bad option 'single': unknown option; `help` lists the "
           "options (see docs/options.md, or scenarios/NAME/README.md for run=NAME's)");
    assert_int_equal(cmdline_error_line("bogus", "1", CMDLINE_UNKNOWN, NULL, b, 16), 15);
    assert_string_equal(b, "hugezero: bad o");
}

static void test_errors(void **state)
{
    expect_err("bogus=1", "bogus", "1", "unknown option", NULL);
    expect_err("bogus", "bogus", "", "unknown option", NULL);
    expect_err("Threads=2", "Threads", "2", "unknown option", NULL); /* case matters */
    expect_err("thread=2", "thread", "2", "unknown option", NULL);   /* no prefixes */
    expect_err("=5", "", "5", "unknown option", NULL);
    expect_err("threads=2 threads=3", "threads", "3", "given more than once", "1..64");
    expect_err("nosmp nosmp", "nosmp", "", "given more than once", "(flag)");
    /* Conflicting options, in either order, after every word was checked. */
    expect_err("single threads=4", "single", "", "conflicts with threads=; give only one of them",
               "single (not with threads=)");
    expect_err("threads=4 size=4K single", "single", "",
               "conflicts with threads=; give only one of them", "single (not with threads=)");
    assert_int_equal(v_size, 4096);
    expect_err("single threads=4 bogus", "bogus", "", "unknown option", NULL);
    expect_ok("single size=4K");
    assert_true(v_single);
    expect_err("threads", "threads", "", "needs a value", "1..64");
    expect_err("threads=", "threads", "", "needs a value", "1..64");
    expect_err("size", "size", "", "needs a value", "4K..1G");
    expect_err("mode", "mode", "", "needs a value", "stosb|avx512|nt");
    expect_err("nosmp=1", "nosmp", "1", "takes no value", "(flag)");
    expect_err("nosmp=", "nosmp", "", "takes no value", "(flag)");
    expect_err("mode=NT", "mode", "NT", "unknown choice", "stosb|avx512|nt");
    expect_err("mode=avx", "mode", "avx", "unknown choice", "stosb|avx512|nt");
    expect_err("smp=maybe", "smp", "maybe", "not a boolean", "on|off");
    expect_err("sizes=4K,,2M", "sizes", "4K,,2M", "bad list \"4K,,2M\"", "size,size,...");
    expect_err("sizes", "sizes", "", "bad list \"\"", "size,size,...");
    /* Only the first '=' splits: the value keeps the rest. */
    expect_err("mode=a=b", "mode", "a=b", "unknown choice", "stosb|avx512|nt");

    /* Parsing stops at the first bad word; earlier words were stored. */
    expect_err("size=4K mode=bad threads=5 bogus", "mode", "bad", "unknown choice",
               "stosb|avx512|nt");
    assert_int_equal(v_size, 4096);
    assert_int_equal(v_threads, 777);

    /* Long names and values are cut to the error fields (47 / 63 chars),
     * and the cut is marked with "...". */
    char line[200];
    memset(line, 'k', 60);
    line[60] = '=';
    memset(line + 61, 'v', 100);
    line[161] = 0;
    struct cmdline_error e;
    assert_int_equal(parse(line, &e), -1);
    assert_int_equal(strlen(e.option), sizeof(e.option) - 1);
    assert_int_equal(strspn(e.option, "k"), sizeof(e.option) - 4);
    assert_string_equal(e.option + sizeof(e.option) - 4, "...");
    assert_int_equal(strlen(e.value), sizeof(e.value) - 1);
    assert_int_equal(strspn(e.value, "v"), sizeof(e.value) - 4);
    assert_string_equal(e.value + sizeof(e.value) - 4, "...");
    assert_string_equal(e.reason, "unknown option");

    /* More options than the parser tracks is reported, not overrun. */
    static struct option many[129];
    assert_int_equal(cmdline_parse("", many, ARRAY_LEN(many), &e), -1);
    assert_string_equal(e.reason, "internal: too many options");
}

static void test_words_and_separators(void **state)
{
    char line[300];
    /* "threads=" + 247 digits = 255 bytes: accepted. One more: refused. */
    strcpy(line, "threads=");
    memset(line + 8, '0', 246);
    strcpy(line + 254, "9");
    assert_int_equal(strlen(line), 255);
    expect_ok(line);
    assert_int_equal(v_threads, 9);
    memset(line + 8, '0', 247);
    strcpy(line + 255, "9");
    assert_int_equal(strlen(line), 256);
    struct cmdline_error e;
    /* A known option: named, with its accepted form and "too long". */
    assert_int_equal(parse(line, &e), -1);
    assert_string_equal(e.reason, "too long: the word is 256 bytes, at most 255");
    assert_string_equal(e.option, "threads");
    assert_int_equal(strlen(e.value), sizeof(e.value) - 1);
    assert_string_equal(e.value + sizeof(e.value) - 4, "...");
    assert_string_equal(e.accepted, "1..64");
    /* An unknown one: named too, without an accepted form. */
    memcpy(line, "bogus=0", 7);
    assert_int_equal(parse(line, &e), -1);
    assert_string_equal(e.reason, "too long: the word is 256 bytes, at most 255");
    assert_string_equal(e.option, "bogus");
    assert_null(e.accepted);
    /* Far longer than the word buffer: the length is still exact. */
    char big[1024];
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = 0;
    memcpy(big, "mode=", 5);
    assert_int_equal(parse(big, &e), -1);
    assert_string_equal(e.reason, "too long: the word is 1023 bytes, at most 255");
    assert_string_equal(e.option, "mode");

    expect_ok("/boot/hugezero.elf threads=3");
    assert_int_equal(v_threads, 3);
    expect_ok("  (hd0,gpt2)/hugezero.elf\tnosmp");
    assert_true(v_nosmp);
    expect_ok("/boot/hugezero.elf");
    expect_err("threads=3 /boot/hugezero.elf", "/boot/hugezero.elf", "", "unknown option", NULL);
    expect_err("/boot/a /boot/b", "/boot/b", "", "unknown option", NULL);

    expect_ok("threads=3\tsize=4K\nnosmp\r\n  smp=on\t");
    assert_int_equal(v_threads, 3);
    assert_int_equal(v_size, 4096);
    assert_true(v_nosmp);
    assert_true(v_smp);

    expect_ok("");
    expect_ok("   \t\n\r ");
    assert_int_equal(v_threads, 777);
    reset();
    assert_int_equal(cmdline_parse(NULL, opts, ARRAY_LEN(opts), &e), 0);
}

static void test_find(void **state)
{
    char v[16];
    memset(v, 'Z', sizeof(v));
    assert_int_equal(cmdline_find("threads=3 console=ttyS0 x", "console", v, sizeof(v)), 1);
    assert_string_equal(v, "ttyS0");
    assert_int_equal(cmdline_find("consoles=x\tconsole=vga", "console", v, sizeof(v)), 1);
    assert_string_equal(v, "vga");
    assert_int_equal(cmdline_find("console=a console=b", "console", v, sizeof(v)), 1);
    assert_string_equal(v, "a");
    assert_int_equal(cmdline_find("console=", "console", v, sizeof(v)), 1);
    assert_string_equal(v, "");
    /* A value that does not fit is an error, never a silently cut value. */
    memset(v, 'Z', sizeof(v));
    assert_int_equal(cmdline_find("console=0123456789abcdefgh", "console", v, 5), -1);
    assert_int_equal(v[0], 'Z');
    assert_int_equal(cmdline_find("console=0123", "console", v, 5), 1);
    assert_string_equal(v, "0123");
    assert_int_equal(cmdline_find("console=01234", "console", v, 5), -1);

    memset(v, 'Z', sizeof(v));
    assert_int_equal(cmdline_find("consoles=x", "console", v, sizeof(v)), 0);
    assert_int_equal(cmdline_find("xconsole=1 console", "console", v, sizeof(v)), 0);
    assert_int_equal(cmdline_find("cons=1", "console", v, sizeof(v)), 0);
    assert_int_equal(cmdline_find("console=ttyS0", "cons", v, sizeof(v)), 0);
    assert_int_equal(cmdline_find("", "console", v, sizeof(v)), 0);
    assert_int_equal(cmdline_find("   ", "console", v, sizeof(v)), 0);
    assert_int_equal(v[0], 'Z'); /* untouched when absent */

    /* A word longer than 255 bytes is an error, even with room for it. */
    char line[300], big[300];
    strcpy(line, "console=");
    memset(line + 8, 'x', 260);
    line[268] = 0;
    assert_int_equal(cmdline_find(line, "console", big, sizeof(big)), -1);
    /* The first console= counts: a bad one is not skipped for a later one. */
    strcat(line, " console=ttyS0");
    assert_int_equal(cmdline_find(line, "console", big, sizeof(big)), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_lines), cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_errors),     cmocka_unit_test(test_words_and_separators),
        cmocka_unit_test(test_find),       cmocka_unit_test(test_error_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
