/*
 * lib/kstring.h - the few C string and memory functions the kernel needs.
 * In hosted builds (HZ_HOSTED: unit tests, tools) this is libc's <string.h>;
 * in the kernel they come from lib/string.c. Semantics are ISO C's.
 */
#ifndef HZ_LIB_KSTRING_H
#define HZ_LIB_KSTRING_H

#include <stddef.h>

#ifdef HZ_HOSTED
#include <string.h>
#else
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
#endif

#endif /* HZ_LIB_KSTRING_H */
