/* SPDX-License-Identifier: MIT */
/*
 * The frequent kernel sequences (model/kernel_seq.c) against Holistic
 * Trace Analysis's get_frequent_cuda_kernel_sequences() on every corpus
 * trace (corpus/hta-expected and hta-expected-multi,
 * <base>__hta_frequent_cuda_kernel_sequences.json, README.md there,
 * section 10).
 *
 * Where HTA has a result, proftui runs under HTA's conditions through
 * kseq_options only -- the operator named in the header matched as a
 * substring, timestamps rounded to whole microseconds, the last
 * ProfilerStep left out -- and proftui's default operator (under the same
 * conditions, by exact name) must be the header's.  Every HTA pattern:
 * its count exactly, its GPU and CPU durations within 1 us.  HTA counts
 * cuda_sync events ("Stream Wait Event"...) as GPU events; proftui's
 * model holds none (proftui(1), DIFFERENCES FROM HOLISTIC TRACE
 * ANALYSIS): a pattern holding one is checked against proftui's with the
 * sync events taken out, its count and CPU time summed over the HTA
 * patterns that become one.
 *
 * Where HTA had no operator to pick (no cpu_op launched 3 kernels),
 * proftui has no default operator either.  Where HTA raised (its call
 * graph on a duration rounded to -1 us, or on string thread ids),
 * proftui's own result is checked against the trace's events counted
 * another way.
 */
#include <math.h>
#include <stdarg.h>

#include "model/hta_time.h"
#include "model/kernel_seq.h"
#include "model/strbuf.h"
#include "parsers/load.h"
#include "test.h"
#include "jsonval.h"
#include "hta-json.h"
#include "hta-step.h"

static int nr_bad;

static void bad(const char *fmt, ...) PRINTF_LIKE(1, 2);

static void bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (nr_bad++ < 20)
		vfprintf(stderr, fmt, ap);
	va_end(ap);
	test_failed = 1;
}

/* Load the corpus file REL into P; false (the test skips) when absent. */
static bool load(struct profile *p, const char *rel, char *path, size_t cap)
{
	struct load_options lo = { 0 };
	const char *paths[1] = { path };
	FILE *f;

	snprintf(path, cap, "%s/%s", test_corpus_dir(), rel);
	if (!(f = fopen(path, "rb")))
		return false;
	fclose(f);
	profile_init(p, path);
	CHECK(profile_load(p, paths, 1, &lo) == 0);
	return true;
}

static bool is_sync(const char *s, size_t n)
{
	static const char *const names[] = { "Stream Wait Event", "Event Sync", "Context Sync",
					     "Stream Sync" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], s, n))
			return true;
	return false;
}

/* TEXT (names joined by '|') less its sync events, into OUT; whether it
 * held one.  A name holds no '|' in these traces (the patterns' names are
 * then its parts). */
static bool strip_sync(const char *text, struct strbuf *out)
{
	bool had = false;

	strbuf_reset(out);
	for (const char *s = text;;) {
		const char *e = strchr(s, '|');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (is_sync(s, n)) {
			had = true;
		} else {
			if (out->len)
				strbuf_addch(out, '|');
			strbuf_add(out, s, n);
		}
		if (!e)
			break;
		s = e + 1;
	}
	return had;
}

static void pattern_text(const struct kseq_pattern *k, struct strbuf *out)
{
	strbuf_reset(out);
	for (size_t i = 0; i < k->nr_names; i++) {
		if (i)
			strbuf_addch(out, '|');
		strbuf_addstr(out, k->names[i]);
	}
}

/* Ours whose text is TEXT, or NULL. */
static const struct kseq_pattern *find(const struct kseq_result *r, const char *text)
{
	struct strbuf t = { 0 };
	const struct kseq_pattern *found = NULL;

	for (size_t i = 0; i < r->nr_patterns && !found; i++) {
		pattern_text(&r->patterns[i], &t);
		if (!strcmp(t.s, text))
			found = &r->patterns[i];
	}
	strbuf_release(&t);
	return found;
}

/* What HTA's rows sum to for one of our patterns. */
struct want {
	char *text;
	double count, gpu_us, cpu_us;
	bool synced;			/* made from rows with sync events */
};

