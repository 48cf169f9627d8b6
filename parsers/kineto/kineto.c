// SPDX-License-Identifier: MIT
/*
 * Kineto / Chrome trace JSON: what torch.profiler, export_chrome_trace()
 * and Paddle's chrome export write (doc/formats/kineto.md).  The parser
 * object and the file's top level: its members, and traceEvents read on
 * one thread (kineto_read.c) or in chunks on two (kineto_chunks.c); then
 * kineto_link.c and kineto_steps.c make the profile.  kineto_int.h says
 * how they share the work.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/memory.h"
#include "kineto_int.h"

static void kineto_release(struct kineto *k)
{
	free(k->name_buf);
	strbuf_release(&k->dims_text);
	strbuf_release(&k->coll_text);
	strbuf_release(&k->dtype_text);
	strbuf_release(&k->stack_text);
	free(k->ctr);
	strbuf_release(&k->ctr_keys);
	strbuf_release(&k->ctr_key);
	kineto_records_release(k);
	free(k->steps);
	free(k->step_cats);
	free(k->comm_ext);
	free(k->unused);
	for (int r = 0; r < NR_ROLES; r++)
		free(k->roles[r].v);
	json_release(&k->j);
}

/* Info: how many memory events there are, and each device's peaks as
 * the Memory view's curve has them (events with an address and both
 * totals). */
static void report_memory(struct profile *p)
{
	struct mem_curves cv;
	char count[32];

	if (!p->nr_mem_events)
		return;
	snprintf(count, sizeof(count), "%zu", p->nr_mem_events);
	profile_meta(p, "memory", "[memory] events", count);
	mem_curves(p, NULL, &cv);
	for (size_t i = 0; i < cv.nr; i++) {
		char dev[MEM_DEVICE_NAME_SIZE], key[64], v[32];

		mem_device_name(cv.curves[i].device, dev, sizeof(dev));
		snprintf(key, sizeof(key), "%s peak_allocated_bytes", dev);
		snprintf(v, sizeof(v), "%lld", (long long)cv.curves[i].peak_allocated);
		profile_meta(p, "memory", key, v);
		snprintf(key, sizeof(key), "%s peak_reserved_bytes", dev);
		snprintf(v, sizeof(v), "%lld", (long long)cv.curves[i].peak_reserved);
		profile_meta(p, "memory", key, v);
	}
	mem_curves_release(&cv);
}

static void report_quirks(struct kineto *k)
{
	struct json *j = &k->j;
	struct pos none = { 0, 0 };

	if (j->nr_raw_control)
		diag_warn(k->d, &none, "raw control characters in strings (tolerated)",
			  "%llu raw control character(s) inside strings; read as they are",
			  (unsigned long long)j->nr_raw_control);
	if (j->nr_bare_words)
		diag_warn(k->d, &none, "bare N/A, nan or inf values (tolerated)",
			  "%llu unquoted N/A, nan or inf value(s); read as missing (as not a "
			  "number in 'ts' and 'dur')",
			  (unsigned long long)j->nr_bare_words);
	if (j->nr_empty_trailing)
		diag_warn(k->d, &none, "trailing commas (tolerated)",
			  "%llu trailing comma(s) before a closing bracket",
			  (unsigned long long)j->nr_empty_trailing);
}

/* The events of the array just opened (traceEvents, or a legacy bare
 * array), on this thread or in chunks on two (kineto_chunks.c).  Returns
 * JSON_ARR_END or the failure. */
static enum json_tok read_events(struct kineto *k)
{
	size_t chunk = kineto_chunk_bytes(k);
	enum json_tok t;

	kineto_events_start(k);
	t = chunk ? kineto_read_chunked(k, chunk) : kineto_read_list(k);
	kineto_events_finish(k);
	return t;
}

/* The members of the top-level object just opened, events and all;
 * *SAW_EVENTS says whether traceEvents was among them.  Returns the token
 * that ended the object (JSON_OBJ_END) or the failure. */
static enum json_tok read_object(struct kineto *k, bool *saw_events)
{
	struct json *j = &k->j;
	enum json_tok t;

