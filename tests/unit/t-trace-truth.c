// SPDX-License-Identifier: MIT
/*
 * The trace is the truth.  Each op's device self time is worked out here
 * from a Kineto trace's own events, with none of the parser's code: every
 * device event (kernel, gpu_memcpy, gpu_memset) joins its launch by
 * correlation, whatever the launch's category (a runtime or driver API,
 * CUDA, HIP or another backend's), and counts for the innermost cpu_op
 * that encloses the launch's start on the launch's thread.  Summed by op
 * name, that must equal proftui's op nodes and Operators rows to the ns,
 * and the device work no op launched must equal what Info says of it.
 * This is where proftui departs from torch-tb-profiler (proftui(1),
 * DIFFERENCES), so it is checked against the events, never the plugin.
 *
 * Then the tables must add up, on the profile: device self over op nodes
 * plus what no op launched equals the device events' total; an op's
 * total covers its self; a module's self plus its child modules equals
 * its total; a step's parts equal the step.
 *
 * On the fixtures of this repository (always) and on every Kineto trace
 * of the corpus (skipped, saying so, when it is absent).
 */
#include <dirent.h>
#include <stdarg.h>
#include <strings.h>

#include "model/aggregate.h"
#include "model/modules.h"
#include "parsers/parser.h"
#include "test.h"
#include "decimal-ns.h"
#include "jsonval.h"

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcasecmp(s + n - m, tail);
}

static const char *str_of(const struct jv *v)
{
	return v && (v->type == JV_STR || v->type == JV_NUM) ? v->str : NULL;
}

struct op_ev {
	const char *tid, *name;
	int64_t start, end;
};

struct launch_ev {
	const char *tid, *corr;
	int64_t start;
};

struct dev_ev {
	const char *corr;
	int64_t dur;
};

struct truth {
	struct op_ev *ops;
	size_t nr_ops, alloc_ops;
	struct launch_ev *launches;
	size_t nr_launches, alloc_launches;
	struct dev_ev *devs;
	size_t nr_devs, alloc_devs;
	/* The answer: device self by op name, and what no op launched. */
	const char **names;
	int64_t *self_ns;
	size_t nr_names, alloc_names, alloc_self_ns;
	int64_t no_op_ns, device_ns;
};

static int cmp_op(const void *a, const void *b)
{
	const struct op_ev *x = a, *y = b;
	int c = strcmp(x->tid, y->tid);

	if (c)
		return c;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end < y->end) - (x->end > y->end);
}

static int cmp_launch(const void *a, const void *b)
{
	return strcmp(((const struct launch_ev *)a)->corr, ((const struct launch_ev *)b)->corr);
}

static void add_self(struct truth *t, const char *name, int64_t ns)
{
	for (size_t i = 0; i < t->nr_names; i++)
		if (!strcmp(t->names[i], name)) {
			t->self_ns[i] += ns;
			return;
		}
	GROW(t->names, t->alloc_names, t->nr_names + 1);
	GROW(t->self_ns, t->alloc_self_ns, t->nr_names + 1);
	t->names[t->nr_names] = name;
	t->self_ns[t->nr_names++] = ns;
}

/* The innermost op of thread TID enclosing AT: of the ops that start by
 * AT, the latest-starting (ties: the shortest) whose end is not before it. */
static const struct op_ev *enclosing(const struct truth *t, const char *tid, int64_t at)
{
	size_t lo = 0, hi = t->nr_ops;

	/* The ops are by thread, start, then end descending: past the last
	 * of TID's that starts by AT, then back to the first that covers
	 * it -- the latest start, and of those the shortest. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(t->ops[mid].tid, tid);

		if (c < 0 || (!c && t->ops[mid].start <= at))
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0 && !strcmp(t->ops[lo].tid, tid))
		if (t->ops[lo].end >= at)
			return &t->ops[lo];
	return NULL;
}

/* The truth of the events of DOC (a trace's document). */
static void work_out(const struct jv *doc, struct truth *t)
{
	const struct jv *evs = doc->type == JV_ARR ? doc : jv_get(doc, "traceEvents");

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; evs && i < evs->nr; i++) {
		const struct jv *e = &evs->items[i], *args = jv_get(e, "args");
		const char *ph = str_of(jv_get(e, "ph")), *cat = str_of(jv_get(e, "cat"));
		const char *name = str_of(jv_get(e, "name")), *tid = str_of(jv_get(e, "tid"));
		const char *ts = str_of(jv_get(e, "ts")), *dur = str_of(jv_get(e, "dur"));
		const char *corr = args ? str_of(jv_get(args, "correlation")) : NULL;

		if (!ph || strcmp(ph, "X") || !cat || !name || !ts || !tid)
			continue;
		if (!strcasecmp(cat, "cpu_op") || !strcasecmp(cat, "operator")) {
			if (!strncmp(name, "ProfilerStep#", 13))
				continue;
			GROW(t->ops, t->alloc_ops, t->nr_ops + 1);
			t->ops[t->nr_ops++] = (struct op_ev){ tid, name, decimal_ns(ts),
							      decimal_ns(ts) + (dur ? decimal_ns(dur) : 0) };
		} else if ((ends_with(cat, "_runtime") || ends_with(cat, "_driver") ||
			    !strcasecmp(cat, "runtime")) && corr) {
			GROW(t->launches, t->alloc_launches, t->nr_launches + 1);
			t->launches[t->nr_launches++] = (struct launch_ev){ tid, corr, decimal_ns(ts) };
		} else if (!strcasecmp(cat, "kernel") || !strcasecmp(cat, "gpu_memcpy") ||
			   !strcasecmp(cat, "gpu_memset") || !strcasecmp(cat, "memcpy") ||
			   !strcasecmp(cat, "memset")) {
			GROW(t->devs, t->alloc_devs, t->nr_devs + 1);
			t->devs[t->nr_devs++] = (struct dev_ev){ corr, dur ? decimal_ns(dur) : 0 };
		}
	}
	if (t->nr_ops)
		qsort(t->ops, t->nr_ops, sizeof(*t->ops), cmp_op);
	if (t->nr_launches)
		qsort(t->launches, t->nr_launches, sizeof(*t->launches), cmp_launch);
	for (size_t i = 0; i < t->nr_devs; i++) {
		struct launch_ev key = { .corr = t->devs[i].corr }, *l;
		const struct op_ev *o;

		t->device_ns += t->devs[i].dur;
		if (!key.corr)
			continue;
		l = t->nr_launches ? bsearch(&key, t->launches, t->nr_launches, sizeof(key), cmp_launch)
				   : NULL;
		if (!l)
			continue;	/* launched by no call: no op's either */
		o = enclosing(t, l->tid, l->start);
		if (o)
			add_self(t, o->name, t->devs[i].dur);
		else
			t->no_op_ns += t->devs[i].dur;
	}
}

