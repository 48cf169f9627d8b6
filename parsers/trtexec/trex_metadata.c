// SPDX-License-Identifier: MIT
/*
 * trex's *.profile.metadata.json and *.build.metadata.json: the blocks of
 * a trtexec log (performance summary, options, device information) as
 * JSON, made by trex's parse_trtexec_log.py, with numbers without their
 * units, which the log always prints the same.  They become the Info
 * lines the log would give (trtexec_log.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/strbuf.h"
#include "../../model/util.h"
#include "../parser.h"
#include "trtexec.h"

/* The blocks trex writes, by their names in the JSON and in the log. */
static const struct {
	const char *json, *section;
} trex_sections[] = {
	{ "performance_summary", "performance summary" },
	{ "inference_options", "inference options" },
	{ "device_information", "device" },
	{ "model_options", "model options" },
	{ "build_options", "build options" },
};

/* The units trex leaves out, which the log prints after these numbers. */
static const struct {
	const char *key, *unit;
} trex_units[] = {
	{ "Throughput", " qps" }, { "Total Host Walltime", " s" }, { "Total GPU Compute Time", " s" },
	{ "Compute Clock Rate", " GHz" }, { "Memory Clock Rate", " GHz" },
	{ "Memory Bus Width", " bits" },
};

/* "Latency": [min, max, mean, median, percentiles...] in ms. */
static enum json_tok trex_stats(struct meta_set *ms, struct json *j, const char *section,
				const char *key)
{
	static const char *const names[] = { "min", "max", "mean", "median" };
	struct strbuf rest = STRBUF_INIT;
	enum json_tok t;
	size_t i = 0;

	while ((t = json_next(j)) == JSON_NUMBER) {
		char k[200], v[80];

		if (i < ARRAY_SIZE(names)) {
			snprintf(k, sizeof(k), "%s %s", key, names[i]);
			snprintf(v, sizeof(v), "%.*s ms", (int)(j->len < 64 ? j->len : 64), j->s);
			meta_set_put(ms, section, k, v);
		} else {
			if (rest.len)
				strbuf_addstr(&rest, ", ");
			strbuf_add(&rest, j->s, j->len);
		}
		i++;
	}
	if (rest.len) {
		char k[200];

		strbuf_addstr(&rest, " ms");
		snprintf(k, sizeof(k), "%s percentiles", key);
		meta_set_put(ms, section, k, rest.s);
	}
	strbuf_release(&rest);
	if (t != JSON_ARR_END)
		t = json_skip(j, t);
	return t;
}

static enum json_tok trex_section(struct meta_set *ms, struct json *j, const char *section)
{
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		char key[160];
		const char *unit = "";

		snprintf(key, sizeof(key), "%.*s", (int)(j->len < 150 ? j->len : 150), j->s);
		for (size_t i = 0; i < ARRAY_SIZE(trex_units); i++)
			if (!strcmp(key, trex_units[i].key))
				unit = trex_units[i].unit;
		t = json_next(j);
		if (t == JSON_STRING || t == JSON_NUMBER) {
			struct strbuf v = STRBUF_INIT;

			strbuf_add(&v, j->s, j->len);
			if (t == JSON_NUMBER)
				strbuf_addstr(&v, unit);
			if (v.len)
				meta_set_put(ms, section, key, v.s);
			strbuf_release(&v);
		} else if (t == JSON_TRUE || t == JSON_FALSE) {
			meta_set_put(ms, section, key, t == JSON_TRUE ? "true" : "false");
		} else if (t == JSON_ARR_BEGIN) {
			t = trex_stats(ms, j, section, key);
			if (json_failed(t))
				return t;
			continue;
		}
		t = json_skip(j, t);
		if (json_failed(t))
			return t;
	}
	return t;
}

/* The Info section of the member whose name was just read: the log's
 * name for a block we know, else the name with blanks for '_'. */
static void section_of(const struct json *j, char *section, size_t cap)
{
	snprintf(section, cap, "%.*s", (int)(j->len < cap - 1 ? j->len : cap - 1), j->s);
	for (size_t i = 0; i < ARRAY_SIZE(trex_sections); i++)
		if (!strcmp(section, trex_sections[i].json))
			snprintf(section, cap, "%s", trex_sections[i].section);
	for (char *c = section; *c; c++)
		if (*c == '_')
			*c = ' ';
}

static int trex_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct json j;
	struct meta_set ms;
	enum json_tok t;
	size_t nr = 0;
	int rc = 0;

	meta_set_init(&ms, p);
	json_init(&j, in, d);
	if (json_expect_open(&j, JSON_OBJ_BEGIN, &t)) {
		while ((t = json_next_key(&j)) == JSON_KEY) {
			char section[64];

			section_of(&j, section, sizeof(section));
			t = json_next(&j);
			if (t == JSON_OBJ_BEGIN) {
				t = trex_section(&ms, &j, section);
				if (t != JSON_OBJ_END)
					break;
				nr++;
				continue;
			}
			t = json_skip(&j, t);
			if (json_failed(t))
				break;
		}
	}
	if (t == JSON_OBJ_END) {
		json_check_end(&j, "JSON document");
	} else if (json_failed(t)) {
		rc = trt_report_end(&j, t, "metadata", nr);
	} else {
		struct pos at = json_pos(&j);

		diag_error(d, &at, "expected a JSON object of trex metadata sections");
		rc = -1;
	}
	meta_set_release(&ms);
	json_release(&j);
	return rc;
}

static int trex_probe(const char *head, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(trex_sections); i++)
		if (trt_opens_with(head, len, '{', 0, trex_sections[i].json))
			return 85;
	return 0;
}

const struct parser trex_metadata_parser = {
	.name = "trex-metadata",
	.family = "tensorrt",
	.engine_suffixes = (const char *const[]){ ".profile.metadata.json", ".build.metadata.json", NULL },
	.summary = "trex (TensorRT engine explorer) *.metadata.json: trtexec log blocks",
	.probe = trex_probe,
	.parse = trex_parse,
};