	while ((t = json_next(j)) == JSON_KEY) {
		char key[64];
		bool is_events = json_is(j, "traceEvents");
		bool is_props = json_is(j, "deviceProperties");
		bool is_dist = json_is(j, "distributedInfo");

		snprintf(key, sizeof(key), "%.*s", (int)(j->len < 63 ? j->len : 63), j->s);
		t = json_next(j);
		if (is_events && t == JSON_ARR_BEGIN) {
			*saw_events = true;
			t = read_events(k);
			if (t != JSON_ARR_END)
				return t;
			continue;
		}
		if (is_props && t == JSON_ARR_BEGIN) {
			t = kineto_read_device_props(k);
			if (json_failed(t))
				return t;
			continue;
		}
		if (is_dist && t == JSON_OBJ_BEGIN) {
			t = kineto_read_dist_info(k);
			if (json_failed(t))
				return t;
			continue;
		}
		if (t == JSON_STRING || t == JSON_NUMBER || t == JSON_TRUE || t == JSON_FALSE) {
			char *v = t == JSON_TRUE ? xstrdup("true") : t == JSON_FALSE ? xstrdup("false")
										    : xstrndup(j->s, j->len);

			profile_meta(k->p, "trace", key, v);
			free(v);
		}
		t = json_skip(j, t);
		if (json_failed(t))
			return t;
	}
	return t;
}

/* The top-level value: an object with traceEvents, or the legacy
 * autograd exporter's bare array of events.  *RC becomes -1 when it is
 * neither. */
static enum json_tok read_top(struct kineto *k, int *rc)
{
	bool saw_events = false;
	enum json_tok t = json_next(&k->j);

	if (t == JSON_OBJ_BEGIN) {
		t = read_object(k, &saw_events);
		if (t == JSON_OBJ_END && !saw_events) {
			struct pos at = json_pos(&k->j);

			diag_error(k->d, &at, "no 'traceEvents' array: not a Kineto/Chrome trace");
			*rc = -1;
		}
	} else if (t == JSON_ARR_BEGIN) {
		t = read_events(k);
	} else if (!json_failed(t)) {
		struct pos at = json_pos(&k->j);

		diag_error(k->d, &at, "expected a JSON object or array at the top level");
		*rc = -1;
	}
	return t;
}

static int kineto_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct kineto k = { .p = p, .d = d, .cpu_min = INT64_MAX, .cpu_max = INT64_MIN,
			    .origin_ns = INT64_MAX };
	char kept[64];
	enum json_tok t;
	int rc = 0;

	json_init(&k.j, in, d);
	t = read_top(&k, &rc);
	/* A killed job's trace: keep every complete event. */
	snprintf(kept, sizeof(kept), "the %u event%s read before it", k.nr_events,
		 k.nr_events == 1 ? "" : "s");
	if (json_report_end(&k.j, t, "trace", k.nr_events, kept) < 0)
		rc = -1;
	else if (rc == 0 && !json_failed(t))
		json_check_end(&k.j, "trace");	/* its failure keeps the events */
	if (rc == 0) {
		report_quirks(&k);
		kineto_link(&k);
		kineto_build_steps(&k);
		kineto_report_unused(&k);
		kineto_set_origin(&k);
		report_memory(p);
	}
	kineto_release(&k);
	return rc;
}

/* A JSON object or array near the top that has Kineto's marks. */
static int kineto_probe(const char *head, size_t len)
{
	size_t i = 0;
	bool has_events = false, has_ph = false;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= len || (head[i] != '{' && head[i] != '['))
		return 0;
	for (size_t j = i; j + 4 <= len; j++) {
		if (head[j] != '"')
			continue;
		if ((j + 13 <= len && !memcmp(head + j, "\"traceEvents\"", 13)) ||
		    (j + 15 <= len && !memcmp(head + j, "\"schemaVersion\"", 15)))
			has_events = true;
		if (!memcmp(head + j, "\"ph\"", 4))
			has_ph = true;
	}
	if (has_events)
		return 90;
	if (head[i] == '[' && has_ph)
		return 70;	/* a bare array of trace events */
	return 0;
}

const struct parser kineto_parser = {
	.name = "kineto",
	.summary = "PyTorch profiler / Kineto Chrome trace JSON (.json, .json.gz)",
	.probe = kineto_probe,
	.parse = kineto_parse,
};
