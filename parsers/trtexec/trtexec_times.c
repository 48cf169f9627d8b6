// SPDX-License-Identifier: MIT
/*
 * trtexec --exportTimes (doc/formats/trtexec.md, 'Inference times'): one
 * record per inference, which becomes one step of the Steps pane, split
 * into Enqueue, H2D, Compute and D2H.  Inferences of a second times file
 * are numbered on from the first.
 */
#include <stdio.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/util.h"
#include "../num.h"
#include "../parser.h"
#include "../text.h"
#include "trtexec.h"

enum {
	T_START_ENQ, T_END_ENQ, T_START_H2D, T_END_H2D, T_START_COMPUTE, T_END_COMPUTE,
	T_START_D2H, T_END_D2H, T_H2D, T_COMPUTE, T_D2H, T_LATENCY, T_E2E, NR_T
};

/* Key names, with TensorRT 7's "In"/"Out" for H2D/D2H. */
static const struct {
	const char *key;
	int field;
} time_keys[] = {
	{ "startEnqMs", T_START_ENQ }, { "endEnqMs", T_END_ENQ },
	{ "startH2dMs", T_START_H2D }, { "endH2dMs", T_END_H2D },
	{ "startInMs", T_START_H2D }, { "endInMs", T_END_H2D },
	{ "startComputeMs", T_START_COMPUTE }, { "endComputeMs", T_END_COMPUTE },
	{ "startD2hMs", T_START_D2H }, { "endD2hMs", T_END_D2H },
	{ "startOutMs", T_START_D2H }, { "endOutMs", T_END_D2H },
	{ "h2dMs", T_H2D }, { "inMs", T_H2D }, { "computeMs", T_COMPUTE },
	{ "d2hMs", T_D2H }, { "outMs", T_D2H },
	{ "latencyMs", T_LATENCY }, { "endToEndMs", T_E2E },
};

static const char *const time_cats[] = { "Enqueue", "H2D", "Compute", "D2H" };

#define KIND_BAD_TIME "inference records with missing or bad times"

struct times {
	struct profile *p;
	struct diag *d;
	struct json j;
	uint64_t nr_bad;
};

/* A duration: the explicit field when the file has it, else end - start;
 * -1 when it is not one within BOUND_DUR_NS. */
static int64_t duration(const int64_t *v, const bool *has, int start, int end, int expl)
{
	int64_t d = -1;

	if (expl >= 0 && has[expl])
		d = v[expl];
	else if (has[start] && has[end])
		d = v[end] - v[start];	/* both in 0..the bound: no wrap */
	return bound_dur_ok(d) ? d : -1;
}

static enum json_tok read_inference(struct times *tm, uint64_t index)
{
	struct json *j = &tm->j;
	int64_t v[NR_T];
	bool has[NR_T] = { false };
	bool bad = false;
	uint64_t mark = json_mark(j);
	enum json_tok t;
	struct step *s;
	char name[24];
	int64_t cat[4];

	while ((t = json_next_key(j)) == JSON_KEY) {
		int field = -1;

		for (size_t i = 0; i < ARRAY_SIZE(time_keys); i++)
			if (json_is(j, time_keys[i].key))
				field = time_keys[i].field;
		if (field < 0) {
			t = json_skip_value(j);
		} else {
			t = json_next(j);
			/* Times from trtexec's start and durations alike lie
			 * in 0..BOUND_DUR_NS. */
			if (t == JSON_NUMBER && num_scaled(j->s, j->len, 6, &v[field]) &&
			    bound_dur_ok(v[field]))
				has[field] = true;
			else
				bad = true;	/* nan, inf, a string, beyond bounds */
			t = json_skip(j, t);
		}
		if (json_failed(t))
			return t;
	}
	if (t != JSON_OBJ_END)
		return t;
	cat[0] = duration(v, has, T_START_ENQ, T_END_ENQ, -1);
	cat[1] = duration(v, has, T_START_H2D, T_END_H2D, T_H2D);
	cat[2] = duration(v, has, T_START_COMPUTE, T_END_COMPUTE, T_COMPUTE);
	cat[3] = duration(v, has, T_START_D2H, T_END_D2H, T_D2H);
	for (int i = 0; i < 4; i++)
		if (cat[i] < 0)
			bad = true;
	snprintf(name, sizeof(name), "%llu", (unsigned long long)index);
	s = profile_add_step(tm->p, name, strlen(name));
	for (int i = 0; i < 4; i++)
		s->cat_ns[i] = cat[i];
	/* trtexec's latency is H2D + compute + D2H. */
	if (has[T_LATENCY] && v[T_LATENCY] >= 0)
		s->total_ns = v[T_LATENCY];
	else if (cat[1] >= 0 && cat[2] >= 0 && cat[3] >= 0 &&
		 bound_dur_ok(cat[1] + cat[2] + cat[3]))
		s->total_ns = cat[1] + cat[2] + cat[3];
	else
		bad = true;
	if (has[T_START_H2D])
		attr_set_ns(tm->p, &s->attrs, "start_ns", v[T_START_H2D]);
	if (has[T_E2E])
		attr_set_ns(tm->p, &s->attrs, "end_to_end_ns", v[T_E2E]);
	if (bad) {
		tm->nr_bad++;
		if (diag_would_print(tm->d, KIND_BAD_TIME)) {
			struct pos at = json_mark_pos(j, mark);

			diag_warn(tm->d, &at, KIND_BAD_TIME,
				  "inference %llu has missing, negative, non-numeric or out-of-bounds "
				  "times (beyond 10^15 ns); "
				  "those are left blank", (unsigned long long)index);
		} else {
			diag_warn(tm->d, NULL, KIND_BAD_TIME, "bad inference record");
		}
	}
	return t;
}

