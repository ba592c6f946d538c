/*
 * Drives every function of evoharness.h (libevoharness, the embedding library), with its error
 * paths: NULL pointers, tiny buffers, bad bytes, bad model files, out-of-range values,
 * callbacks that fail or call back in. The suite's functions (libevoharness_train) have their
 * own program, bindings/train-c/tests/train.c. Built with -Wall -Wextra -Wpedantic -Werror and
 * run plain, under AddressSanitizer/UBSan and under valgrind by tests/c_abi.rs.
 *
 *   api FIXTURES_DIR WORK_DIR VERSION
 *
 * FIXTURES_DIR holds the runtime's test policies, WORK_DIR is an empty writable directory for
 * checkpoint files, VERSION the version the library must report. Exits 0 when every check
 * passed; otherwise prints each failed check and exits 1.
 */
#include "evoharness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ledger.h"

static struct evoharness_policy_options tract_options(void) {
    struct evoharness_policy_options o;
    evoharness_policy_options_default(&o);
    o.backend = EVOHARNESS_BACKEND_TRACT;
    return o;
}

static struct evoharness_policy *load(const char *name) {
    struct evoharness_policy_options o = tract_options();
    struct evoharness_policy *p = NULL;
    OK(evoharness_policy_load(fixture(name), &o, &p));
    CHECK(p != NULL);
    return p;
}

/* ---------------------------------------------------------------------------------------- */

static void test_status_and_version(const char *version) {
    CHECK(strcmp(evoharness_version(), version) == 0);
    for (uint32_t s = 0; s <= EVOHARNESS_STATUS_EXPERIENCE_STORE; s++) {
        const char *m = evoharness_status_message(s);
        CHECK(m != NULL && strlen(m) > 0 && strcmp(m, "unknown status") != 0);
        if (s > 0) CHECK(strcmp(m, evoharness_status_message(s - 1)) != 0);
    }
    CHECK(strcmp(evoharness_status_message(EVOHARNESS_STATUS_EXPERIENCE_STORE + 1), "unknown status") == 0);
    CHECK(strcmp(evoharness_status_message(0xffffffffu), "unknown status") == 0);

    /* The last error: set by a failure, its length matches, success leaves it. */
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_config_default(NULL));
    CHECK(error_mentions("`out` is NULL"));
    CHECK(evoharness_last_error_length() == strlen(evoharness_last_error_message()));
    struct evoharness_workspace_config c;
    OK(evoharness_workspace_config_default(&c));
    CHECK(error_mentions("`out` is NULL"));
}

/* ---------------------------------------------------------------------------------------- */

/* Frames written by hand from core/PROTOCOL.md (section 10 has the first two). */
static const uint8_t TRACK_SET[] = {0x01, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00,
                                    0x01, 0x00, 0x00, 0x00, 0x80, 0x3f};
static const uint8_t EVENT_429[] = {0x01, 0x07, 0x02, 0x01, 0x02, 0x01, 0x04,
                                    'c',  'o',  'd',  'e',  0x01, 0xda, 0x06};
/* Act { tool: 0, args: [] }, seq 2. */
static const uint8_t ACT_0[] = {0x01, 0x02, 0x00, 0x00, 0x00, 0x00};
/* Act { tool: 9 }: no such tool in a 3-tool workspace. */
static const uint8_t ACT_9[] = {0x01, 0x02, 0x00, 0x00, 0x09, 0x00};
/* Commit::Plan { label: Lit(Text "a") }, seq 4. */
static const uint8_t PLAN_A[] = {0x01, 0x04, 0x00, 0x02, 0x00, 0x00, 0x03, 0x01, 'a'};
/* Note::Add { trigger: Lit(Text "E1"), remedy: Lit(Int 3) }, seq 5. */
static const uint8_t NOTE[] = {0x01, 0x05, 0x00, 0x04, 0x00, 0x00, 0x03,
                               0x02, 'E',  '1',  0x00, 0x01, 0x06};
/* Finish { success: true }, seq 3. */
static const uint8_t FINISH[] = {0x01, 0x03, 0x00, 0x05, 0x01};

