/*
 * tests/unit/verdict_item.h - a trivial verdict item that lives in a
 * unit-test build only (tests/unit/test_verdict_item.c): how adding an item
 * looks (issue 29). Its row of VD_ITEMS, its decide function and its
 * template row; nothing else of the verdict changes.
 */
#ifndef HZ_TESTS_VERDICT_ITEM_H
#define HZ_TESTS_VERDICT_ITEM_H

#define VD_EXTRA_ITEMS(X) X(VD_CELLS_ITEM, "cells", "cells", "cells", "", true, vd_decide_cells)
#define VD_EXTRA_TEMPLATES {"cells:none", "{a:cells} cells handed in, {a:usable} usable"},

#endif /* HZ_TESTS_VERDICT_ITEM_H */