static void check_ok(const char *trace, const char *expected)
{
	char path[1024], ref[1200];
	struct profile p;
	struct kseq_options o;
	struct kseq_result r;
	struct jv doc;
	const struct jv *hdr, *frame, *data, *opv;
	const char *dflt;
	struct strbuf t = { 0 };
	struct want *w = NULL;
	size_t nr_w = 0;

	if (!load(&p, trace, path, sizeof(path)))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	snprintf(ref, sizeof(ref), "%s/%s__hta_frequent_cuda_kernel_sequences.json",
		 test_corpus_dir(), expected);
	nr_bad = 0;
	CHECK_EQ(jv_load(ref, &doc), 0);
	hdr = jv_get(&doc, "header");
	opv = jv_get(hdr, "operator_name");
	frame = jv_get(jv_get(&doc, "result"), "frequent_cuda_kernel_sequences");
	data = jv_get(frame, "data");
	CHECK(opv && opv->type == JV_STR && data);
	if (!opv || opv->type != JV_STR || !data) {
		jv_free(&doc);
		profile_release(&p);
		return;
	}
	kseq_options_default(&o);
	o.round_like_hta = true;
	hta_last_step(&p, &o.launched_before_ns);

	/* The operator HTA's script picked is proftui's default. */
	dflt = kseq_default_op(&p, &o);
	CHECK(dflt != NULL);
	if (dflt && strcmp(dflt, opv->str)) {
		fprintf(stderr, "  default operator: proftui %s, HTA %s\n", dflt, opv->str);
		test_failed = 1;
	}

	o.substring = true;
	kseq_compute(&p, opv->str, &o, &r);
	CHECK_EQ(r.nr_capped, 0);

	/* HTA's rows, those with sync events merged as proftui sees them. */
	w = xcalloc(data->nr + 1, sizeof(*w));
	for (size_t i = 0; i < data->nr; i++) {
		const struct jv *row = &data->items[i];
		bool synced;
		size_t k;

		if (row->nr < 4 || row->items[0].type != JV_STR) {
			bad("  row %zu: not a pattern\n", i);
			continue;
		}
		synced = strip_sync(row->items[0].str, &t);
		for (k = 0; k < nr_w && strcmp(w[k].text, t.s); k++)
			;
		if (k == nr_w)
			w[nr_w++].text = xstrdup(t.s);
		w[k].count += jnum(&row->items[1]);
		w[k].gpu_us += jnum(&row->items[2]);
		w[k].cpu_us += jnum(&row->items[3]);
		w[k].synced |= synced;
	}
	for (size_t k = 0; k < nr_w; k++) {
		const struct kseq_pattern *ours = find(&r, w[k].text);

		if (!ours) {
			bad("  HTA's pattern %.200s (count %g): not proftui's\n", w[k].text, w[k].count);
			continue;
		}
		if ((double)ours->count != w[k].count)
			bad("  %.120s: count proftui %g, HTA %g\n", w[k].text, (double)ours->count,
			    w[k].count);
		if (fabs(ours->cpu_ns / 1e3 - w[k].cpu_us) > 1)
			bad("  %.120s: CPU proftui %.17g, HTA %.17g\n", w[k].text, ours->cpu_ns / 1e3,
			    w[k].cpu_us);
		/* A sync event's duration is in HTA's GPU time, not ours. */
		if (!w[k].synced && fabs(ours->gpu_ns / 1e3 - w[k].gpu_us) > 1)
			bad("  %.120s: GPU proftui %.17g, HTA %.17g\n", w[k].text, ours->gpu_ns / 1e3,
			    w[k].gpu_us);
		if (w[k].synced && ours->gpu_ns / 1e3 > w[k].gpu_us + 1)
			bad("  %.120s: GPU proftui %.17g above HTA's %.17g\n", w[k].text,
			    ours->gpu_ns / 1e3, w[k].gpu_us);
	}
	/* And nothing more than HTA's. */
	CHECK_EQ(r.nr_patterns, nr_w);
	for (size_t k = 0; k < nr_w; k++)
		free(w[k].text);
	free(w);
	strbuf_release(&t);
	kseq_release(&r);
	jv_free(&doc);
	profile_release(&p);
}