static void test_workspace(void) {
    struct evoharness_workspace_config config;
    OK(evoharness_workspace_config_default(&config));
    CHECK(config.capacities.facts == 16 && config.capacities.tools == 8 && config.budget == 1000);
    CHECK(config.costs.act == 1 && config.costs.finish == 0);
    config.capacities.tools = 3;
    config.budget = 50;

    struct evoharness_workspace *ws = NULL;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_new(NULL, &ws));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_new(&config, NULL));
    struct evoharness_workspace_config bad = config;
    bad.capacities.facts = 0;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_workspace_new(&bad, &ws));
    bad = config;
    bad.capacities.tools = 65;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_workspace_new(&bad, &ws));
    CHECK(ws == NULL);
    OK(evoharness_workspace_new(&config, &ws));
    CHECK(ws != NULL);

    struct evoharness_workspace_info info;
    OK(evoharness_workspace_get_info(ws, &info));
    CHECK(info.budget == 50 && info.spent == 0 && info.remaining == 50 && info.finished == -1);
    CHECK(info.facts == 0 && !info.has_event && info.last_act == -1);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_get_info(NULL, &info));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_get_info(ws, NULL));

    struct evoharness_event event;
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_workspace_event(ws, &event));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_event(NULL, &event));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_event(ws, NULL));

    /* Observe: an event frame; errors for bytes that are not one. */
    OK(evoharness_workspace_observe(ws, EVENT_429, sizeof EVENT_429));
    EXPECT(EVOHARNESS_STATUS_DECODE, evoharness_workspace_observe(ws, EVENT_429, 5));
    EXPECT(EVOHARNESS_STATUS_DECODE, evoharness_workspace_observe(ws, NULL, 0));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_workspace_observe(ws, TRACK_SET, sizeof TRACK_SET));
    CHECK(error_mentions("not an event"));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_observe(NULL, EVENT_429, 14));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_observe(ws, NULL, 3));
    OK(evoharness_workspace_event(ws, &event));
    CHECK(event.kind == EVOHARNESS_EVENT_KIND_ERROR && event.source == 2);
    CHECK(event.field_count == 1 && strcmp(event.fields[0].key, "code") == 0);
    CHECK(event.fields[0].value.kind == EVOHARNESS_VALUE_KIND_INT);
    CHECK(event.fields[0].value.integer == 429);

    /* Apply: the outcome frame, applied or refused. */
    uint8_t out[EVOHARNESS_FRAME_MAX];
    size_t n = 0;
    bool applied = false;
    OK(evoharness_workspace_apply(ws, TRACK_SET, sizeof TRACK_SET, out, sizeof out, &n, &applied));
    /* Outcome, Ok, Tracked { slot 0, Created }, seq 1. */
    static const uint8_t TRACKED[] = {0x01, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00};
    CHECK(applied && n == sizeof TRACKED && memcmp(out, TRACKED, n) == 0);
    /* The same again: refused (KeyExists, index 8), nothing spent. */
    OK(evoharness_workspace_apply(ws, TRACK_SET, sizeof TRACK_SET, out, sizeof out, &n, &applied));
    static const uint8_t KEY_EXISTS[] = {0x01, 0x01, 0x01, 0x01, 0x08};
    CHECK(!applied && n == sizeof KEY_EXISTS && memcmp(out, KEY_EXISTS, n) == 0);
    OK(evoharness_workspace_apply(ws, ACT_9, sizeof ACT_9, out, sizeof out, &n, &applied));
    CHECK(!applied);
    OK(evoharness_workspace_apply(ws, ACT_0, sizeof ACT_0, out, sizeof out, &n, &applied));
    /* Outcome, Ok, Call { tool 0, no args }, seq 2. */
    static const uint8_t CALL_0[] = {0x01, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00};
    CHECK(applied && n == sizeof CALL_0 && memcmp(out, CALL_0, n) == 0);
    OK(evoharness_workspace_apply(ws, PLAN_A, sizeof PLAN_A, out, sizeof out, &n, &applied));
    CHECK(applied);
    OK(evoharness_workspace_apply(ws, NOTE, sizeof NOTE, out, sizeof out, &n, &applied));
    CHECK(applied);
    /* Errors change nothing and write nothing. */
    n = 12345;
    applied = true;
    EXPECT(EVOHARNESS_STATUS_BUFFER_TOO_SMALL,
           evoharness_workspace_apply(ws, FINISH, sizeof FINISH, out, EVOHARNESS_FRAME_MAX - 1,
                                      &n, &applied));
    EXPECT(EVOHARNESS_STATUS_DECODE,
           evoharness_workspace_apply(ws, FINISH, 3, out, sizeof out, &n, &applied));
    static const uint8_t VERSION_2[] = {0x02, 0x03, 0x00, 0x05, 0x01};
    EXPECT(EVOHARNESS_STATUS_DECODE, evoharness_workspace_apply(ws, VERSION_2, sizeof VERSION_2,
                                                                 out, sizeof out, &n, &applied));
    CHECK(error_mentions("version 2"));
    uint8_t trailing[sizeof FINISH + 1];
    memcpy(trailing, FINISH, sizeof FINISH);
    trailing[sizeof FINISH] = 0;
    EXPECT(EVOHARNESS_STATUS_DECODE,
           evoharness_workspace_apply(ws, trailing, sizeof trailing, out, sizeof out, &n, &applied));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_workspace_apply(ws, EVENT_429, sizeof EVENT_429, out, sizeof out, &n,
                                      &applied));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_workspace_apply(NULL, FINISH, sizeof FINISH, out, sizeof out, &n, &applied));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_workspace_apply(ws, NULL, 5, out, sizeof out, &n, &applied));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_workspace_apply(ws, FINISH, sizeof FINISH, NULL, sizeof out, &n, &applied));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_workspace_apply(ws, FINISH, sizeof FINISH, out, sizeof out, NULL, &applied));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT,
           evoharness_workspace_apply(ws, FINISH, sizeof FINISH, out, sizeof out, &n, NULL));
    CHECK(n == 12345 && applied);

    OK(evoharness_workspace_get_info(ws, &info));
    CHECK(info.facts == 1 && info.plan_steps == 1 && info.lessons == 1 && info.spent == 4);
    CHECK(info.has_event && info.last_act == 0 && info.clock == 4);

    /* Entries. */
    struct evoharness_fact fact;
    OK(evoharness_workspace_fact(ws, 0, &fact));
    CHECK(strcmp(fact.key, "code") == 0 && fact.value.integer == 429 && fact.confidence == 1.0f);
    CHECK(fact.provenance == EVOHARNESS_PROVENANCE_EVENT && fact.source == 2 && fact.set_at == 1);
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_workspace_fact(ws, 1, &fact));
    CHECK(error_mentions("there are 1"));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_fact(NULL, 0, &fact));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_fact(ws, 0, NULL));
    struct evoharness_plan_step step;
    OK(evoharness_workspace_plan_step(ws, 0, &step));
    CHECK(step.label.kind == EVOHARNESS_VALUE_KIND_TEXT && step.label.len == 1);
    CHECK(strcmp((const char *)step.label.data, "a") == 0);
    CHECK(step.status == EVOHARNESS_STEP_STATUS_PENDING && !step.has_cursor && !step.has_last_error);
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_workspace_plan_step(ws, 1, &step));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_plan_step(NULL, 0, &step));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_plan_step(ws, 0, NULL));
    struct evoharness_lesson lesson;
    OK(evoharness_workspace_lesson(ws, 0, &lesson));
    CHECK(strcmp((const char *)lesson.trigger.data, "E1") == 0);
    CHECK(lesson.remedy.kind == EVOHARNESS_VALUE_KIND_INT && lesson.remedy.integer == 3);
    CHECK(lesson.noted == 1 && !lesson.recalled);
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_workspace_lesson(ws, 1, &lesson));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_lesson(NULL, 0, &lesson));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_lesson(ws, 0, NULL));

    /* Formatting values. */
    char text[256];
    size_t len = 0;
    OK(evoharness_value_format(&fact.value, text, sizeof text, &len));
    CHECK(strcmp(text, "429") == 0 && len == 3);
    OK(evoharness_value_format(&step.label, text, sizeof text, &len));
    CHECK(strcmp(text, "\"a\"") == 0 && len == 3);
    len = 77;
    EXPECT(EVOHARNESS_STATUS_BUFFER_TOO_SMALL, evoharness_value_format(&fact.value, text, 3, &len));
    CHECK(len == 77);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_value_format(NULL, text, 4, &len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_value_format(&fact.value, NULL, 4, &len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_value_format(&fact.value, text, 4, NULL));
    struct evoharness_value v = fact.value;
    memset(&v, 0, sizeof v);
    v.kind = EVOHARNESS_VALUE_KIND_BOOL;
    v.boolean = true;
    OK(evoharness_value_format(&v, text, sizeof text, &len));
    CHECK(strcmp(text, "true") == 0);
    v.kind = EVOHARNESS_VALUE_KIND_FLOAT;
    v.number = 0.25;
    OK(evoharness_value_format(&v, text, sizeof text, &len));
    CHECK(strcmp(text, "0.25") == 0);
    v.kind = EVOHARNESS_VALUE_KIND_BYTES;
    v.len = 2;
    v.data[0] = 0x0a;
    v.data[1] = 0xff;
    OK(evoharness_value_format(&v, text, sizeof text, &len));
    CHECK(strcmp(text, "0x0aff") == 0);
    v.len = EVOHARNESS_TEXT_MAX + 1;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_value_format(&v, text, sizeof text, &len));
    v.kind = EVOHARNESS_VALUE_KIND_TEXT;
    v.len = 1;
    v.data[0] = 0xff; /* not UTF-8 */
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_value_format(&v, text, sizeof text, &len));
    /* A kind byte that is no kind. */
    uint8_t raw[sizeof(struct evoharness_value)];
    memcpy(raw, &v, sizeof raw);
    raw[0] = 9;
    memcpy(&v, raw, sizeof raw);
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_value_format(&v, text, sizeof text, &len));

    /* Snapshots: round trip, tiny buffers, bad bytes. */
    size_t max = 0;
    OK(evoharness_workspace_snapshot_max_len(ws, &max));
    CHECK(max > 0);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_snapshot_max_len(NULL, &max));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_snapshot_max_len(ws, NULL));
    uint8_t *snap = malloc(max);
    uint8_t *again = malloc(max);
    size_t snap_len = 0, again_len = 0;
    OK(evoharness_workspace_snapshot(ws, snap, max, &snap_len));
    CHECK(snap_len > 10 && snap_len <= max && memcmp(snap, "EVHW", 4) == 0);
    size_t keep = 999;
    EXPECT(EVOHARNESS_STATUS_BUFFER_TOO_SMALL, evoharness_workspace_snapshot(ws, again, 8, &keep));
    CHECK(keep == 999);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_snapshot(NULL, again, max, &keep));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_snapshot(ws, NULL, max, &keep));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_snapshot(ws, again, max, NULL));

    OK(evoharness_workspace_reset_task(ws));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_reset_task(NULL));
    OK(evoharness_workspace_get_info(ws, &info));
    CHECK(info.facts == 0 && info.plan_steps == 0 && info.lessons == 1 && !info.has_event);

    uint8_t *broken = malloc(snap_len);
    memcpy(broken, snap, snap_len);
    broken[snap_len / 2] ^= 0x40;
    EXPECT(EVOHARNESS_STATUS_SNAPSHOT, evoharness_workspace_restore(ws, broken, snap_len));
    CHECK(error_mentions("checksum"));
    EXPECT(EVOHARNESS_STATUS_SNAPSHOT, evoharness_workspace_restore(ws, snap, snap_len - 1));
    EXPECT(EVOHARNESS_STATUS_SNAPSHOT, evoharness_workspace_restore(ws, snap, 3));
    EXPECT(EVOHARNESS_STATUS_SNAPSHOT, evoharness_workspace_restore(ws, NULL, 0));
    EXPECT(EVOHARNESS_STATUS_SNAPSHOT, evoharness_workspace_restore(ws, (const uint8_t *)"garbage!!!!!!!!", 15));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_restore(NULL, snap, snap_len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_workspace_restore(ws, NULL, snap_len));
    OK(evoharness_workspace_get_info(ws, &info));
    CHECK(info.facts == 0); /* refused restores changed nothing */
    OK(evoharness_workspace_restore(ws, snap, snap_len));
    OK(evoharness_workspace_snapshot(ws, again, max, &again_len));
    CHECK(again_len == snap_len && memcmp(snap, again, snap_len) == 0);

    /* A snapshot of other capacities is refused. */
    struct evoharness_workspace *other = NULL;
    struct evoharness_workspace_config oc = config;
    oc.capacities.facts = 4;
    OK(evoharness_workspace_new(&oc, &other));
    EXPECT(EVOHARNESS_STATUS_SNAPSHOT, evoharness_workspace_restore(other, snap, snap_len));
    CHECK(error_mentions("capacities"));
    evoharness_workspace_free(other);

    /* Finish, and every action after it is refused. */
    OK(evoharness_workspace_apply(ws, FINISH, sizeof FINISH, out, sizeof out, &n, &applied));
    CHECK(applied);
    OK(evoharness_workspace_get_info(ws, &info));
    CHECK(info.finished == 1);
    OK(evoharness_workspace_apply(ws, ACT_0, sizeof ACT_0, out, sizeof out, &n, &applied));
    CHECK(!applied);

    free(snap);
    free(again);
    free(broken);
    evoharness_workspace_free(ws);
    evoharness_workspace_free(NULL);
}

