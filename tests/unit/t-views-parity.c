// SPDX-License-Identifier: MIT
/*
 * The views torch-tb-profiler shows for each corpus trace (views.json,
 * its /views route) against what proftui has to show: every view it lists
 * has a proftui pane with rows, and the views that depend on what a trace
 * recorded (Kernel, Memory, Module) have rows here exactly when the
 * plugin lists them.  The panes decide from the same model functions:
 * the Overview from the steps and device time, Operators from agg_ops(),
 * Kernels from agg_kernels(), Memory from the [memory] events' statistics,
 * Modules from module_view(), the Trace view (a timeline) from the
 * Timeline pane's index, timeline_build().
 */
#include "model/aggregate.h"
#include "model/memory.h"
#include "model/modules.h"
#include "model/timeline.h"
#include "parsers/parser.h"
#include "test.h"
#include "jsonval.h"

#include "parity.h"

enum { V_OVERVIEW, V_OPERATOR, V_KERNEL, V_TRACE, V_MEMORY, V_MODULE, NR_VIEWS };

static const char *const view_names[NR_VIEWS] = {
	"Overview", "Operator", "Kernel", "Trace", "Memory", "Module",
};

/* Whether proftui's pane for view V has rows for P. */
static bool shown(const struct profile *p, int v)
{
	struct agg a = { 0 };
	struct agg_scope all = { 0 };
	struct mem_stats s;
	struct module_view m;
	bool yes = false;

	switch (v) {
	case V_OVERVIEW:
		return p->nr_steps || p->has_device_time;
	case V_OPERATOR:
	case V_KERNEL:
		(v == V_OPERATOR ? agg_ops : agg_kernels)(p, &all, &a);
		yes = a.nr > 0;
		agg_release(&a);
		return yes;
	case V_TRACE: {
		struct timeline tl;

		timeline_build(p, &tl);
		yes = tl.nr_blocks > 0;
		timeline_release(&tl);
		return yes;
	}
	case V_MEMORY:
		mem_stats(p, NULL, &s);
		yes = s.nr > 0;
		mem_stats_release(&s);
		return yes;
	case V_MODULE:
		module_view(p, &m);
		yes = m.nr > 0;
		module_view_release(&m);
		return yes;
	}
	return false;
}

static void check_trace(size_t i)
{
	struct profile p;
	struct jv doc;
	char path[1200];
	bool listed[NR_VIEWS] = { false };

	if (parity_load(i, &p))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	if (!parity_path(i, "views", path, sizeof(path)) || jv_load(path, &doc)) {
		test_failed = 1;
		goto out;
	}
	(void)jv_get;	/* jsonval.h's, unused here: views.json is one array */
	CHECK_EQ(doc.type, JV_ARR);
	for (size_t k = 0; k < doc.nr; k++) {
		int v;

		for (v = 0; v < NR_VIEWS && strcmp(doc.items[k].str, view_names[v]); v++)
			;
		if (v == NR_VIEWS) {
			fprintf(stderr, "  the plugin shows a view proftui has no pane for: %s\n",
				doc.items[k].str);
			test_failed = 1;
			continue;
		}
		listed[v] = true;
	}
	for (int v = 0; v < NR_VIEWS; v++) {
		bool ours = shown(&p, v);

		if (listed[v] && !ours) {
			fprintf(stderr, "  the plugin shows %s, proftui's pane is empty\n",
				view_names[v]);
			test_failed = 1;
		}
		if (!listed[v] && ours && (v == V_KERNEL || v == V_MEMORY || v == V_MODULE)) {
			fprintf(stderr, "  proftui shows %s, the plugin does not\n", view_names[v]);
			test_failed = 1;
		}
	}
	jv_free(&doc);
out:
	profile_release(&p);
}

PARITY_TESTS(check_trace, "views");
