/*
 * tests/unit/test_print.c - lib/print.c (the output stream) against a sink
 * that keeps what it is given: human text escaping ("@hz" as "@_hz",
 * control bytes as \xNN, CR LF line ends), the "seq" member put into each
 * record line, the record count and CRC-32 of print_stream (checked against
 * zlib's crc32 of the same lines, computed by Python), and the dropping of
 * bytes without a sink.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/print.h"
#include "tests/unit/print_capture.h"

static void reset(void)
{
    nout = 0;
    out[0] = 0;
}

static void test_human_text(void **state)
{
    (void)state;
    print_set_sink(&sink);
    reset();
    kprintf("a @hz b\x01%s\x7f\n", "\x1b[2J");
    assert_string_equal(out, "a @_hz b\\x01\\x1b[2J\\x7f\r\n");
    reset();
    kprintf("%d lines\nsecond @hz@hz\n", 2);
    assert_string_equal(out, "2 lines\r\nsecond @_hz@_hz\r\n");
    uint64_t n;
    uint32_t crc;
    print_stream(&n, &crc);
    assert_int_equal(n, 0); /* human text is not counted */
    assert_int_equal(crc, 0);
}

static void test_records(void **state)
{
    (void)state;
    print_set_sink(&sink);
    reset();
    char buf[256];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "pass");
    rec_str(&r, "name", "a");
    record_emit(&r);
    record_emit_line("@hz {\"t\":\"x\\\"y\",\"v\":1}"); /* an escaped quote in the type */
    record_emit_line("not a record");                   /* printed as it is, counted */
    assert_string_equal(out, "@hz {\"t\":\"pass\",\"v\":1,\"seq\":0,\"name\":\"a\"}\r\n"
                             "@hz {\"t\":\"x\\\"y\",\"v\":1,\"seq\":1}\r\n"
                             "not a record\r\n");
    uint64_t n;
    uint32_t crc;
    print_stream(&n, &crc);
    assert_int_equal(n, 3);
    /* zlib.crc32 of the three lines as sent, each ending in one "\n" */
    assert_int_equal(crc, 0x0e4768b1u);
}

static void test_no_sink(void **state)
{
    (void)state;
    uint64_t before, after;
    uint32_t crc;
    print_stream(&before, &crc);
    print_set_sink(NULL);
    reset();
    kprintf("dropped\n");
    record_emit_line("@hz {\"t\":\"x\",\"v\":1}");
    assert_int_equal(nout, 0);
    print_stream(&after, &crc);
    assert_int_equal(after, before + 1); /* still counted: the summary says so */
    print_set_sink(&sink);
    record_emit_line("@hz {\"t\":\"y\",\"v\":1}");
    assert_string_equal(out, "@hz {\"t\":\"y\",\"v\":1,\"seq\":4}\r\n");
}

static void count(void *arg) { (*(int *)arg)++; }

static void test_locked(void **state)
{
    (void)state;
    int calls = 0;
    print_locked(count, &calls);
    print_locked(count, &calls);
    assert_int_equal(calls, 2); /* and the lock was given back each time */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_human_text),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_no_sink),
        cmocka_unit_test(test_locked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