/* ---------------------------------------------------------------------------------------- */

static void test_policy(void) {
    struct evoharness_policy_options o;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_options_default(NULL));
    OK(evoharness_policy_options_default(&o));
    CHECK(o.backend == EVOHARNESS_BACKEND_AUTO && o.device == EVOHARNESS_DEVICE_CPU);
    CHECK(o.ort_library == NULL && o.threads == 0 && !o.cpu_fallback);

    struct evoharness_policy *p = NULL;
    o = tract_options();
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_load(NULL, &o, &p));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_load(fixture("mlp.onnx"), NULL, &p));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_load(fixture("mlp.onnx"), &o, NULL));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_policy_load("", &o, &p));
    struct evoharness_policy_options bad = o;
    bad.backend = 7;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_policy_load(fixture("mlp.onnx"), &bad, &p));
    bad = o;
    bad.device = 3;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_policy_load(fixture("mlp.onnx"), &bad, &p));

    /* Limits: the defaults are written; one set too low refuses the file and names it; 0
     * means the default. */
    CHECK(o.limits.max_file_bytes == 256u << 20 && o.limits.max_nodes == 100000);
    CHECK(o.limits.max_tensor_elements == 1u << 26 && o.limits.max_constant_bytes == 256u << 20);
    bad = o;
    bad.limits.max_nodes = 2;
    EXPECT(EVOHARNESS_STATUS_POLICY, evoharness_policy_load(fixture("mlp.onnx"), &bad, &p));
    CHECK(error_mentions("more than 2 nodes"));
    bad = o;
    bad.limits.max_file_bytes = 1000;
    EXPECT(EVOHARNESS_STATUS_POLICY, evoharness_policy_load(fixture("mlp.onnx"), &bad, &p));
    CHECK(error_mentions("a policy file may have"));
    bad = o;
    bad.limits.max_nodes = 0;
    bad.limits.max_file_bytes = 0;
    OK(evoharness_policy_load(fixture("mlp.onnx"), &bad, &p));
    evoharness_policy_free(p);
    p = NULL;

    /* Bad model files, each with a precise message. */
    EXPECT(EVOHARNESS_STATUS_IO, evoharness_policy_load(fixture("missing.onnx"), &o, &p));
    CHECK(error_mentions("missing.onnx"));
    EXPECT(EVOHARNESS_STATUS_POLICY, evoharness_policy_load(fixture("truncated.onnx"), &o, &p));
    CHECK(error_mentions("not a valid ONNX model"));
    EXPECT(EVOHARNESS_STATUS_POLICY, evoharness_policy_load(fixture("wrong_abi.onnx"), &o, &p));
    CHECK(error_mentions("generative-v1"));
    EXPECT(EVOHARNESS_STATUS_POLICY, evoharness_policy_load(fixture("no_metadata.onnx"), &o, &p));
    CHECK(error_mentions("no evoharness.abi metadata"));
    EXPECT(EVOHARNESS_STATUS_POLICY, evoharness_policy_load(fixture("bad_obs_size.onnx"), &o, &p));
    EXPECT(EVOHARNESS_STATUS_POLICY,
           evoharness_policy_load(fixture("mismatched_layout.onnx"), &o, &p));
    CHECK(error_mentions("observation floats"));
    CHECK(p == NULL);

    /* From memory: a file's bytes; garbage; nothing. */
    FILE *f = fopen(fixture("mlp.onnx"), "rb");
    CHECK(f != NULL);
    uint8_t *bytes = malloc(1 << 20);
    size_t len = f ? fread(bytes, 1, 1 << 20, f) : 0;
    if (f) fclose(f);
    CHECK(len > 1000);
    EXPECT(EVOHARNESS_STATUS_POLICY, evoharness_policy_load_from_memory(bytes, len / 3, &o, &p));
    EXPECT(EVOHARNESS_STATUS_POLICY, evoharness_policy_load_from_memory(NULL, 0, &o, &p));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_load_from_memory(NULL, 10, &o, &p));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_load_from_memory(bytes, len, NULL, &p));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_load_from_memory(bytes, len, &o, NULL));
    OK(evoharness_policy_load_from_memory(bytes, len, &o, &p));
    free(bytes);

    struct evoharness_policy_abi abi;
    OK(evoharness_policy_get_abi(p, &abi));
    CHECK(strcmp(abi.abi, "structured-v1") == 0 && abi.layout_version == 1);
    CHECK(abi.capacities.facts == 16 && abi.capacities.steps == 8 && abi.capacities.lessons == 4);
    CHECK(abi.capacities.tools == 3 && abi.obs_len > 0 && abi.actions > 0);
    CHECK(!abi.recurrent && abi.state_len == 0 && abi.has_value && abi.tool_names == 3);
    CHECK(abi.backend == EVOHARNESS_BACKEND_TRACT && abi.device == EVOHARNESS_DEVICE_CPU);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_get_abi(NULL, &abi));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_get_abi(p, NULL));

    char name[16];
    size_t name_len = 0;
    OK(evoharness_policy_tool_name(p, 2, name, sizeof name, &name_len));
    CHECK(strcmp(name, "verify") == 0 && name_len == 6);
    EXPECT(EVOHARNESS_STATUS_BUFFER_TOO_SMALL, evoharness_policy_tool_name(p, 2, name, 6, &name_len));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_policy_tool_name(p, 3, name, sizeof name, &name_len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_tool_name(NULL, 0, name, 16, &name_len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_tool_name(p, 0, NULL, 16, &name_len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_policy_tool_name(p, 0, name, 16, NULL));
    evoharness_policy_free(p);
    evoharness_policy_free(NULL);

    /* The recurrent fixture; the suite's, which names no tools. */
    p = load("recurrent.onnx");
    OK(evoharness_policy_get_abi(p, &abi));
    CHECK(abi.recurrent && abi.state_len == 8 && !abi.has_value);
    evoharness_policy_free(p);
    p = load("suite_mlp.onnx");
    OK(evoharness_policy_get_abi(p, &abi));
    CHECK(abi.capacities.tools == 8 && abi.tool_names == 0);
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_policy_tool_name(p, 0, name, sizeof name, &name_len));
    evoharness_policy_free(p);

    /* The process already runs tract: another backend is refused, said plainly. */
    bad = o;
    bad.backend = EVOHARNESS_BACKEND_ONNXRUNTIME;
    EXPECT(EVOHARNESS_STATUS_BACKEND, evoharness_policy_load(fixture("mlp.onnx"), &bad, &p));
    CHECK(error_mentions("already uses the tract backend"));
    /* A GPU on tract: an error, or the CPU when fallback is allowed. */
    bad = o;
    bad.device = EVOHARNESS_DEVICE_CUDA;
    EXPECT(EVOHARNESS_STATUS_DEVICE, evoharness_policy_load(fixture("mlp.onnx"), &bad, &p));
    bad.cpu_fallback = true;
    bad.threads = 2;
    OK(evoharness_policy_load(fixture("mlp.onnx"), &bad, &p));
    OK(evoharness_policy_get_abi(p, &abi));
    CHECK(abi.device == EVOHARNESS_DEVICE_CPU);
    evoharness_policy_free(p);
}

/* ---------------------------------------------------------------------------------------- */

struct host {
    struct evoharness_agent *agent;
    int calls[8];
    int reentry_checked;
    int log_records;
    int trace_records;
    uint64_t last_trace_step;
    int json_ok;
};

/* copy: a result with the call's argument count and a few typed fields. Stateless, so a
 * resumed agent sees the same results. */
static int32_t tool_copy(void *user_data, const struct evoharness_tool_call *call,
                         struct evoharness_tool_result *result) {
    struct host *h = user_data;
    h->calls[call->tool]++;
    if (strcmp(call->name, "copy") != 0 || call->tool != 0) return 99;
    if (evoharness_tool_result_add_int(result, "args", (int64_t)call->arg_count) != 0) return 98;
    if (evoharness_tool_result_add_bool(result, "ok", true) != 0) return 97;
    if (evoharness_tool_result_add_float(result, "rate", 0.5) != 0) return 96;
    return 0;
}

/* wait: always reports that it failed; the agent sees {error: tool_failed, code: 7}. */
static int32_t tool_wait(void *user_data, const struct evoharness_tool_call *call,
                         struct evoharness_tool_result *result) {
    struct host *h = user_data;
    (void)result;
    h->calls[call->tool]++;
    return 7;
}