static void t_simple_add(void)
{
	check_ok("pytorch-kineto-trace/hta_critical_path_simple_add_benchmark_result_493459_1694039959"
		 "_trace.json.gz",
		 "hta-expected/hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace");
}

static void t_diff_control(void)
{
	check_ok("pytorch-kineto-multi/hta_trace_diff/control.json.gz",
		 "hta-expected-multi/hta_trace_diff/control");
}

static void t_diff_test(void)
{
	check_ok("pytorch-kineto-multi/hta_trace_diff/test.json.gz",
		 "hta-expected-multi/hta_trace_diff/test");
}

/* No cpu_op launched 3 GPU events: HTA's script had no operator to pick,
 * and proftui has no default operator. */
static void check_no_op(const char *trace)
{
	char path[1024];
	struct profile p;
	struct kseq_options o;

	if (!load(&p, trace, path, sizeof(path)))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	kseq_options_default(&o);
	o.round_like_hta = true;
	hta_last_step(&p, &o.launched_before_ns);
	CHECK(kseq_default_op(&p, &o) == NULL);
	CHECK(kseq_default_op(&p, NULL) == NULL);
	profile_release(&p);
}

/* The instances counted another way: every host node called NAME, its
 * depth from its ancestors, its GPU events from a walk of its own. */
static bool is_host(const struct node *n)
{
	return n->kind != NODE_ROOT && n->kind != NODE_THREAD && n->kind != NODE_GROUP &&
	       !node_kind_is_device(n->kind) && !(n->flags & NODE_DEVICE_RANGE);
}

struct truth {
	const struct profile *p;
	const char *name;
	uint64_t nr_gpu;
	int64_t gpu_ns;
	/* per depth up to 64: instances with >= 3 GPU events, their sums */
	uint64_t count[64];
	int64_t gpu[64], cpu[64];
};

static bool count_gpu(struct node *n, void *ctx)
{
	struct truth *t = ctx;

	if (node_kind_is_device(n->kind) && node_is_timed(n)) {
		t->nr_gpu++;
		t->gpu_ns += node_device_total(t->p, n);
	}
	return true;
}

static bool truth_visit(struct node *n, void *ctx)
{
	struct truth *t = ctx;
	unsigned depth = 0;

	if (!is_host(n) || node_name(n) != t->name || !node_is_timed(n))
		return true;
	for (const struct node *a = node_parent(n); a; a = node_parent(a))
		depth += is_host(a);
	t->nr_gpu = 0;
	t->gpu_ns = 0;
	node_walk(n, count_gpu, t);
	if (t->nr_gpu >= 3 && depth < 64) {
		t->count[depth]++;
		t->gpu[depth] += t->gpu_ns;
		t->cpu[depth] += node_host_total(t->p, n);
	}
	return true;
}

struct neg_scan {
	const struct profile *p;
	uint64_t nr;
};

static bool neg_visit(struct node *n, void *ctx)
{
	struct neg_scan *s = ctx;
	int64_t d;

	if (!node_is_timed(n) || n->kind == NODE_ROOT || n->kind == NODE_THREAD)
		return true;
	d = node_kind_is_device(n->kind) ? node_device_total(s->p, n) : node_host_total(s->p, n);
	if (hta_end_ns(n->start_ns, d) < hta_start_ns(n->start_ns))
		s->nr++;
	return true;
}

/* Ops whose subtree holds 3 GPU events. */
struct busy_ops {
	const struct profile *p;
	uint64_t nr;
};

static bool busy_visit(struct node *n, void *ctx)
{
	struct busy_ops *b = ctx;
	struct truth t = { .p = b->p };

	if (n->kind != NODE_OP || !node_is_timed(n))
		return true;
	node_walk(n, count_gpu, &t);
	b->nr += t.nr_gpu >= 3;
	return true;
}

enum hta_error { E_DUR, E_TID };

/* HTA raised: proftui's own result, with its default operator, against
 * the trace's events counted another way. */
