/*
 * lib/registry.h - a linker-section registry checked for twins: two rows
 * (HZ_OPTION, HZ_SCENARIO, HZ_VERDICT_ITEM, HZ_CELL_KIND) with the same value in a field
 * the registry is looked up or ordered by. A twin builds and links; every
 * look-up takes the first row, so the second is silently never found (a
 * throw-away verdict item's `.key = "fault"` once replaced the real fault
 * answer). kernel/registry.c runs this check on every registry at
 * start-up. Portable C (the host unit tests build it).
 */
#ifndef HZ_LIB_REGISTRY_H
#define HZ_LIB_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

/* The field a registry's rows must not share: its name (".name"), where it
 * lies in a row and how many bytes it takes, and whether it is a string
 * (a `const char *`, compared with strcmp; NULL equals only NULL) or an
 * integer of any width (compared byte for byte). REG_STR_KEY and
 * REG_INT_KEY fill it from the row's type. */
struct reg_key {
    const char *field;
    size_t offset, size;
    bool str;
};

#define REG_KEY_(type_, f_, str_)                                                                  \
    {                                                                                              \
        .field = #f_, .offset = offsetof(type_, f_), .size = sizeof(((type_ *)0)->f_), .str = str_ \
    }
#define REG_STR_KEY(type_, f_) REG_KEY_(type_, f_, true)
#define REG_INT_KEY(type_, f_) REG_KEY_(type_, f_, false)

/* Two rows that share a key: their indexes in the registry, first < second. */
struct reg_twin {
    size_t first, second;
};

/*
 * Find the first twin among rows[0..n), each `stride` bytes (the row's
 * sizeof): the lowest `second` whose key an earlier row has, and the
 * lowest such `first`. Returns true and *out; false when no two rows
 * share the key (n 0 or 1 included; *out untouched). O(n^2): registries
 * hold tens of rows.
 */
bool reg_first_twin(const void *rows, size_t n, size_t stride, const struct reg_key *key,
                    struct reg_twin *out);

/*
 * The key of `row` as text into buf (cap > 0 bytes, cut to fit): a
 * string as it is ("(null)" for NULL), an integer in decimal, read as a
 * signed number of key->size (1..8) bytes. Returns buf.
 */
const char *reg_key_text(const void *row, const struct reg_key *key, char *buf, size_t cap);

#endif /* HZ_LIB_REGISTRY_H */