/* verify: an error event built with the text and bytes adders. Stateless. */
static int32_t tool_verify(void *user_data, const struct evoharness_tool_call *call,
                           struct evoharness_tool_result *result) {
    struct host *h = user_data;
    h->calls[call->tool]++;
    OK(evoharness_tool_result_set_kind(result, EVOHARNESS_EVENT_KIND_ERROR));
    OK(evoharness_tool_result_add_text(result, "error", "mismatch"));
    const uint8_t digest[2] = {0xde, 0xad};
    OK(evoharness_tool_result_add_bytes(result, "digest", digest, sizeof digest));
    OK(evoharness_tool_result_add_bytes(result, "empty", NULL, 0));
    return 0;
}

/* Registered for every tool of one agent: calls back into the agent (refused, not undefined)
 * and misuses the result every way (each refused), once. */
static int32_t tool_checks(void *user_data, const struct evoharness_tool_call *call,
                           struct evoharness_tool_result *result) {
    struct host *h = user_data;
    h->calls[call->tool]++;
    if (h->reentry_checked) return 0;
    h->reentry_checked = 1;
    struct evoharness_step_report r;
    struct evoharness_summary s;
    char buf[8];
    size_t len;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_agent_step(h->agent, &r));
    CHECK(error_mentions("one of its own callbacks"));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_agent_run(h->agent, 1, &s));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_agent_tool_name(h->agent, 0, buf, sizeof buf, &len));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_agent_register_tool(h->agent, "copy", NULL, NULL));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_agent_set_trace(h->agent, NULL, NULL));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_agent_checkpoint(h->agent, work_file("never.ckpt")));
    /* The agent's workspace may be lent here, but not read while the agent steps. */
    const struct evoharness_workspace *ws = NULL;
    OK(evoharness_agent_workspace(h->agent, &ws));
    CHECK(ws != NULL);
    struct evoharness_workspace_info info;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_workspace_get_info(ws, &info));
    CHECK(error_mentions("one of its own callbacks"));
    struct evoharness_fact fact;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_workspace_fact(ws, 0, &fact));
    size_t max = 7;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_workspace_snapshot_max_len(ws, &max));
    CHECK(max == 7);
    struct evoharness_verdict verdict;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_agent_verdict(h->agent, &verdict));
    evoharness_agent_free(h->agent); /* refused: the agent is in use */
    CHECK(error_mentions("evoharness_agent_free"));

    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_tool_result_set_kind(result, 3));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_tool_result_set_kind(NULL, 1));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_tool_result_add_int(result, "a_key_that_is_too_long", 1));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_tool_result_add_int(result, "\xff", 1));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_tool_result_add_int(result, NULL, 1));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_tool_result_add_int(NULL, "k", 1));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_tool_result_add_bool(NULL, "k", 1));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_tool_result_add_float(NULL, "k", 1));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_tool_result_add_text(result, "t", "a text that is longer than 32 bytes"));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_tool_result_add_text(result, "t", NULL));
    uint8_t big[EVOHARNESS_TEXT_MAX + 1] = {0};
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_tool_result_add_bytes(result, "b", big, sizeof big));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_tool_result_add_bytes(result, "b", NULL, 2));
    EXPECT(EVOHARNESS_STATUS_DECODE, evoharness_tool_result_set_frame(result, EVENT_429, 4));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_tool_result_set_frame(result, FINISH, sizeof FINISH));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_tool_result_set_frame(NULL, FINISH, 5));
    /* A whole event from a frame (one field), then seven more fields: eight fit, a ninth not. */
    OK(evoharness_tool_result_set_frame(result, EVENT_429, sizeof EVENT_429));
    for (int i = 0; i < 7; i++) OK(evoharness_tool_result_add_int(result, "n", i));
    EXPECT(EVOHARNESS_STATUS_BUFFER_TOO_SMALL, evoharness_tool_result_add_int(result, "n", 8));
    return 0;
}

static void on_trace(void *user_data, const struct evoharness_trace_record *r) {
    struct host *h = user_data;
    h->trace_records++;
    h->last_trace_step = r->step;
    if (r->json != NULL && strlen(r->json) == r->json_len && strncmp(r->json, "{\"step\":", 8) == 0)
        h->json_ok++;
}

static void on_log(void *user_data, uint32_t level, const char *target, const char *message) {
    struct host *h = user_data;
    if (level >= EVOHARNESS_LOG_LEVEL_ERROR && level <= EVOHARNESS_LOG_LEVEL_TRACE && target &&
        message && strlen(message) > 0)
        h->log_records++;
}

/* Steps `n` times; writes the chosen templates to `out`. */
static int steps(struct evoharness_agent *a, int n, uint32_t *out) {
    int taken = 0;
    for (int i = 0; i < n; i++) {
        struct evoharness_step_report r;
        OK(evoharness_agent_step(a, &r));
        if (!r.taken) break;
        out[taken++] = r.template_index;
    }
    return taken;
}

static void register_tools(struct evoharness_agent *a, struct host *h) {
    OK(evoharness_agent_register_tool(a, "copy", tool_copy, h));
    OK(evoharness_agent_register_tool(a, "wait", tool_wait, h));
    OK(evoharness_agent_register_tool(a, "verify", tool_verify, h));
}