static void check_raised(const char *trace, enum hta_error e)
{
	char path[1024];
	struct profile p;
	struct kseq_result r;
	struct truth *t;
	const char *op;
	uint64_t count = 0;
	int64_t gpu = 0, cpu = 0;
	int d;

	if (!load(&p, trace, path, sizeof(path)))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	if (e == E_DUR) {
		/* HTA's ValueError "Unexpected case" in its call stack: an
		 * event whose rounded duration is -1 us.  The trace has them. */
		struct neg_scan s = { &p, 0 };

		node_walk(p.root, neg_visit, &s);
		CHECK(s.nr > 0);
	}
	/* (E_TID: HTA's TypeError on the string tids of old tb_plugin
	 * traces, which proftui reads.) */
	op = kseq_default_op(&p, NULL);
	if (!op) {
		/* No op launched 3 GPU events: none, counted another way. */
		struct busy_ops b = { &p, 0 };

		node_walk(p.root, busy_visit, &b);
		CHECK_EQ(b.nr, 0);
		profile_release(&p);
		return;
	}
	kseq_compute(&p, op, NULL, &r);
	t = xcalloc(1, sizeof(*t));
	t->p = &p;
	t->name = op;
	node_walk(p.root, truth_visit, t);
	for (d = 0; d < 64 && !t->count[d]; d++)
		;
	CHECK(d < 64);
	for (size_t i = 0; i < r.nr_patterns; i++) {
		const struct kseq_pattern *k = &r.patterns[i];

		CHECK(k->nr_names >= 4);
		CHECK(k->names[0] == op);
		CHECK(i == 0 || k->count <= r.patterns[i - 1].count);
		count += k->count;
		gpu += k->gpu_ns;
		cpu += k->cpu_ns;
	}
	if (d < 64) {
		CHECK_EQ((unsigned)d, r.depth);
		CHECK_EQ(count, t->count[d]);
		CHECK_EQ(gpu, t->gpu[d]);
		CHECK_EQ(cpu, t->cpu[d]);
	}
	CHECK_EQ(count, r.nr_instances);
	CHECK(count > 0);
	free(t);
	kseq_release(&r);
	profile_release(&p);
}

static void t_amd(void)
{
	check_no_op("pytorch-kineto-trace/hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz");
}

static void t_cpu_only(void)
{
	check_no_op("pytorch-kineto-trace/hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
}

static void t_triton(void)
{
	check_no_op("pytorch-kineto-trace/hta_triton_example_triton_example.json.gz");
}

static void t_ns_resolution(void)
{
	check_raised("pytorch-kineto-trace/hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace"
		     ".json.gz",
		     E_DUR);
}

static void t_bert(void)
{
	check_raised("pytorch-kineto-trace/tracelens_h100_bert-small-uncased__1016001.json.gz", E_DUR);
}

static void t_resnet0(void)
{
	check_raised("pytorch-kineto-trace/tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt"
		     ".trace.json.gz",
		     E_TID);
}

static void t_resnet4(void)
{
	check_raised("pytorch-kineto-trace/tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt"
		     ".trace.json.gz",
		     E_TID);
}

static void t_multi_resnet0(void)
{
	check_raised("pytorch-kineto-multi/tbplugin_resnet50_workers0_vs_4/"
		     "resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
		     E_TID);
}

static void t_multi_resnet4(void)
{
	check_raised("pytorch-kineto-multi/tbplugin_resnet50_workers0_vs_4/"
		     "resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
		     E_TID);
}

const struct test tests[] = {
	{ "simple add", t_simple_add },
	{ "trace diff control", t_diff_control },
	{ "trace diff test", t_diff_test },
	{ "amd mi250: no operator to pick", t_amd },
	{ "cpu only: no operator to pick", t_cpu_only },
	{ "triton: no operator to pick", t_triton },
	{ "ns resolution: HTA raised (a -1 us duration); proftui's own", t_ns_resolution },
	{ "bert h100: HTA raised (a -1 us duration); proftui's own", t_bert },
	{ "resnet50 workers 0: HTA raised (string tids); proftui's own", t_resnet0 },
	{ "resnet50 workers 4: HTA raised (string tids); proftui's own", t_resnet4 },
	{ "multi resnet50 workers 0: HTA raised (string tids); proftui's own", t_multi_resnet0 },
	{ "multi resnet50 workers 4: HTA raised (string tids); proftui's own", t_multi_resnet4 },
	{ 0 },
};
