/*
 * measure/strategy_list.c - clear-strategy name lists of the scenarios'
 * options (measure/strategy_list.h).
 */
#include "measure/strategy_list.h"

#include "lib/fmt.h"

int strategy_list_parse(const char *list, const struct clear_strategy **out, size_t max, char *err,
                        size_t cap)
{
    char name[32];
    size_t count = 0;
    for (const char *p = list;;) {
        size_t k = 0;
        while (p[k] && p[k] != ',')
            k++;
        hz_snprintf(name, sizeof(name), "%.*s", (int)k, p);
        const struct clear_strategy *s = k < sizeof(name) ? clear_find(name) : NULL;
        if (!s)
            return hz_snprintf(err, cap, "no strategy '%s'", name), -1;
        if (count == max)
            return hz_snprintf(err, cap, "more than %zu strategies", max), -1;
        out[count++] = s;
        if (!p[k])
            return (int)count;
        p += k + 1;
    }
}