static void test_agent(void) {
    struct evoharness_agent_config config;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_config_default(NULL));
    OK(evoharness_agent_config_default(&config));
    CHECK(config.budget == 1000 && config.temperature == 0.0f && config.seed == 0);
    CHECK(config.costs.act == 1 && config.costs.finish == 0);
    config.temperature = 1.0f;
    config.seed = 11;
    config.budget = 300;

    struct evoharness_policy *p = load("mlp.onnx");
    struct evoharness_agent *a = NULL;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_new(NULL, NULL, &config, &a));
    struct evoharness_policy *none = NULL;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_new(&none, NULL, &config, &a));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_new(&p, NULL, NULL, &a));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_new(&p, NULL, &config, NULL));
    /* A world argument that points at no world is refused (NULL itself means none). */
    struct evoharness_world *no_world = NULL;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_new(&p, &no_world, &config, &a));
    CHECK(error_mentions("*world"));
    struct evoharness_agent_config bad = config;
    bad.temperature = -1.0f;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_agent_new(&p, NULL, &bad, &a));
    bad.temperature = NAN;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_agent_new(&p, NULL, &bad, &a));
    CHECK(p != NULL && a == NULL); /* refused: the policy stays ours */
    evoharness_world_free(NULL);

    OK(evoharness_agent_new(&p, NULL, &config, &a));
    CHECK(p == NULL && a != NULL); /* the agent owns the policy now */

    char name[16];
    size_t name_len;
    OK(evoharness_agent_tool_name(a, 1, name, sizeof name, &name_len));
    CHECK(strcmp(name, "wait") == 0 && name_len == 4);
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_agent_tool_name(a, 3, name, sizeof name, &name_len));
    EXPECT(EVOHARNESS_STATUS_BUFFER_TOO_SMALL, evoharness_agent_tool_name(a, 1, name, 4, &name_len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_tool_name(NULL, 1, name, 16, &name_len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_tool_name(a, 1, NULL, 16, &name_len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_tool_name(a, 1, name, 16, NULL));

    /* Unserved tools: error events, and a warning in the log for each call. */
    struct host h;
    memset(&h, 0, sizeof h);
    h.agent = a;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_set_log_callback(on_log, &h, 6));
    OK(evoharness_set_log_callback(on_log, &h, EVOHARNESS_LOG_LEVEL_WARN));
    struct evoharness_summary s;
    OK(evoharness_agent_run(a, 40, &s));
    CHECK(s.steps > 0 && s.world_actions > 0);
    CHECK(h.log_records == (int)s.world_actions);
    OK(evoharness_set_log_callback(NULL, NULL, EVOHARNESS_LOG_LEVEL_TRACE));
    int before = h.log_records;
    OK(evoharness_agent_run(a, 20, &s));
    CHECK(h.log_records == before);

    /* A task from the start, with host tools and a trace. */
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_start_task(NULL, 1));
    OK(evoharness_agent_start_task(a, 11));
    OK(evoharness_agent_run(a, 0, &s));
    CHECK(s.steps == 0 && s.spent == 0 && s.finished == -1);
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_agent_register_tool(a, "nope", tool_copy, &h));
    CHECK(error_mentions("copy, wait, verify"));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_register_tool(NULL, "copy", tool_copy, &h));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_register_tool(a, NULL, tool_copy, &h));
    register_tools(a, &h);
    OK(evoharness_agent_register_tool(a, "copy", NULL, NULL)); /* removed, then back */
    OK(evoharness_agent_register_tool(a, "copy", tool_copy, &h));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_set_trace(NULL, on_trace, &h));
    OK(evoharness_agent_set_trace(a, on_trace, &h));

    uint32_t first[64];
    int taken = steps(a, 30, first);
    CHECK(taken > 0);
    CHECK(h.trace_records == taken && h.json_ok == taken && h.last_trace_step == (uint64_t)taken);
    CHECK(h.calls[0] + h.calls[1] + h.calls[2] > 0);
    OK(evoharness_agent_set_trace(a, NULL, NULL));

    /* Another agent whose tools call back into it and misuse their results. */
    struct evoharness_policy *pc = load("mlp.onnx");
    struct evoharness_agent *c = NULL;
    OK(evoharness_agent_new(&pc, NULL, &config, &c));
    struct host hc;
    memset(&hc, 0, sizeof hc);
    hc.agent = c;
    OK(evoharness_agent_register_tool(c, "copy", tool_checks, &hc));
    OK(evoharness_agent_register_tool(c, "wait", tool_checks, &hc));
    OK(evoharness_agent_register_tool(c, "verify", tool_checks, &hc));
    OK(evoharness_agent_run(c, 200, &s));
    CHECK(hc.reentry_checked == 1);
    evoharness_agent_free(c);

    struct evoharness_step_report r;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_step(NULL, &r));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_step(a, NULL));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_run(NULL, 1, &s));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_run(a, 1, NULL));

    /* The lent workspace reads like any other, and is always the same; it cannot be changed
     * or freed through the handle (the casts below are what the const forbids). */
    const struct evoharness_workspace *ws = NULL, *again = NULL;
    OK(evoharness_agent_workspace(a, &ws));
    OK(evoharness_agent_workspace(a, &again));
    CHECK(ws != NULL && ws == again);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_workspace(NULL, &again));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_workspace(a, NULL));
    struct evoharness_workspace_info info;
    OK(evoharness_workspace_get_info(ws, &info));
    CHECK(info.capacities.tools == 3 && info.budget == 300 && info.spent > 0);
    struct evoharness_event ev;
    OK(evoharness_workspace_event(ws, &ev));
    size_t max = 0;
    OK(evoharness_workspace_snapshot_max_len(ws, &max));
    CHECK(max > 0);
    struct evoharness_workspace *lent = (struct evoharness_workspace *)(uintptr_t)ws;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_workspace_reset_task(lent));
    CHECK(error_mentions("may be read, not changed"));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_workspace_observe(lent, EVENT_429, sizeof EVENT_429));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_workspace_restore(lent, NULL, 0));
    uint8_t frame[EVOHARNESS_FRAME_MAX];
    size_t frame_len;
    bool applied;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_workspace_apply(lent, FINISH, sizeof FINISH, frame, sizeof frame,
                                      &frame_len, &applied));
    evoharness_workspace_free(lent); /* refused: it is the agent's */
    CHECK(error_mentions("free the agent instead"));
    OK(evoharness_workspace_get_info(ws, &info));

    /* Checkpoint, go on; resume from the checkpoint and go on the same way. */
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_checkpoint(NULL, work_file("a.ckpt")));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_checkpoint(a, NULL));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_agent_checkpoint(a, ""));
    EXPECT(EVOHARNESS_STATUS_IO, evoharness_agent_checkpoint(a, work_file("no/such/dir/a.ckpt")));
    /* A task that runs long enough (a random policy may finish at any step). */
    uint64_t seed = 100;
    for (; seed < 200; seed++) {
        OK(evoharness_agent_start_task(a, seed));
        if (steps(a, 30, first) == 30) break;
    }
    CHECK(seed < 200);
    OK(evoharness_agent_checkpoint(a, work_file("a.ckpt")));
    uint32_t after[64];
    int n_after = steps(a, 20, after);
    CHECK(n_after > 0);
    struct evoharness_summary sa;
    OK(evoharness_agent_run(a, 0, &sa));

    struct evoharness_agent *b = NULL;
    p = load("mlp.onnx");
    EXPECT(EVOHARNESS_STATUS_IO, evoharness_agent_resume(&p, NULL, &config, work_file("missing.ckpt"), &b));
    CHECK(p != NULL);
    FILE *junk = fopen(work_file("junk.ckpt"), "wb");
    if (junk) {
        fputs("this is not a checkpoint", junk);
        fclose(junk);
    }
    struct evoharness_policy *same = p;
    EXPECT(EVOHARNESS_STATUS_CHECKPOINT,
           evoharness_agent_resume(&p, NULL, &config, work_file("junk.ckpt"), &b));
    CHECK(error_mentions("junk.ckpt") && p == same); /* the very handle, given back */
    bad = config;
    bad.budget = 301;
    EXPECT(EVOHARNESS_STATUS_CHECKPOINT, evoharness_agent_resume(&p, NULL, &bad, work_file("a.ckpt"), &b));
    CHECK(error_mentions("budget") && p != NULL);
    bad = config;
    bad.temperature = -2.0f;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_agent_resume(&p, NULL, &bad, work_file("a.ckpt"), &b));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_resume(NULL, NULL, &config, work_file("a.ckpt"), &b));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_resume(&p, NULL, NULL, work_file("a.ckpt"), &b));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_resume(&p, NULL, &config, NULL, &b));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_resume(&p, NULL, &config, work_file("a.ckpt"), NULL));
    struct evoharness_policy *other = load("recurrent.onnx");
    EXPECT(EVOHARNESS_STATUS_CHECKPOINT,
           evoharness_agent_resume(&other, NULL, &config, work_file("a.ckpt"), &b));
    CHECK(error_mentions("another policy") && other != NULL);
    evoharness_policy_free(other);

    OK(evoharness_agent_resume(&p, NULL, &config, work_file("a.ckpt"), &b));
    CHECK(p == NULL && b != NULL);
    struct host hb;
    memset(&hb, 0, sizeof hb);
    hb.agent = b;
    register_tools(b, &hb);
    uint32_t resumed[64];
    int n_resumed = steps(b, 20, resumed);
    CHECK(n_resumed == n_after);
    CHECK(memcmp(after, resumed, sizeof(uint32_t) * (size_t)n_after) == 0);
    OK(evoharness_agent_run(b, 0, &s));
    CHECK(s.steps == sa.steps && s.spent == sa.spent && s.finished == sa.finished);
    CHECK(s.world_actions == sa.world_actions && s.harness_actions == sa.harness_actions);

    /* A scheduled checkpoint every 5 steps. */
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_set_checkpoints(NULL, NULL, 0, false));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_agent_set_checkpoints(b, "", 5, false));
    OK(evoharness_agent_start_task(b, 1));
    OK(evoharness_agent_set_checkpoints(b, work_file("every5.ckpt"), 5, true));
    FILE *early = fopen(work_file("every5.ckpt"), "rb");
    CHECK(early == NULL);
    if (early) fclose(early);
    steps(b, 5, resumed);
    FILE *written = fopen(work_file("every5.ckpt"), "rb");
    CHECK(written != NULL);
    if (written) fclose(written);
    OK(evoharness_agent_set_checkpoints(b, NULL, 0, false));

    /* A trace file: one JSON line per step, the first of them opening the task (`begin`),
       all of them there once tracing stops. */
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_set_trace_file(NULL, "x"));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_agent_set_trace_file(b, ""));
    OK(evoharness_agent_start_task(b, 2));
    OK(evoharness_agent_set_trace_file(b, work_file("trace.jsonl")));
    steps(b, 4, resumed);
    OK(evoharness_agent_set_trace_file(b, NULL));
    FILE *trace = fopen(work_file("trace.jsonl"), "rb");
    CHECK(trace != NULL);
    if (trace) {
        char line[65536];
        int lines = 0, begins = 0;
        while (fgets(line, sizeof line, trace)) {
            lines++;
            CHECK(line[0] == '{' && strstr(line, "\"step\":") != NULL);
            if (strstr(line, "\"begin\":")) begins++;
        }
        fclose(trace);
        CHECK(lines == 4 && begins == 1);
    }

    /* No world: nobody judges the task. */
    struct evoharness_verdict v;
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_agent_verdict(b, &v));
    CHECK(error_mentions("no judge"));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_verdict(NULL, &v));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_agent_verdict(b, NULL));

    /* Run to the end of the budget: then steps are not taken. */
    OK(evoharness_agent_run(b, 100000, &s));
    CHECK(s.spent <= 300);
    OK(evoharness_agent_step(b, &r));
    CHECK(!r.taken);

    evoharness_agent_free(a);
    evoharness_agent_free(b);
    evoharness_agent_free(NULL);
}

