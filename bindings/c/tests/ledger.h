/*
 * A small world written by the host in C, through evoharness_world_from_callbacks: three tools
 * (`next` gives the next invoice id, `pay` pays one by id, `audit` says how many are unpaid),
 * 2 + seed % 3 invoices, success is finishing with every invoice paid exactly once. The same
 * world as the Rust one in suite/src/vec_env.rs's tests. Switches make it fail on purpose.
 * Included by bindings/c/tests/api.c (through an agent) and bindings/train-c/tests/train.c
 * (through a VecEnv), after the library's header and check.h.
 */
#ifndef EVOHARNESS_TESTS_LEDGER_H
#define EVOHARNESS_TESTS_LEDGER_H

#include <stdint.h>
#include <string.h>

enum { LEDGER_MAX = 4, LEDGER_FIRST_ID = 100 };
/* What the last event said, for a scripted driver. */
enum { LEDGER_SAW_NOTHING = 0, LEDGER_SAW_ITEM = 1, LEDGER_SAW_DONE = 2 };

struct ledger_state {
    int64_t items, next;
    int32_t paid[LEDGER_MAX];
};

struct ledger {
    struct ledger_state s;
    int last;
    int resets, calls, saves, restores;
    int *dropped;    /* incremented by the drop callback */
    int fail_reset;  /* reset returns this when non-zero */
    int fail_call;   /* call returns this when non-zero */
    int malformed;   /* call writes a key that is too long */
};

static const char *const LEDGER_TOOLS[3] = {"next", "pay", "audit"};

static int32_t ledger_reset(void *user_data, uint64_t seed, evoharness_tool_result *event) {
    struct ledger *l = user_data;
    l->resets++;
    if (l->fail_reset) return l->fail_reset;
    memset(&l->s, 0, sizeof l->s);
    l->s.items = 2 + (int64_t)(seed % 3);
    l->last = LEDGER_SAW_NOTHING;
    return evoharness_tool_result_add_int(event, "items", l->s.items) == EVOHARNESS_STATUS_OK ? 0 : 1;
}

static int32_t ledger_call(void *user_data, const evoharness_tool_call *call,
                           evoharness_tool_result *result) {
    struct ledger *l = user_data;
    l->calls++;
    if (l->fail_call) return l->fail_call;
    if (l->malformed) {
        /* A refused builder call makes the whole event malformed, whatever we return. */
        evoharness_tool_result_add_bool(result, "a_key_longer_than_sixteen_bytes", true);
        return 0;
    }
    l->last = LEDGER_SAW_NOTHING;
    switch (call->tool) {
    case 0:
        if (l->s.next < l->s.items) {
            l->last = LEDGER_SAW_ITEM;
            return evoharness_tool_result_add_int(result, "item", LEDGER_FIRST_ID + l->s.next++);
        }
        l->last = LEDGER_SAW_DONE;
        return evoharness_tool_result_add_bool(result, "done", true);
    case 1: {
        int64_t id = call->arg_count > 0 && call->args[0].kind == EVOHARNESS_VALUE_KIND_INT
                         ? call->args[0].integer
                         : -1;
        if (id < LEDGER_FIRST_ID || id >= LEDGER_FIRST_ID + l->s.items) {
            /* A tool that failed at its job: an error event, and the world goes on. */
            evoharness_tool_result_set_kind(result, EVOHARNESS_EVENT_KIND_ERROR);
            return evoharness_tool_result_add_text(result, "error", "unknown invoice");
        }
        l->s.paid[id - LEDGER_FIRST_ID]++;
        return evoharness_tool_result_add_int(result, "paid", id);
    }
    default: {
        int64_t left = 0;
        for (int64_t i = 0; i < l->s.items; i++) left += l->s.paid[i] == 0;
        return evoharness_tool_result_add_int(result, "left", left);
    }
    }
}

static int32_t ledger_judge(void *user_data, int8_t finished, evoharness_verdict *verdict) {
    struct ledger *l = user_data;
    int all_once = 1;
    uint32_t doubles = 0;
    for (int64_t i = 0; i < l->s.items; i++) {
        all_once &= l->s.paid[i] == 1;
        doubles += l->s.paid[i] > 1;
    }
    verdict->success = finished == 1 && all_once;
    verdict->violations = doubles;
    return 0;
}

static int32_t ledger_save(void *user_data, evoharness_resume_point *point) {
    struct ledger *l = user_data;
    l->saves++;
    return evoharness_resume_point_write(point, (const uint8_t *)&l->s, sizeof l->s) ==
                   EVOHARNESS_STATUS_OK
               ? 0
               : 1;
}

static int32_t ledger_restore(void *user_data, const uint8_t *bytes, size_t len) {
    struct ledger *l = user_data;
    if (len != sizeof l->s) return 1;
    memcpy(&l->s, bytes, len);
    l->restores++;
    return 0;
}

static void ledger_drop(void *user_data) {
    struct ledger *l = user_data;
    if (l->dropped) ++*l->dropped;
}

static const evoharness_world_callbacks LEDGER_CALLBACKS = {
    ledger_reset, ledger_call, ledger_judge, ledger_save, ledger_restore, ledger_drop,
};

/* A ledger world over `l` (zeroed first, with `dropped` kept); NULL on failure. */
static evoharness_world *ledger_world(struct ledger *l, int *dropped) {
    memset(l, 0, sizeof *l);
    l->dropped = dropped;
    evoharness_world *w = NULL;
    if (evoharness_world_from_callbacks(&LEDGER_CALLBACKS, l, LEDGER_TOOLS, 3, &w) !=
        EVOHARNESS_STATUS_OK)
        return NULL;
    return w;
}

#endif
