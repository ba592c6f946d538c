/*
 * What the C test programs share: counted checks that print what failed with the library's
 * last error, and the fixture and work folders they are given on the command line. Included
 * by bindings/c/tests/api.c and bindings/train-c/tests/train.c (after the library's header).
 */
#ifndef EVOHARNESS_TESTS_CHECK_H
#define EVOHARNESS_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                                           \
    do {                                                                                      \
        checks++;                                                                             \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s (last error: %s)\n", __FILE__, __LINE__, \
                    #cond, evoharness_last_error_message());                                  \
        }                                                                                     \
    } while (0)

/* A call that must return `want`. */
#define EXPECT(want, call)                                                                    \
    do {                                                                                      \
        evoharness_status got_ = (call);                                                      \
        checks++;                                                                             \
        if (got_ != (want)) {                                                                 \
            failures++;                                                                       \
            fprintf(stderr, "%s:%d: %s returned %u (%s), expected %s; last error: %s\n",      \
                    __FILE__, __LINE__, #call, (unsigned)got_, evoharness_status_message(got_), \
                    #want, evoharness_last_error_message());                                  \
        }                                                                                     \
    } while (0)

#define OK(call) EXPECT(EVOHARNESS_STATUS_OK, call)

/* Whether the last error mentions `needle`. */
static inline int error_mentions(const char *needle) {
    return strstr(evoharness_last_error_message(), needle) != NULL;
}

static char fixtures[1024];
static char work[1024];

static inline const char *fixture(const char *name) {
    static char path[2048];
    snprintf(path, sizeof path, "%s/%s", fixtures, name);
    return path;
}

static inline const char *work_file(const char *name) {
    static char path[2048];
    snprintf(path, sizeof path, "%s/%s", work, name);
    return path;
}

#endif