/* A world written by the host (ledger.h) under an agent with the three-tool fixture policy. */
static void test_callback_world(void) {
    int dropped = 0;
    struct ledger l;
    evoharness_world *w = NULL;
    const char *names[3] = {"next", "pay", "audit"};
    const char *twice[3] = {"next", "pay", "next"};
    const char *empty[3] = {"next", "", "audit"};
    const char *holes[3] = {"next", NULL, "audit"};
    evoharness_world_callbacks cb = LEDGER_CALLBACKS;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_world_from_callbacks(NULL, &l, names, 3, &w));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_world_from_callbacks(&cb, &l, NULL, 3, &w));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_world_from_callbacks(&cb, &l, names, 3, NULL));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_world_from_callbacks(&cb, &l, holes, 3, &w));
    CHECK(error_mentions("tool_names[1]"));
    cb.call = NULL;
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_world_from_callbacks(&cb, &l, names, 3, &w));
    CHECK(error_mentions("callbacks->call"));
    cb = LEDGER_CALLBACKS;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_world_from_callbacks(&cb, &l, names, 0, &w));
    const char *many[65];
    for (int i = 0; i < 65; i++) many[i] = "t";
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_world_from_callbacks(&cb, &l, many, 65, &w));
    CHECK(error_mentions("1 to 64 tools"));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_world_from_callbacks(&cb, &l, twice, 3, &w));
    CHECK(error_mentions("repeats"));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_world_from_callbacks(&cb, &l, empty, 3, &w));
    CHECK(w == NULL);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_resume_point_write(NULL, (const uint8_t *)"x", 1));

    /* Made and freed without an agent: its drop callback runs once. */
    w = ledger_world(&l, &dropped);
    CHECK(w != NULL);
    evoharness_world_free(w);
    CHECK(dropped == 1);

    /* Under an agent: the policy calls the host's world, which judges and checkpoints. */
    struct evoharness_agent_config config;
    OK(evoharness_agent_config_default(&config));
    config.temperature = 1.0f;
    config.seed = 5;
    config.budget = 200;
    struct evoharness_policy *p = load("mlp.onnx");
    w = ledger_world(&l, &dropped);
    struct evoharness_agent *a = NULL;
    OK(evoharness_agent_new(&p, &w, &config, &a));
    CHECK(p == NULL && w == NULL && l.resets == 1 && l.s.items == 2 + 5 % 3);
    struct evoharness_summary s;
    OK(evoharness_agent_run(a, 40, &s));
    CHECK(s.world_actions > 0 && l.calls == (int)s.world_actions);
    struct evoharness_verdict v;
    OK(evoharness_agent_verdict(a, &v));
    CHECK(!v.success || s.finished == 1);
    OK(evoharness_agent_checkpoint(a, work_file("ledger.ckpt")));
    CHECK(l.saves == 1);
    struct ledger_state saved = l.s;
    OK(evoharness_agent_run(a, 1000, &s));
    evoharness_agent_free(a);
    CHECK(dropped == 2);

    /* A resume gives the world its resume point back. */
    struct ledger l2;
    p = load("mlp.onnx");
    w = ledger_world(&l2, &dropped);
    OK(evoharness_agent_resume(&p, &w, &config, work_file("ledger.ckpt"), &a));
    CHECK(l2.restores == 1 && l2.resets == 0 && memcmp(&l2.s, &saved, sizeof saved) == 0);
    evoharness_agent_free(a);
    CHECK(dropped == 3);

    /* A language model (generative-v1) through the same calls: it names no tools, so the
     * world's names are used; its decoded actions are legal (a refused one would fail the
     * run); it checkpoints and resumes like any policy; a fleet refuses it and hands it back. */
    p = load("generative.onnx");
    struct evoharness_policy_abi gabi;
    OK(evoharness_policy_get_abi(p, &gabi));
    CHECK(strcmp(gabi.abi, "generative-v1") == 0 && gabi.layout_version == 0);
    CHECK(gabi.obs_len == 0 && gabi.actions > 0 && gabi.tool_names == 0 && !gabi.recurrent);
    CHECK(gabi.capacities.tools == 3);
    struct evoharness_fleet *gf = NULL;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_fleet_new(&p, &gf));
    CHECK(p != NULL && gf == NULL && error_mentions("generative-v1"));
    struct ledger lg;
    int gdropped = 0;
    w = ledger_world(&lg, &gdropped);
    OK(evoharness_agent_new(&p, &w, &config, &a));
    CHECK(p == NULL && w == NULL);
    OK(evoharness_agent_run(a, 12, &s));
    CHECK(s.steps == 12 || s.finished != -1);
    OK(evoharness_agent_checkpoint(a, work_file("lm.ckpt")));
    evoharness_agent_free(a);
    struct ledger lg2;
    p = load("generative.onnx");
    w = ledger_world(&lg2, &gdropped);
    OK(evoharness_agent_resume(&p, &w, &config, work_file("lm.ckpt"), &a));
    CHECK(lg2.restores == 1 && memcmp(&lg2.s, &lg.s, sizeof lg.s) == 0);
    OK(evoharness_agent_run(a, 5, &s));
    evoharness_agent_free(a);
    /* Another policy cannot resume its run. */
    p = load("mlp.onnx");
    w = ledger_world(&lg2, &gdropped);
    EXPECT(EVOHARNESS_STATUS_CHECKPOINT,
           evoharness_agent_resume(&p, &w, &config, work_file("lm.ckpt"), &a));
    evoharness_policy_free(p);
    evoharness_world_free(w);
    CHECK(gdropped == 3);

    /* A model brought from Hugging Face transformers (a Llama exported by
     * `python -m evoharness.lm.hf_export`, its tokenizer.json inside): the same calls (the
     * library built with its hf-tokenizer feature, as the tests' builds are). */
    p = load("generative_hf.onnx");
    OK(evoharness_policy_get_abi(p, &gabi));
    CHECK(strcmp(gabi.abi, "generative-v1") == 0 && gabi.capacities.tools == 3);
    int hdropped = 0;
    w = ledger_world(&lg, &hdropped);
    OK(evoharness_agent_new(&p, &w, &config, &a));
    OK(evoharness_agent_run(a, 12, &s));
    CHECK(s.steps == 12 || s.finished != -1);
    OK(evoharness_agent_checkpoint(a, work_file("hf.ckpt")));
    evoharness_agent_free(a);
    p = load("generative_hf.onnx");
    w = ledger_world(&lg2, &hdropped);
    OK(evoharness_agent_resume(&p, &w, &config, work_file("hf.ckpt"), &a));
    CHECK(lg2.restores == 1 && memcmp(&lg2.s, &lg.s, sizeof lg.s) == 0);
    OK(evoharness_agent_run(a, 5, &s));
    evoharness_agent_free(a);
    CHECK(hdropped == 2);

    /* No save_resume_point: such a world cannot be checkpointed; no judge: no verdict. */
    struct ledger l3;
    memset(&l3, 0, sizeof l3);
    l3.dropped = &dropped;
    cb = LEDGER_CALLBACKS;
    cb.save_resume_point = NULL;
    cb.judge = NULL;
    OK(evoharness_world_from_callbacks(&cb, &l3, names, 3, &w));
    p = load("mlp.onnx");
    OK(evoharness_agent_new(&p, &w, &config, &a));
    EXPECT(EVOHARNESS_STATUS_WORLD, evoharness_agent_checkpoint(a, work_file("none.ckpt")));
    CHECK(error_mentions("cannot be checkpointed"));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_agent_verdict(a, &v));
    /* A failing call is a failure of the world: the step reports it, naming the callback. */
    OK(evoharness_agent_run(a, 10, &s));
    l3.fail_call = 7;
    EXPECT(EVOHARNESS_STATUS_WORLD, evoharness_agent_run(a, 1000, &s));
    CHECK(error_mentions("`call` callback failed (it returned 7)"));
    l3.fail_call = 0;
    l3.malformed = 1;
    EXPECT(EVOHARNESS_STATUS_WORLD, evoharness_agent_run(a, 1000, &s));
    CHECK(error_mentions("malformed event") && error_mentions("key"));
    l3.malformed = 0;
    /* A failing reset: the next step reports it and does nothing. */
    l3.fail_reset = 3;
    OK(evoharness_agent_start_task(a, 9));
    struct evoharness_step_report r;
    EXPECT(EVOHARNESS_STATUS_WORLD, evoharness_agent_step(a, &r));
    CHECK(error_mentions("`reset` callback failed (it returned 3)"));
    l3.fail_reset = 0;
    OK(evoharness_agent_start_task(a, 9));
    OK(evoharness_agent_step(a, &r));
    CHECK(r.taken);
    evoharness_agent_free(a);
    CHECK(dropped == 4);

    /* A world of another tool count than the policy's is refused and handed back. */
    const char *four[4] = {"a", "b", "c", "d"};
    OK(evoharness_world_from_callbacks(&LEDGER_CALLBACKS, &l3, four, 4, &w));
    p = load("mlp.onnx");
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_agent_new(&p, &w, &config, &a));
    CHECK(p != NULL && w != NULL);
    evoharness_world_free(w);
    evoharness_policy_free(p);
    CHECK(dropped == 5);
}

