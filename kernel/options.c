/*
 * kernel/options.c - option table and run-wide options.
 */
#include "kernel/options.h"
#include "lib/print.h"
#include "lib/record.h"

extern const struct option __start_hz_options[], __stop_hz_options[];

int opt_selftest = SELFTEST_NONE;
bool opt_help;

const char *const selftest_names[] = {"none", "ud", "pf", "gp", "de", "bp", 0};
HZ_OPTION(opt_selftest_def, .name = "selftest", .kind = OPT_ENUM, .dest = &opt_selftest,
          .choices = selftest_names, .accepted = "none|ud|pf|gp|de|bp",
          .help = "raise this exception on purpose to test the crash report");

HZ_OPTION(opt_help_def, .name = "help", .kind = OPT_FLAG, .dest = &opt_help, .accepted = "help",
          .help = "print every option and exit");

static const char *parsed; /* the command line options_parse() read */

int options_parse(const char *cmdline)
{
    struct cmdline_error e;
    parsed = cmdline;
    size_t n = (size_t)(__stop_hz_options - __start_hz_options);
    if (cmdline_parse(cmdline, __start_hz_options, n, &e) == 0)
        return 0;

    options_config_error(e.option, e.value, e.reason, e.accepted);
    return -1;
}

bool option_given(const char *name)
{
    char v[4];
    return parsed && cmdline_find(parsed, name, v, sizeof(v)) != 0; /* -1: given, long value */
}

void options_config_error(const char *option, const char *value, const char *reason,
                          const char *accepted)
{
    char buf[HZ_RECORD_MAX];
    cmdline_error_line(option, value, reason, accepted, buf, sizeof(buf));
    kprintf("%s\n", buf);
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "config");
    rec_str(&r, "option", option);
    rec_str(&r, "value", value);
    rec_str(&r, "error", reason);
    rec_str(&r, "accepted", accepted);
    record_emit(&r);
}

void options_print_help(void)
{
    kprintf("options (key=value, space-separated):\n");
    for (const struct option *o = __start_hz_options; o < __stop_hz_options; o++)
        kprintf("  %-12s %s\n  %-12s accepted: %s\n", o->name, o->help, "", o->accepted);
}