static void truth_release(struct truth *t)
{
	free(t->ops);
	free(t->launches);
	free(t->devs);
	free(t->names);
	free(t->self_ns);
}

/* Sums over the tree: device self of op nodes by name, and the parts of
 * the device events' total. */
struct sums {
	const struct profile *p;
	struct truth by_name;		/* names and self_ns only */
	int64_t op_self, runtime_not_op, device_not_runtime, device_all;
	int nr_bad;
};

static void bad(struct sums *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void bad(struct sums *s, const char *fmt, ...)
{
	va_list ap;

	if (s->nr_bad++ >= 10)
		return;
	fprintf(stderr, "  ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

static bool visit(struct node *n, void *ctx)
{
	struct sums *s = ctx;
	const struct profile *p = s->p;
	const struct node *parent = node_parent(n);

	if (n->kind == NODE_OP) {
		add_self(&s->by_name, node_name(n), node_device_self(p, n));
		s->op_self += node_device_self(p, n);
		if (node_device_total(p, n) < node_device_self(p, n))
			bad(s, "op '%s': device total %lld below its self %lld", node_name(n),
			    (long long)node_device_total(p, n), (long long)node_device_self(p, n));
	} else if (n->kind == NODE_RUNTIME && parent && parent->kind != NODE_OP) {
		s->runtime_not_op += node_device_total(p, n);
	} else if (node_kind_is_device(n->kind)) {
		s->device_all += node_device_total(p, n);
		if (!parent || parent->kind != NODE_RUNTIME)
			s->device_not_runtime += node_device_total(p, n);
	} else if (n->kind == NODE_MODULE) {
		int64_t parts = 0;

		for (const struct node *c = node_first_child(n); c; c = node_next(c))
			parts += node_device_total(p, c);
		if (parts != node_device_total(p, n))
			bad(s, "module '%s': its children's device time %lld, its total %lld",
			    node_name(n), (long long)parts, (long long)node_device_total(p, n));
	}
	return true;
}

/* "N runtime calls, X us of device time" in ns; 0 when there is none. */
static int64_t info_no_op_ns(const struct profile *p)
{
	const char *v = profile_meta_get(p, "device work", "launched outside every op (no op's)");
	const char *comma = v ? strstr(v, ", ") : NULL;

	return comma ? decimal_ns(comma + 2) : 0;
}

static void check_sums(const struct profile *p, struct sums *s)
{
	struct module_view mv;
	struct agg ops;

	node_walk(p->root, visit, s);
	/* Every device event is an op's, a runtime's outside any op, or
	 * launched by nothing. */
	if (s->op_self + s->runtime_not_op + s->device_not_runtime != s->device_all)
		bad(s, "op self + no op's + unlaunched = %lld, device events %lld",
		    (long long)(s->op_self + s->runtime_not_op + s->device_not_runtime),
		    (long long)s->device_all);
	/* The Operators pane is the op nodes, row by row. */
	agg_ops(p, NULL, &ops);
	for (size_t i = 0; i < ops.nr; i++)
		for (size_t j = 0; j < s->by_name.nr_names; j++)
			if (!strcmp(s->by_name.names[j], ops.rows[i].name) &&
			    ops.rows[i].device_self_ns != s->by_name.self_ns[j])
				bad(s, "row '%s': device self %lld, its nodes %lld", ops.rows[i].name,
				    (long long)ops.rows[i].device_self_ns,
				    (long long)s->by_name.self_ns[j]);
	agg_release(&ops);
	/* A module's self and its child modules make its total. */
	module_view(p, &mv);
	for (size_t i = 0; i < mv.nr; i++) {
		int64_t parts = mv.rows[i].device_self_ns;

		for (size_t j = i + 1; j < mv.nr; j++)
			if (mv.rows[j].parent == i)
				parts += mv.rows[j].device_total_ns;
		if (parts != mv.rows[i].device_total_ns)
			bad(s, "module row '%s': self and children %lld, total %lld",
			    mv.rows[i].name, (long long)parts, (long long)mv.rows[i].device_total_ns);
	}
	module_view_release(&mv);
	/* A step's parts make the step. */
	for (size_t i = 0; i < p->nr_steps; i++) {
		int64_t parts = 0;
		bool any = false;

		for (size_t c = 0; c < p->nr_step_cats; c++)
			if (p->steps[i].cat_ns[c] >= 0) {
				parts += p->steps[i].cat_ns[c];
				any = true;
			}
		if (any && parts != p->steps[i].total_ns)
			bad(s, "step '%s': parts %lld, total %lld", p->steps[i].name,
			    (long long)parts, (long long)p->steps[i].total_ns);
	}
}

/* The trace at PATH against its own events; false when it is not there. */
static bool check_trace(const char *path)
{
	struct jv doc;
	struct truth t;
	struct profile p;
	struct sums s = { .p = &p };
	const char *paths[1] = { path };
	struct load_options opt = { 0 };
	FILE *f = fopen(path, "rb");

	if (!f)
		return false;
	fclose(f);
	CHECK_EQ(jv_load(path, &doc), 0);
	work_out(&doc, &t);
	opt.err = fopen("/dev/null", "w");
	profile_init(&p, path);
	CHECK_EQ(profile_load(&p, paths, 1, &opt), 0);
	if (opt.err)
		fclose(opt.err);
	check_sums(&p, &s);
	for (size_t i = 0; i < t.nr_names; i++) {
		int64_t ours = 0;

		for (size_t j = 0; j < s.by_name.nr_names; j++)
			if (!strcmp(s.by_name.names[j], t.names[i]))
				ours = s.by_name.self_ns[j];
		if (ours != t.self_ns[i])
			bad(&s, "op '%s': device self %lld ns, the events say %lld", t.names[i],
			    (long long)ours, (long long)t.self_ns[i]);
	}
	/* An op the events give nothing has nothing. */
	for (size_t j = 0; j < s.by_name.nr_names; j++) {
		bool known = false;

		for (size_t i = 0; i < t.nr_names && !known; i++)
			known = !strcmp(s.by_name.names[j], t.names[i]);
		if (!known && s.by_name.self_ns[j])
			bad(&s, "op '%s': device self %lld ns, the events say none",
			    s.by_name.names[j], (long long)s.by_name.self_ns[j]);
	}
	if (info_no_op_ns(&p) != t.no_op_ns)
		bad(&s, "Info says %lld ns launched outside every op, the events %lld",
		    (long long)info_no_op_ns(&p), (long long)t.no_op_ns);
	if (s.nr_bad) {
		fprintf(stderr, "  in %s\n", path);
		test_failed = 1;
	}
	free(s.by_name.names);
	free(s.by_name.self_ns);
	truth_release(&t);
	profile_release(&p);
	jv_free(&doc);
	return true;
}

/* The Kineto fixtures of this repository: every case of a departure. */
static void test_fixtures(void)
{
	static const char *const fixtures[] = {
		"tests/golden/kineto/launches.json",
		"tests/golden/kineto/two-steps.json",
		"tests/golden/kineto/negative.json",
		"tests/golden/kineto/gpu-step-copies.json",
		"tests/golden/kineto/gpu-ranges.json",
		"tests/golden/kineto/long-times.json",
		"tests/golden/kineto/no-steps-device-tail.json",
		"tests/golden/modules/small.json",
	};

	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
		CHECK(check_trace(fixtures[i]));
}

/* Every Kineto trace of the corpus, single and in sets. */
static void test_corpus(void)
{
	static const char *const dirs[] = { "pytorch-kineto-trace",
					     "pytorch-kineto-multi/hta_trace_diff" };
	size_t nr = 0;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		char dir[1024];
		DIR *dp;
		struct dirent *de;

		snprintf(dir, sizeof(dir), "%s/%s", test_corpus_dir(), dirs[d]);
		if (!(dp = opendir(dir)))
			continue;
		while ((de = readdir(dp))) {
			char path[2048];

			if (!ends_with(de->d_name, ".json.gz"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			nr += check_trace(path);
		}
		closedir(dp);
	}
	if (!nr)
		SKIP("no corpus Kineto trace (../shared/corpus or PROFTUI_CORPUS)");
}

const struct test tests[] = {
	{ "the fixtures' device time is where their events put it, and adds up", test_fixtures },
	{ "the corpus traces' device time is where their events put it, and adds up",
	  test_corpus },
	{ 0 },
};