/* ---------------------------------------------------------------------------------------- */

/* The structured-v1 layout as JSON, for any capacities: what a training loop or another
 * inference engine in another language needs. */
static struct evoharness_value text_value(const char *s) {
    struct evoharness_value v;
    memset(&v, 0, sizeof v);
    v.kind = EVOHARNESS_VALUE_KIND_TEXT;
    v.len = strlen(s);
    memcpy(v.data, s, v.len);
    return v;
}

static struct evoharness_value int_value(int64_t i) {
    struct evoharness_value v;
    memset(&v, 0, sizeof v);
    v.kind = EVOHARNESS_VALUE_KIND_INT;
    v.integer = i;
    return v;
}

/* Experience stores: lessons, replicas, files and bytes, merges as a join, an agent's store. */
static void test_experience_store(void) {
    struct evoharness_experience_store *a = NULL, *b = NULL, *m = NULL, *n = NULL, *c = NULL;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_experience_store_new(0, &a));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_experience_store_new(4, NULL));
    OK(evoharness_experience_store_new(4, &a));
    OK(evoharness_experience_store_new(8, &b));
    struct evoharness_value e429 = text_value("E429"), e500 = text_value("E500");
    struct evoharness_value one = int_value(1), two = int_value(2);
    OK(evoharness_experience_store_note(a, &e429, &one));
    OK(evoharness_experience_store_note(a, &e429, &one));
    OK(evoharness_experience_store_rate(a, &e429, true));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_experience_store_rate(a, &e500, true));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_experience_store_note(a, NULL, &one));
    struct evoharness_value bad = e429;
    bad.len = 99;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_experience_store_note(a, &bad, &one));
    OK(evoharness_experience_store_note(b, &e500, &two));
    OK(evoharness_experience_store_note(b, &e429, &two));

    struct evoharness_lesson l;
    OK(evoharness_experience_store_lesson(a, &e429, &l));
    CHECK(l.noted == 2 && l.helpful == 1 && l.remedy.integer == 1);
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_experience_store_lesson(a, &e500, &l));
    size_t count = 0, budget = 0;
    OK(evoharness_experience_store_count(a, &count));
    OK(evoharness_experience_store_budget(a, &budget));
    CHECK(count == 1 && budget == 4);

    /* Replicas: chosen, or drawn at random; each store writes as its own. */
    uint64_t id_a = 0, id_b = 0;
    OK(evoharness_experience_store_replica(a, &id_a));
    OK(evoharness_experience_store_replica(b, &id_b));
    CHECK(id_a != id_b);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_experience_store_replica(a, NULL));
    OK(evoharness_experience_store_new_replica(2, 77, &c));
    OK(evoharness_experience_store_replica(c, &id_a));
    CHECK(id_a == 77);
    OK(evoharness_experience_store_become_replica(c, 78));
    OK(evoharness_experience_store_replica(c, &id_a));
    CHECK(id_a == 78);
    evoharness_experience_store_free(c);
    c = NULL;
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_experience_store_new_replica(0, 1, &c));

    /* Merges are a join: the same bytes however often a store is merged. */
    const struct evoharness_experience_store *ab[2] = {a, b};
    const struct evoharness_experience_store *abba[4] = {a, b, b, a};
    OK(evoharness_experience_store_merge_all(ab, 2, &m));
    OK(evoharness_experience_store_merge_all(abba, 4, &n));
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_experience_store_merge_all(ab, 0, &c));
    size_t len_m = 0, len_n = 0;
    OK(evoharness_experience_store_encoded_len(m, &len_m));
    uint8_t bytes_m[512], bytes_n[512];
    CHECK(len_m <= sizeof bytes_m);
    size_t tiny = 0;
    EXPECT(EVOHARNESS_STATUS_BUFFER_TOO_SMALL,
           evoharness_experience_store_to_bytes(m, bytes_m, 4, &tiny));
    CHECK(tiny == 0);
    OK(evoharness_experience_store_to_bytes(m, bytes_m, sizeof bytes_m, &len_m));
    OK(evoharness_experience_store_to_bytes(n, bytes_n, sizeof bytes_n, &len_n));
    CHECK(len_m == len_n && memcmp(bytes_m, bytes_n, len_m) == 0);
    OK(evoharness_experience_store_merge(a, b));
    OK(evoharness_experience_store_merge(a, b)); /* again: nothing counted twice */
    OK(evoharness_experience_store_merge(a, a));
    OK(evoharness_experience_store_lesson(a, &e429, &l));
    CHECK(l.remedy.integer == 1 && l.noted == 2); /* rated helpful: remedy 1 wins */
    OK(evoharness_experience_store_count(a, &count));
    CHECK(count == 2);

    /* Bytes and files: round trips; bad bytes refused with their own status. */
    OK(evoharness_experience_store_from_bytes(bytes_m, len_m, &c));
    evoharness_experience_store_free(c);
    c = NULL;
    bytes_m[len_m - 1] ^= 1;
    EXPECT(EVOHARNESS_STATUS_EXPERIENCE_STORE,
           evoharness_experience_store_from_bytes(bytes_m, len_m, &c));
    CHECK(c == NULL && error_mentions("checksum"));
    EXPECT(EVOHARNESS_STATUS_EXPERIENCE_STORE, evoharness_experience_store_from_bytes(NULL, 0, &c));
    OK(evoharness_experience_store_save(a, work_file("lessons.evhe")));
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_experience_store_save(a, ""));
    OK(evoharness_experience_store_load(work_file("lessons.evhe"), &c));
    OK(evoharness_experience_store_count(c, &count));
    CHECK(count == 2);
    EXPECT(EVOHARNESS_STATUS_IO, evoharness_experience_store_load(work_file("missing.evhe"), &n));

    /* An agent takes a store over, writes it to its checkpoints, and gives it back. */
    struct evoharness_agent_config config;
    OK(evoharness_agent_config_default(&config));
    struct evoharness_policy *p = load("mlp.onnx");
    struct evoharness_agent *agent = NULL;
    OK(evoharness_agent_new(&p, NULL, &config, &agent));
    struct evoharness_experience_store *back = NULL;
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_experience_store_detach(agent, &back));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_experience_store_attach(NULL, agent));
    OK(evoharness_experience_store_attach(&c, agent));
    CHECK(c == NULL);
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_experience_store_attach(&b, agent));
    CHECK(b != NULL && error_mentions("detach it first"));
    struct evoharness_summary s;
    OK(evoharness_agent_run(agent, 20, &s));
    OK(evoharness_agent_checkpoint(agent, work_file("store.ckpt")));
    p = load("mlp.onnx");
    struct evoharness_agent *resumed = NULL;
    OK(evoharness_agent_resume(&p, NULL, &config, work_file("store.ckpt"), &resumed));
    OK(evoharness_experience_store_detach(resumed, &back));
    OK(evoharness_experience_store_count(back, &count));
    CHECK(count >= 2);
    evoharness_experience_store_free(back);
    OK(evoharness_experience_store_detach(agent, &back));
    CHECK(back != NULL);
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_experience_store_detach(agent, &n));

    evoharness_agent_free(agent);
    evoharness_agent_free(resumed);
    evoharness_experience_store_free(back);
    evoharness_experience_store_free(a);
    evoharness_experience_store_free(b);
    evoharness_experience_store_free(m);
    evoharness_experience_store_free(n);
    evoharness_experience_store_free(NULL);
}

