/*
 * tests/unit/verdict_item_build.c - lib/verdict.c and lib/verdict_templates.c
 * built with the test-only item of tests/unit/verdict_item.h (the other
 * verdict sources need no rebuild: they index the items they read).
 */
#include "tests/unit/verdict_item.h"

#include "lib/verdict.c"
#include "lib/verdict_templates.c"
