// SPDX-License-Identifier: MIT
/*
 * Parity of the Module view with torch-tb-profiler on the corpus: for each
 * trace the plugin made a Module view of (module_view), the same forest
 * of modules -- roots in its order, each module's children the same
 * modules (matched by name and id; the plugin's child order is its
 * Python ids' and may differ from the calls' order) -- with equal
 * occurrences and operators and host/device total/self times within
 * 1 us; for each trace it made none of, no modules here.
 */
#include <math.h>

#include "model/modules.h"
#include "parsers/parser.h"
#include "test.h"
#include "jsonval.h"

#include "parity.h"

static int nr_bad;

/* The trace's departures from the plugin (parity.h). */
static unsigned departs;

static void near(const char *what, const char *name, double ours, double ref, double tol)
{
	if (fabs(ours - ref) <= tol)
		return;
	if (nr_bad++ < 15)
		fprintf(stderr, "  %s of '%s': ours %.3f, reference %.3f\n", what, name, ours, ref);
	test_failed = 1;
}

/* Compare the plugin's module REF with our row R and, recursively, their
 * children; returns how many rows it matched. */
static size_t check_module(const struct module_view *v, size_t r, const struct jv *ref)
{
	const struct module_row *row = &v->rows[r];
	const char *name = jv_get(ref, "name")->str;
	const struct jv *kids = jv_get(ref, "children");
	bool *used;
	size_t matched = 1;

	if (strcmp(row->name, name) || row->module_id != (int64_t)jv_get(ref, "id")->num) {
		if (nr_bad++ < 15)
			fprintf(stderr, "  module '%s' (%lld), reference '%s'\n", row->name,
				(long long)row->module_id, name);
		test_failed = 1;
		return 1;
	}
	near("occurrences", name, (double)row->occurrences, jv_get(ref, "occurences")->num, 0);
	near("operators", name, (double)row->operators, jv_get(ref, "operators")->num, 0);
	near("host total", name, row->host_total_ns / 1e3, jv_get(ref, "host_duration")->num,
	     1 + (departs & DEPART_NS ? 0.25 * (double)row->occurrences : 0));
	/* What a module launched is where the launches were made: the
	 * plugin misses the driver API's and gives a module launches made
	 * outside it (parity.h); t-trace-truth checks them. */
	if (!(departs & DEPART_LAUNCHES)) {
		near("host self", name, row->host_self_ns / 1e3, jv_get(ref, "self_host_duration")->num,
		     1);
		near("device total", name, row->device_total_ns / 1e3,
		     jv_get(ref, "device_duration")->num, 1);
		near("device self", name, row->device_self_ns / 1e3,
		     jv_get(ref, "self_device_duration")->num, 1);
	}
	used = xcalloc(kids->nr + 1, 1);
	for (size_t c = r + 1; c < v->nr && v->rows[c].depth > row->depth; c++) {
		size_t k;

		if (v->rows[c].parent != r)
			continue;
		for (k = 0; k < kids->nr; k++)
			if (!used[k] && !strcmp(jv_get(&kids->items[k], "name")->str, v->rows[c].name) &&
			    (int64_t)jv_get(&kids->items[k], "id")->num == v->rows[c].module_id)
				break;
		if (k == kids->nr) {
			if (nr_bad++ < 15)
				fprintf(stderr, "  '%s' under '%s' is not in the reference\n",
					v->rows[c].name, name);
			test_failed = 1;
			continue;
		}
		used[k] = true;
		matched += check_module(v, c, &kids->items[k]);
	}
	free(used);
	return matched;
}

static size_t count_ref(const struct jv *list)
{
	size_t n = 0;

	for (size_t i = 0; i < list->nr; i++)
		n += 1 + count_ref(jv_get(&list->items[i], "children"));
	return n;
}

static void check_trace(size_t i)
{
	struct profile p;
	struct module_view v;
	struct jv doc;
	const struct jv *data;
	char path[1200];
	size_t matched = 0, r = 0;

	if (parity_load(i, &p))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	nr_bad = 0;
	departs = parity_departs[i];
	module_view(&p, &v);
	if (!parity_path(i, "module_view", path, sizeof(path))) {
		CHECK_EQ(v.nr, 0);
		goto out;
	}
	if (jv_load(path, &doc)) {
		test_failed = 1;
		goto out;
	}
	data = jv_get(&doc, "data");
	for (size_t k = 0; k < data->nr; k++) {
		while (r < v.nr && v.rows[r].depth)
			r++;
		if (r == v.nr) {
			fprintf(stderr, "  fewer roots than the reference's %zu\n", data->nr);
			test_failed = 1;
			break;
		}
		matched += check_module(&v, r++, &data->items[k]);
	}
	if (matched != v.nr || v.nr != count_ref(data)) {
		fprintf(stderr, "  %zu module rows (%zu matched), reference has %zu\n", v.nr, matched,
			count_ref(data));
		test_failed = 1;
	}
	jv_free(&doc);
out:
	module_view_release(&v);
	profile_release(&p);
}

PARITY_TESTS(check_trace, "module view");