static void test_layout(void) {
    struct evoharness_capacities caps = {16, 8, 4, 8};
    char json[16384];
    size_t len = 0;
    OK(evoharness_layout_json(&caps, json, sizeof json, &len));
    CHECK(len == strlen(json) && strstr(json, "\"obs_len\":564") != NULL);
    CHECK(strstr(json, "\"templates\":[[\"finish\",-1]") != NULL);
    size_t small = 0;
    EXPECT(EVOHARNESS_STATUS_BUFFER_TOO_SMALL, evoharness_layout_json(&caps, json, 10, &small));
    CHECK(small == 0);
    struct evoharness_capacities none = {16, 8, 4, 0};
    EXPECT(EVOHARNESS_STATUS_CONFIG, evoharness_layout_json(&none, json, sizeof json, &len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_layout_json(NULL, json, sizeof json, &len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_layout_json(&caps, NULL, sizeof json, &len));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_layout_json(&caps, json, sizeof json, NULL));
    /* A policy's own capacities give its sizes. */
    struct evoharness_policy *p = load("mlp.onnx");
    struct evoharness_policy_abi abi;
    OK(evoharness_policy_get_abi(p, &abi));
    OK(evoharness_layout_json(&abi.capacities, json, sizeof json, &len));
    char want[64];
    snprintf(want, sizeof want, "\"obs_len\":%zu,", abi.obs_len);
    CHECK(strstr(json, want) != NULL);
    evoharness_policy_free(p);
    /* A structured-v2 policy: its ABI names the version, whose layout has its sizes. */
    p = load("mlp_v2.onnx");
    OK(evoharness_policy_get_abi(p, &abi));
    CHECK(strcmp(abi.abi, "structured-v2") == 0 && abi.layout_version == 2);
    OK(evoharness_layout_json_version(&abi.capacities, abi.layout_version, json, sizeof json, &len));
    CHECK(strstr(json, "\"abi\":\"structured-v2\"") != NULL);
    snprintf(want, sizeof want, "\"obs_len\":%zu,", abi.obs_len);
    CHECK(strstr(json, want) != NULL && strstr(json, "\"name\":\"harness\"") != NULL);
    evoharness_policy_free(p);
    OK(evoharness_layout_json_version(&caps, 1, json, sizeof json, &len));
    CHECK(strstr(json, "\"obs_len\":564") != NULL && strstr(json, "harness") == NULL);
    OK(evoharness_layout_json_version(&caps, 2, json, sizeof json, &len));
    CHECK(strstr(json, "\"obs_len\":579") != NULL);
    EXPECT(EVOHARNESS_STATUS_CONFIG,
           evoharness_layout_json_version(&caps, 3, json, sizeof json, &len));
    CHECK(error_mentions("layout version 3"));
}

/* ---------------------------------------------------------------------------------------- */

/* A tool of a fleet's agents that calls back into the fleet: refused, not undefined. */
static struct evoharness_fleet *reentered_fleet;
static int fleet_reentries;

static int32_t tool_fleet_reenter(void *user_data, const struct evoharness_tool_call *call,
                                  struct evoharness_tool_result *result) {
    (void)user_data;
    (void)call;
    (void)result;
    size_t n = 0;
    if (evoharness_fleet_len(reentered_fleet, &n) == EVOHARNESS_STATUS_INVALID_ARGUMENT &&
        error_mentions("callbacks called back"))
        fleet_reentries++;
    return 0;
}

#define FLEET_AGENTS 5

/* A fleet of five agents on the batched fixture does what five agents alone do: the same
 * templates, step by step, and checkpoints that resume either way. */
static void test_fleet(void) {
    struct evoharness_agent_config config;
    OK(evoharness_agent_config_default(&config));
    config.temperature = 1.0f;
    config.budget = 60;
    struct host h;
    memset(&h, 0, sizeof h);

    /* Alone: the templates of each agent's first 25 steps (or until its task ends). */
    uint32_t alone[FLEET_AGENTS][32];
    int alone_n[FLEET_AGENTS];
    for (int i = 0; i < FLEET_AGENTS; i++) {
        struct evoharness_policy *p = load("mlp_batch.onnx");
        struct evoharness_agent *a = NULL;
        config.seed = 40 + (uint64_t)i;
        OK(evoharness_agent_new(&p, NULL, &config, &a));
        register_tools(a, &h);
        alone_n[i] = steps(a, 25, alone[i]);
        evoharness_agent_free(a);
    }

    struct evoharness_fleet *f = NULL;
    struct evoharness_policy *p = load("mlp_batch.onnx");
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_fleet_new(NULL, &f));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_fleet_new(&p, NULL));
    CHECK(p != NULL);
    OK(evoharness_fleet_new(&p, &f));
    CHECK(p == NULL && f != NULL);
    size_t index = 99, n = 99;
    OK(evoharness_fleet_len(f, &n));
    CHECK(n == 0);
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_fleet_len(NULL, &n));
    struct evoharness_agent_config bad = config;
    bad.temperature = -1.0f;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT, evoharness_fleet_add(f, NULL, &bad, &index));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_fleet_add(f, NULL, &config, NULL));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_fleet_add(NULL, NULL, &config, &index));
    for (int i = 0; i < FLEET_AGENTS; i++) {
        config.seed = 40 + (uint64_t)i;
        OK(evoharness_fleet_add(f, NULL, &config, &index));
        CHECK(index == (size_t)i);
        OK(evoharness_fleet_register_tool(f, index, "copy", tool_copy, &h));
        OK(evoharness_fleet_register_tool(f, index, "wait", tool_wait, &h));
        OK(evoharness_fleet_register_tool(f, index, "verify", tool_verify, &h));
    }
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_fleet_register_tool(f, 9, "copy", tool_copy, &h));
    CHECK(error_mentions("no agent 9"));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_fleet_register_tool(f, 0, "nope", tool_copy, &h));
    OK(evoharness_fleet_len(f, &n));
    CHECK(n == FLEET_AGENTS);

    struct evoharness_step_report reports[FLEET_AGENTS + 1];
    evoharness_status statuses[FLEET_AGENTS + 1];
    size_t stepped = 0;
    EXPECT(EVOHARNESS_STATUS_INVALID_ARGUMENT,
           evoharness_fleet_step(f, reports, NULL, FLEET_AGENTS - 1, &stepped));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_fleet_step(f, NULL, NULL, FLEET_AGENTS, &stepped));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_fleet_step(f, reports, NULL, FLEET_AGENTS, NULL));
    int same = 1, compared = 0;
    for (int k = 0; k < 25; k++) {
        OK(evoharness_fleet_step(f, reports, statuses, FLEET_AGENTS + 1, &stepped));
        for (int i = 0; i < FLEET_AGENTS; i++) {
            CHECK(statuses[i] == EVOHARNESS_STATUS_OK);
            if (k < alone_n[i]) {
                CHECK(reports[i].taken && reports[i].step == (uint64_t)k + 1);
                same &= reports[i].template_index == alone[i][k];
                compared++;
            } else {
                CHECK(!reports[i].taken);
            }
        }
    }
    CHECK(same && compared > 20);

    /* A checkpoint of agent 1 resumes alone, and into the fleet as a new agent. */
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_fleet_checkpoint(f, 7, work_file("f.ckpt")));
    OK(evoharness_fleet_checkpoint(f, 1, work_file("f.ckpt")));
    struct evoharness_policy *q = load("mlp_batch.onnx");
    struct evoharness_agent *a = NULL;
    config.seed = 41;
    OK(evoharness_agent_resume(&q, NULL, &config, work_file("f.ckpt"), &a));
    evoharness_agent_free(a);
    OK(evoharness_fleet_resume(f, NULL, &config, work_file("f.ckpt"), &index));
    CHECK(index == FLEET_AGENTS);
    EXPECT(EVOHARNESS_STATUS_IO, evoharness_fleet_resume(f, NULL, &config, work_file("none.ckpt"), &index));
    EXPECT(EVOHARNESS_STATUS_NULL_ARGUMENT, evoharness_fleet_resume(f, NULL, &config, NULL, &index));

    /* Schedules, tasks and verdicts by index. */
    OK(evoharness_fleet_set_checkpoints(f, 0, work_file("f0.ckpt"), 1, true));
    OK(evoharness_fleet_set_checkpoints(f, 0, NULL, 0, false));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_fleet_set_checkpoints(f, 99, NULL, 0, false));
    OK(evoharness_fleet_start_task(f, 2, 77));
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_fleet_start_task(f, 99, 77));
    struct evoharness_verdict v;
    EXPECT(EVOHARNESS_STATUS_NOT_FOUND, evoharness_fleet_verdict(f, 0, &v)); /* no world */
    CHECK(error_mentions("no judge"));

    /* A callback that calls back into its fleet is refused; the step goes on. */
    reentered_fleet = f;
    OK(evoharness_fleet_register_tool(f, 3, "copy", tool_fleet_reenter, NULL));
    OK(evoharness_fleet_register_tool(f, 3, "wait", tool_fleet_reenter, NULL));
    OK(evoharness_fleet_register_tool(f, 3, "verify", tool_fleet_reenter, NULL));
    for (int k = 0; k < 200 && fleet_reentries == 0; k++) {
        OK(evoharness_fleet_step(f, reports, NULL, FLEET_AGENTS + 1, &stepped));
        if (!reports[3].taken) OK(evoharness_fleet_start_task(f, 3, 5 + (uint64_t)k));
    }
    CHECK(fleet_reentries > 0);

    evoharness_fleet_free(f);
    evoharness_fleet_free(NULL);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s FIXTURES_DIR WORK_DIR VERSION\n", argv[0]);
        return 2;
    }
    snprintf(fixtures, sizeof fixtures, "%s", argv[1]);
    snprintf(work, sizeof work, "%s", argv[2]);

    test_status_and_version(argv[3]);
    test_workspace();
    test_policy();
    test_agent();
    test_callback_world();
    test_experience_store();
    test_layout();
    test_fleet();

    printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