/* What each part is, for Info ("step parts": which side of the machine,
 * pane_info.c reads it).  trtexec's latency is H2D + Compute + D2H; the
 * enqueue runs on the host beside them, so the parts overlap. */
static void step_parts_meta(struct profile *p)
{
	profile_meta(p, "step parts", "Enqueue",
		     "host: enqueuing the inference, beside the device parts (not in the latency)");
	profile_meta(p, "step parts", "H2D", "device: copying the inputs to the device");
	profile_meta(p, "step parts", "Compute", "device: running the engine (GPU compute time)");
	profile_meta(p, "step parts", "D2H", "device: copying the outputs back");
}

static int times_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct times tm = { .p = p, .d = d };
	uint64_t nr = 0, first;
	enum json_tok t;
	int rc = 0;

	json_init(&tm.j, in, d);
	if (!json_expect_open(&tm.j, JSON_ARR_BEGIN, &t)) {
		if (t != JSON_ERROR) {
			struct pos at = json_pos(&tm.j);

			if (t == JSON_EOF)
				diag_error(d, NULL, "no JSON value in the file");
			else
				diag_error(d, &at, "expected a JSON array of inference records");
		}
		json_release(&tm.j);
		return -1;
	}
	if (!p->nr_step_cats) {
		profile_set_step_cats(p, time_cats, ARRAY_SIZE(time_cats));
		step_parts_meta(p);
	} else if (p->nr_step_cats != ARRAY_SIZE(time_cats) ||
		   profile_step_cat(p, "Compute") != 2) {
		diag_error(d, NULL, "the files loaded before this one have steps of another kind");
		json_release(&tm.j);
		return -1;
	}
	/* Inferences are numbered on from those of an earlier times file. */
	first = nr = p->nr_steps;
	while ((t = json_next(&tm.j)) == JSON_OBJ_BEGIN) {
		t = read_inference(&tm, nr);
		if (t != JSON_OBJ_END)
			break;
		nr++;
	}
	if (t == JSON_ARR_END) {
		json_check_end(&tm.j, "JSON document");
	} else if (json_failed(t)) {
		rc = trt_report_end(&tm.j, t, "inference list", (size_t)(nr - first));
	} else {
		struct pos at = json_pos(&tm.j);

		diag_error(d, &at, "expected an inference record object");
		if (nr == first)
			rc = -1;
	}
	if (rc == 0) {
		char n[32];

		snprintf(n, sizeof(n), "%zu", p->nr_steps);
		profile_meta(p, "inference times", "inferences", n);
	}
	json_release(&tm.j);
	return rc;
}

static int times_probe(const char *head, size_t len)
{
	if (trt_opens_with(head, len, '[', '{', "startEnqMs") ||
	    trt_opens_with(head, len, '[', '{', "startInMs") ||
	    trt_opens_with(head, len, '[', '{', "startH2dMs"))
		return 95;
	if (trt_opens_with(head, len, '[', '{', "") && text_find(head, len, "\"latencyMs\"") &&
	    text_find(head, len, "\"computeMs\""))
		return 80;
	return 0;
}

const struct parser trtexec_times_parser = {
	.counts_per_node = true,
	.name = "trtexec-times",
	.family = "tensorrt",
	.engine_suffixes = (const char *const[]){ ".timing.json", NULL },
	.summary = "TensorRT trtexec --exportTimes JSON (per-inference times)",
	.probe = times_probe,
	.parse = times_parse,
};

