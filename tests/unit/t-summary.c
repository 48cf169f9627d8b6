// SPDX-License-Identifier: MIT
/*
 * Summaries (model/summary.c, parsers/summary/summary.c): the round trip holds on
 * every corpus trace -- the Operators, Kernels, Steps, Ranks and Comm ops
 * panes print the same JSON from a trace and from its summary, for all
 * steps and for each step, and so does the diff of two summaries against
 * the diff of their traces, and each rank's launch statistics read back
 * bit for bit -- and a summary that is cut, out of order, of
 * another version or garbled is refused with its line and column.
 */
#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <unistd.h>

#include "model/bounds.h"
#include "model/profset.h"
#include "model/rank_analysis.h"
#include "model/strbuf.h"
#include "model/summary.h"
#include "parsers/parser.h"
#include "test.h"
#include "view/export.h"
#include "view/pane_multi.h"

/* PANE as --print NAME --format json would write it. */
static char *as_json(struct pane *pane)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	export_pane(pane, f, EXPORT_JSON, 0, NULL);
	fclose(f);
	return buf;
}

static int nr_bad;

static void same_pane(const char *what, const char *pane_name, const struct profile *a,
		      const struct profile *b, const struct pane_scope *sa, const struct pane_scope *sb)
{
	const struct pane_ops *ops = pane_ops_find(pane_name);
	struct pane *pa = pane_open(ops, a, sa), *pb = pane_open(ops, b, sb);
	char *ja = as_json(pa), *jb = as_json(pb);

	if (strcmp(ja, jb)) {
		if (nr_bad++ < 5) {
			size_t i = 0;

			while (ja[i] && ja[i] == jb[i])
				i++;
			fprintf(stderr, "  %s: %s differs at byte %zu:\n    trace:   %.160s\n    summary: %.160s\n",
				what, pane_name, i, ja + (i > 40 ? i - 40 : 0), jb + (i > 40 ? i - 40 : 0));
		}
		test_failed = 1;
	}
	free(ja);
	free(jb);
	pane_free(pa);
	pane_free(pb);
}

static const char *const panes[] = { "ops", "kernels", "steps", "ranks", "comm", "rank-analyses" };

static bool same_bits(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a));
}

/* The launch statistics of trace T and of its summary S: the same, every
 * double bit for bit (the pane rounds them, so this is the stricter
 * test). */
static void same_launch(const char *what, const struct profile *t, const struct profile *s)
{
	struct rank_analysis a, b;
	const struct launch_summary *x = &a.launch, *y = &b.launch;
	bool same;

	rank_analysis_of(t, &a);
	rank_analysis_of(s, &b);
	same = b.present && x->nr_launches == y->nr_launches && x->nr_short == y->nr_short &&
	       x->nr_runtime_outliers == y->nr_runtime_outliers &&
	       x->nr_delay_outliers == y->nr_delay_outliers;
	for (int f = 0; f < NR_LAUNCH_FIGURES; f++) {
		const struct launch_dist *d = &x->dist[f], *e = &y->dist[f];

		same = same && d->count == e->count && d->total_ns == e->total_ns &&
		       d->capped == e->capped && same_bits(d->mean, e->mean) &&
		       same_bits(d->std, e->std) && same_bits(d->min, e->min) &&
		       same_bits(d->p50, e->p50) && same_bits(d->p90, e->p90) &&
		       same_bits(d->p99, e->p99) && same_bits(d->max, e->max);
	}
	if (!same) {
		fprintf(stderr, "  %s: the launch statistics differ from the summary's\n", what);
		test_failed = 1;
	}
	rank_analysis_release(&a);
	rank_analysis_release(&b);
}

/* Write P's summary to a file and load it into S. */
static void round_trip(const struct profile *p, const char *name, struct profile *s)
{
	struct strbuf b = STRBUF_INIT;
	char msg[4096];
	const char *path;

	summary_write(p, &b);
	path = test_write(name, b.s, b.len);
	CHECK(test_load(s, path, NULL, msg, sizeof(msg)) == 0);
	if (msg[0])
		fprintf(stderr, "  %s: %s", name, msg);
	strbuf_release(&b);
}

static void check_trace(const char *path)
{
	struct profile t, s;
	char msg[8192];
	const char *base = strrchr(path, '/') + 1;

	CHECK(test_load(&t, path, NULL, msg, sizeof(msg)) >= 0);
	round_trip(&t, "one.summary", &s);
	for (size_t k = 0; k < sizeof(panes) / sizeof(panes[0]); k++)
		same_pane(base, panes[k], &t, &s, NULL, NULL);
	same_launch(base, &t, &s);
	CHECK_EQ(t.nr_steps, s.nr_steps);
	for (size_t i = 0; i < t.nr_steps && i < s.nr_steps; i++) {
		struct pane_scope st = { .step = &t.steps[i] }, ss = { .step = &s.steps[i] };

		same_pane(base, "ops", &t, &s, &st, &ss);
		same_pane(base, "kernels", &t, &s, &st, &ss);
	}
	profile_release(&s);
	profile_release(&t);
}

static void test_corpus(void)
{
	const char *dirs[] = { "pytorch-kineto-trace", "pytorch-kineto-multi/hta_trace_diff",
			       "pytorch-kineto-multi/tbplugin_resnet50_workers0_vs_4" };
	int checked = 0;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		char dir[512], path[1024];
		DIR *dp;
		struct dirent *e;

		snprintf(dir, sizeof(dir), "%s/%s", test_corpus_dir(), dirs[d]);
		if (!(dp = opendir(dir)))
			continue;
		while ((e = readdir(dp))) {
			if (!strstr(e->d_name, ".json"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			nr_bad = 0;
			check_trace(path);
			checked++;
		}
		closedir(dp);
	}
	if (!checked)
		SKIP("no corpus traces under ../shared/corpus");
}

/*
 * Every --group a pane takes, on a trace and on its summary: the same
 * table, whole and per step, or (kernels by launching op, which a
 * summary does not hold) an empty one that says it needs the trace.
 */
static void same_groups(const char *path)
{
	static const char *const pane_names[] = { "ops", "kernels" }, *const groups[] = { "shape", "op" };
	const char *base = strrchr(path, '/') + 1;
	struct profile t, s;
	char msg[8192];

	CHECK(test_load(&t, path, NULL, msg, sizeof(msg)) >= 0);
	round_trip(&t, "grouped.summary", &s);
	nr_bad = 0;
	for (size_t k = 0; k < 2; k++) {
		const struct pane_ops *ops = pane_ops_find(pane_names[k]);

		for (size_t g = 0; g < 2; g++) {
			struct pane_scope st = { .group = groups[g] }, ss = st;
			struct pane *ps;

			if (!pane_group_by(ops) || strcmp(pane_group_by(ops), groups[g]))
				continue;	/* --group refuses it */
			ps = pane_open(ops, &s, &ss);
			if (pane_needs_trace(ps)) {
				char why[512] = "";

				pane_empty_text(ps, why, sizeof(why));
				CHECK(ps->nr_rows == 0 && strstr(why, "need the trace"));
				pane_free(ps);
				continue;
			}
			pane_free(ps);
			same_pane(base, pane_names[k], &t, &s, &st, &ss);
			for (size_t i = 0; i < t.nr_steps && i < s.nr_steps; i++) {
				st.step = &t.steps[i];
				ss.step = &s.steps[i];
				same_pane(base, pane_names[k], &t, &s, &st, &ss);
			}
		}
	}
	profile_release(&s);
	profile_release(&t);
}

static void test_groups(void)
{
	static const char *const dirs[] = { "tests/golden/kineto", NULL, NULL };
	char corpus[2][512];
	int nr_corpus = 0;

	snprintf(corpus[0], sizeof(corpus[0]), "%s/pytorch-kineto-trace", test_corpus_dir());
	snprintf(corpus[1], sizeof(corpus[1]), "%s/pytorch-kineto-multi/hta_trace_diff",
		 test_corpus_dir());
	for (size_t d = 0; d < 3; d++) {
		const char *dir = d ? corpus[d - 1] : dirs[0];
		char path[1024];
		DIR *dp = opendir(dir);
		struct dirent *e;

		if (!dp)
			continue;
		while ((e = readdir(dp))) {
			if (!strstr(e->d_name, ".json"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			same_groups(path);
			nr_corpus += d > 0;
		}
		closedir(dp);
	}
	if (!nr_corpus)
		SKIP("the golden traces only: no corpus traces under ../shared/corpus");
}

/* A summary older than version 3 sums the shapes of a name: grouped by
 * shape it says it needs the trace rather than show a shape of "[]". */
static void test_old_shapes(void)
{
	static const char v2[] = "proftui-summary\t2\ncats\t0\nname\tmm\n"
				 "op\t5\top\t0\t2\t1\t1\t0\t0\t-1\t-1\t0\ncomm\t0\nend\n";
	const char *path = test_write("v2.summary", v2, strlen(v2));
	struct pane_scope sc = { .group = "shape" };
	struct profile s;
	struct pane *pane;
	char msg[4096], why[512] = "";

	CHECK_EQ(test_load(&s, path, NULL, msg, sizeof(msg)), 0);
	pane = pane_open(pane_ops_find("ops"), &s, &sc);
	CHECK(pane_needs_trace(pane));
	pane_empty_text(pane, why, sizeof(why));
	CHECK(strstr(why, "need the trace") != NULL);
	CHECK_EQ(pane->nr_rows, 0);
	pane_free(pane);
	profile_release(&s);
}

/* A diff of two summaries is the diff of their traces. */
static void test_diff(void)
{
	char base[1024], nw[1024], msg[8192];
	struct profile t[2], s[2];
	struct profset ts = { .kind = PROFSET_DIFF, .nr = 2 }, ss = { .kind = PROFSET_DIFF, .nr = 2 };
	struct profset_member tm[2] = { { 0 } }, sm[2] = { { 0 } };
	struct pane_scope st = { .set = &ts }, sc = { .set = &ss };

	snprintf(base, sizeof(base), "%s/pytorch-kineto-multi/hta_trace_diff/control.json.gz",
		 test_corpus_dir());
	snprintf(nw, sizeof(nw), "%s/pytorch-kineto-multi/hta_trace_diff/test.json.gz",
		 test_corpus_dir());
	if (access(base, R_OK) || access(nw, R_OK))
		SKIP("no corpus set hta_trace_diff under ../shared/corpus");
	CHECK(test_load(&t[0], base, NULL, msg, sizeof(msg)) == 0);
	CHECK(test_load(&t[1], nw, NULL, msg, sizeof(msg)) == 0);
	round_trip(&t[0], "base.summary", &s[0]);
	round_trip(&t[1], "new.summary", &s[1]);
	for (int i = 0; i < 2; i++) {
		tm[i].prof = &t[i];
		sm[i].prof = &s[i];
		tm[i].rank = sm[i].rank = i;
		tm[i].label = sm[i].label = (char *)(i ? "test" : "control");
	}
	ts.members = tm;
	ss.members = sm;
	nr_bad = 0;
	same_pane("diff", "ops", &t[1], &s[1], &st, &sc);
	same_pane("diff", "kernels", &t[1], &s[1], &st, &sc);
	same_pane("diff", "steps", &t[1], &s[1], &st, &sc);
	/* The same two as the ranks of one job. */
	ts.kind = ss.kind = PROFSET_RANKS;
	same_pane("ranks", "ranks", &t[0], &s[0], &st, &sc);
	same_pane("ranks", "comm", &t[0], &s[0], &st, &sc);
	same_pane("ranks", "ops", &t[0], &s[0], &st, &sc);
	same_pane("ranks", "rank-analyses", &t[0], &s[0], &st, &sc);
	for (int i = 0; i < 2; i++) {
		profile_release(&t[i]);
		profile_release(&s[i]);
	}
}

/*
 * The four-rank job of tests/golden/hta/strag-job (its stragglers worked
 * out in gen-strag-job.py), from its traces and from their summaries:
 * the Ranks and Rank analyses panes print the same, straggler marks and
 * all; and a version 3 summary's row has no analyses.
 */
static void test_job_analyses(void)
{
	struct profile t[4], s[4];
	struct profset ts = { .kind = PROFSET_RANKS, .nr = 4 }, ss = { .kind = PROFSET_RANKS, .nr = 4 };
	struct profset_member tm[4] = { { 0 } }, sm[4] = { { 0 } };
	struct pane_scope st = { .set = &ts }, sc = { .set = &ss };
	char path[256], msg[8192], name[32];
	struct pane *pane;
	char *json;

	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "tests/golden/hta/strag-job/rank%d.pt.trace.json", i);
		CHECK(test_load(&t[i], path, NULL, msg, sizeof(msg)) == 0);
		snprintf(name, sizeof(name), "rank%d.summary", i);
		round_trip(&t[i], name, &s[i]);
		same_launch(name, &t[i], &s[i]);
		tm[i].prof = &t[i];
		sm[i].prof = &s[i];
		tm[i].rank = sm[i].rank = i;
		tm[i].label = sm[i].label = (char *)"rank";
	}
	ts.members = tm;
	ss.members = sm;
	nr_bad = 0;
	same_pane("job", "ranks", &t[0], &s[0], &st, &sc);
	same_pane("job", "rank-analyses", &t[0], &s[0], &st, &sc);
	pane = pane_open(pane_ops_find("ranks"), &s[0], &sc);
	json = as_json(pane);
	/* Ranks marks HTA's two stragglers (on their all rows) from the
	 * summaries too. */
	CHECK(strstr(json, "\"straggler\": \"HTA\"") != NULL);
	free(json);
	pane_free(pane);
	pane = pane_open(pane_ops_find("rank-analyses"), &s[0], &sc);
	json = as_json(pane);
	CHECK(strstr(json, "\"hta_straggler\": \"straggler\", \"hta_marked\": 3") != NULL);
	CHECK(strstr(json, "\"comp_comm_overlap_pctg\": 8,") != NULL);
	free(json);
	pane_free(pane);
	for (int i = 0; i < 4; i++) {
		profile_release(&t[i]);
		profile_release(&s[i]);
	}
	/* Version 3: read, its analyses empty. */
	CHECK(test_load(&s[0], "tests/golden/summary/shapes.summary", NULL, msg, sizeof(msg)) == 0);
	CHECK(s[0].rank_analysis == NULL);
	pane = pane_open(pane_ops_find("rank-analyses"), &s[0], NULL);
	json = as_json(pane);
	CHECK(strstr(json, "\"idle_time_pctg\": null") != NULL);
	CHECK(strstr(json, "\"comp_comm_overlap_pctg\": null") != NULL);
	free(json);
	pane_free(pane);
	profile_release(&s[0]);
}

/* The job of tests/golden/ranks/job (three workers, collectives that
 * line up): Ranks, Comm ops and Rank analyses from its traces and from
 * their summaries. */
static void test_job_fixture(void)
{
	struct profile t[3], s[3];
	struct profset ts = { .kind = PROFSET_RANKS, .nr = 3 }, ss = { .kind = PROFSET_RANKS, .nr = 3 };
	struct profset_member tm[3] = { { 0 } }, sm[3] = { { 0 } };
	struct pane_scope st = { .set = &ts }, sc = { .set = &ss };
	char path[256], msg[8192], name[32];

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "tests/golden/ranks/job/worker%d.pt.trace.json", i);
		CHECK(test_load(&t[i], path, NULL, msg, sizeof(msg)) >= 0);
		snprintf(name, sizeof(name), "worker%d.summary", i);
		round_trip(&t[i], name, &s[i]);
		same_launch(name, &t[i], &s[i]);
		tm[i].prof = &t[i];
		sm[i].prof = &s[i];
		tm[i].rank = sm[i].rank = i;
		tm[i].label = sm[i].label = (char *)"worker";
	}
	ts.members = tm;
	ss.members = sm;
	nr_bad = 0;
	same_pane("ranks/job", "ranks", &t[0], &s[0], &st, &sc);
	same_pane("ranks/job", "comm", &t[0], &s[0], &st, &sc);
	same_pane("ranks/job", "rank-analyses", &t[0], &s[0], &st, &sc);
	for (int i = 0; i < 3; i++) {
		profile_release(&t[i]);
		profile_release(&s[i]);
	}
}

/* The message of loading TEXT as a summary (its first line). */
static const char *refused(const char *text)
{
	static char msg[4096];
	struct profile p;
	int rc = test_load(&p, test_write("bad.summary", text, strlen(text)), NULL, msg, sizeof(msg));

	profile_release(&p);
	if (rc >= 0 && !strstr(msg, "error"))
		return "";
	msg[strcspn(msg, "\n")] = '\0';
	return strstr(msg, "bad.summary") ? strstr(msg, "bad.summary") : msg;
}

static void test_bad(void)
{
	CHECK_STR(refused("proftui-summary\t5\nend\n"),
		  "bad.summary:1:17: error: a summary of version '5'; this proftui reads versions 1 to 4");
	/* The analyses: version 4 on, in their order, checked. */
	CHECK_STR(refused("proftui-summary\t3\ntemporal\t0\t0\t0\t0\t0\t0\nend\n"),
		  "bad.summary:2:1: error: unknown record 'temporal'");
	CHECK_STR(refused("proftui-summary\t4\nktypes\t0\t0\t0\t0\t0\t0\t0\nend\n"),
		  "bad.summary:2:1: error: analyses without 'temporal' first");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t-1\t0\t0\t0\nend\n"),
		  "bad.summary:2:14: error: a sum out of range (0 to INT64_MAX/4)");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\nend\n"),
		  "bad.summary:3:1: error: analyses without 'ktypes' and 'idle'");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "iter\t2\t0\t10\niter\t1\t0\t10\nend\n"),
		  "bad.summary:6:6: error: steps out of order (each N once, ascending)");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "iter\t1\t10\t0\nend\n"),
		  "bad.summary:5:11: error: it ends before it starts");
	CHECK_STR(refused("proftui-summary\t4\nname\tncclKernel_x\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "nccl\t0\t1\t0\t5\t0\nend\n"),
		  "bad.summary:6:6: error: number out of range");
	CHECK_STR(refused("proftui-summary\t4\nname\tncclKernel_x\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "nccl\t1\t1\t0\t5\t1\nend\n"),
		  "bad.summary:6:14: error: number out of range");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "idle\t0\t0\t0\t0\nend\n"),
		  "bad.summary:3:1: error: 'idle' without 'ktypes' before it");
	/* The launch statistics: after idle, all of them, checked. */
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "end\n"),
		  "bad.summary:5:1: error: analyses without 'launch' and its three 'launchdist'");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "iter\t1\t0\t10\nlaunch\t0\t0\t0\t0\nend\n"),
		  "bad.summary:6:1: error: 'launch' comes too late (records go in the documented order)");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launch\t-1\t0\t0\t0\nend\n"),
		  "bad.summary:5:8: error: number out of range");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launch\t2\t0\t3\t0\nend\n"),
		  "bad.summary:5:12: error: more launches of a class than launches");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launch\t2\t0\t0\t0\n"
			  "launchdist\tgpu_duration\t2\t2\t0\t1\t0\t1\t1\t1\t1\t1\nend\n"),
		  "bad.summary:6:12: error: expected the figure 'cpu_duration' (cpu_duration, "
		  "gpu_duration, launch_delay in order)");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launch\t2\t0\t0\t0\n"
			  "launchdist\tcpu_duration\t3\t2\t0\t1\t0\t1\t1\t1\t1\t1\nend\n"),
		  "bad.summary:6:25: error: a count other than the launches'");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launch\t2\t0\t0\t0\n"
			  "launchdist\tcpu_duration\t2\t2\t0\tnan\t0\t1\t1\t1\t1\t1\nend\n"),
		  "bad.summary:6:31: error: a number that is not finite");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launch\t2\t0\t0\t0\n"
			  "launchdist\tcpu_duration\t2\t2\t0\t1\t-1\t1\t1\t1\t1\t1\nend\n"),
		  "bad.summary:6:33: error: a negative deviation");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launch\t2\t0\t0\t0\n"
			  "launchdist\tcpu_duration\t2\t2\t0\t1\t0\t1\t2\t1.5\t2\t2\nend\n"),
		  "bad.summary:6:39: error: statistics out of order (min <= p50 <= p90 <= p99 <= max)");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launch\t2\t0\t0\t0\n"
			  "launchdist\tcpu_duration\t2\t2\t0\t1\t-\t1\t1\t1\t1\t1\nend\n"),
		  "bad.summary:6:33: error: a statistic missing ('-') where it has a value");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launch\t0\t0\t0\t0\n"
			  "launchdist\tcpu_duration\t0\t0\t0\t-\t-\t0\t-\t-\t-\t-\nend\n"),
		  "bad.summary:6:35: error: a statistic where it has none ('-')");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			  "launchdist\tcpu_duration\t0\t0\t0\t-\t-\t-\t-\t-\t-\t-\nend\n"),
		  "bad.summary:5:1: error: 'launchdist' without 'launch' before it");
	CHECK_STR(refused("proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			  "ktypes\t0\t0\t0\t0\t0\t0\t0\nlaunch\t0\t0\t0\t0\nend\n"),
		  "bad.summary:4:1: error: launch and straggler records without 'idle' before them");
	{
		static const char one[] =
			"proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			"ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\n"
			"launch\t1\t1\t0\t0\n"
			"launchdist\tcpu_duration\t1\t3000\t0\t3000\t-\t3000\t3000\t3000\t3000\t3000\n"
			"launchdist\tgpu_duration\t1\t2000\t0\t2000\t-\t2000\t2000\t2000\t2000\t2000\n"
			"launchdist\tlaunch_delay\t1\t0\t0\t0\t-\t0\t0\t0\t0\t0\n"
			"end\n";
		struct profile p;
		char m[4096];

		/* One launch: no deviation, read as none. */
		CHECK_EQ(test_load(&p, test_write("one.summary", one, strlen(one)), NULL, m,
				   sizeof(m)), 0);
		CHECK(p.rank_analysis && p.rank_analysis->launch.nr_short == 1);
		CHECK(p.rank_analysis && isnan(p.rank_analysis->launch.dist[LAUNCH_CPU].std));
		CHECK(p.rank_analysis && p.rank_analysis->launch.dist[LAUNCH_GPU].p99 == 2000.0);
		CHECK_STR(refused(one), "");
		profile_release(&p);
	}
	{
		char four[1024];

		snprintf(four, sizeof(four), "%s", "proftui-summary\t4\ntemporal\t1\t5\t0\t0\t0\t0\n"
			 "ktypes\t0\t0\t0\t0\t0\t0\t0\nidle\t0\t0\t0\t0\nlaunch\t0\t0\t0\t0\n"
			 "launchdist\tcpu_duration\t0\t0\t0\t-\t-\t-\t-\t-\t-\t-\n"
			 "launchdist\tgpu_duration\t0\t0\t0\t-\t-\t-\t-\t-\t-\t-\n"
			 "launchdist\tlaunch_delay\t0\t0\t0\t-\t-\t-\t-\t-\t-\t-\n"
			 "launchdist\tlaunch_delay\t0\t0\t0\t-\t-\t-\t-\t-\t-\t-\nend\n");
		CHECK_STR(refused(four), "bad.summary:9:1: error: a fourth 'launchdist'");
	}
	/* A version 1 summary has no cut record: one that says so is not
	 * version 1. */
	CHECK_STR(refused("proftui-summary\t1\ncut\t1:5: x\nend\n"),
		  "bad.summary:2:1: error: unknown record 'cut'");
	CHECK_STR(refused("proftui-summary\t1\nsource\tx\n"),
		  "bad.summary:3:1: error: the summary ends early (no 'end' line): a cut file?");
	CHECK_STR(refused("proftui-summary\t1\ncats\t1\tKernel\nsource\tx\nend\n"),
		  "bad.summary:3:1: error: 'source' comes too late (records go in the documented order)");
	CHECK_STR(refused("proftui-summary\t1\nop\t1\top\t0\tx\t0\t0\t0\t0\t-1\t-1\tmm\nend\n"),
		  "bad.summary:2:11: error: expected an integer");
	CHECK_STR(refused("proftui-summary\t1\nname\tm\\q\nend\n"),
		  "bad.summary:2:6: error: bad escape in text (\\\\, \\t, \\n, \\r or \\xNN)");
	CHECK_STR(refused("proftui-summary\t1\nname\tk\nkernel\t-\t0\t1\t0\t0\t-1\t-1\t-\t-\t5\nend\n"),
		  "bad.summary:3:28: error: number out of range");
	CHECK_STR(refused("proftui-summary\t1\nname\tk\nkernel\ts0\t0\t1\t0\t0\t-1\t-1\t-\t-\t0\nend\n"),
		  "bad.summary:3:8: error: no such step");
	CHECK_STR(refused("proftui-summary\t1\ncall\t0\t-1\t0\t1\t0\tnccl:all_reduce\nend\n"),
		  "bad.summary:2:6: error: number out of range");
	CHECK_STR(refused("proftui-summary\t1\ncall\t-1\t-1\t0\t1\t2\t0\t1\tnccl:all_reduce\nend\n"),
		  "bad.summary:2:22: error: 'call' wants 11 fields, not 9");
	CHECK_STR(refused("proftui-summary\t1\nwhat\t1\nend\n"),
		  "bad.summary:2:1: error: unknown record 'what'");
	CHECK_STR(refused("proftui-summary\t1\nend\nop\n"), "bad.summary:3:1: error: text after 'end'");
	CHECK_STR(refused("proftui-summary\t1\nattr\tk\ti\t1\nend\n"),
		  "bad.summary:2:1: error: 'attr' before any 'op' or 'kernel'");
}

/* A summary of a cut trace (-k) says so in a cut record, and opening it
 * warns; a whole trace's has none, and opens quietly. */
static void test_cut(void)
{
	static const char trace[] =
		"{\"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 10, \"dur\": 5},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 20, \"dur\": 5}\n]}\n";
	char msg[4096];

	for (int whole = 0; whole < 2; whole++) {
		size_t len = whole ? strlen(trace) : strlen(trace) - 40;
		const char *path = test_write(whole ? "whole.json" : "cut.json", trace, len);
		struct strbuf b = STRBUF_INIT;
		struct profile t, s;
		int rc = test_load(&t, path, NULL, msg, sizeof(msg));

		CHECK_EQ(rc, whole ? 0 : 1);
		summary_write(&t, &b);
		CHECK(!strncmp(b.s, "proftui-summary\t4\n", 18));
		CHECK((strstr(b.s, "\ncut\t") == NULL) == whole);
		rc = test_load(&s, test_write("cut.summary", b.s, b.len), NULL, msg, sizeof(msg));
		CHECK_EQ(rc, 0);
		CHECK((strstr(msg, "warning: the trace this summarises was cut") == NULL) == whole);
		profile_release(&s);
		profile_release(&t);
		strbuf_release(&b);
	}
}

/* 10,000 calls of nearly the longest duration, nested on one thread
 * (so that no sum but the rows' grows) and named a and b in turn: the
 * 5,000 calls of each pass int64, the summary's rows stop at SUM_CAP,
 * say so in a warning, and open. */
static void test_capped(void)
{
	struct strbuf j = STRBUF_INIT, b = STRBUF_INIT;
	struct profile t, s;
	char msg[4096], want[128];

	strbuf_addstr(&j, "{\"traceEvents\": [");
	for (int i = 0; i < 10000; i++)
		strbuf_addf(&j, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"ts\": %d, "
			    "\"dur\": %lld, \"pid\": 1, \"tid\": 1}", i ? ", " : "", i % 2 ? "b" : "a",
			    1 + i, 1000000000000LL - 2 * i);
	strbuf_addstr(&j, "]}\n");
	CHECK(test_load(&t, test_write("long.json", j.s, j.len), NULL, msg, sizeof(msg)) >= 0);
	summary_write(&t, &b);
	/* a's host total capped; its self time (the 2 us each call
	 * leaves to the next) not. */
	snprintf(want, sizeof(want), "\nop\ts0\top\t0\t5000\t10000000\t%" PRId64 "\t", SUM_CAP);
	CHECK(strstr(b.s, want) != NULL);
	CHECK(strstr(b.s, "\nwarning\t2\t" SUMMARY_CAPPED "\n") != NULL);
	CHECK_EQ(test_load(&s, test_write("long.summary", b.s, b.len), NULL, msg, sizeof(msg)), 0);
	profile_release(&s);
	profile_release(&t);
	strbuf_release(&b);
	strbuf_release(&j);

	/* A summary of a summary whose two rows of one name cap again:
	 * the warning adds up, once (a second one is refused). */
	strbuf_addf(&j, "proftui-summary\t3\nflags\t0\t1\nwarning\t1\t" SUMMARY_CAPPED "\ncats\t0\n"
		    "step\t100\t200\t100\ts\nname\ta\n");
	for (int i = 0; i < 2; i++)
		strbuf_addf(&j, "op\ts0\top\t0\t1\t%" PRId64 "\t%" PRId64 "\t0\t0\t-1\t-1\t0\n", SUM_CAP,
			    SUM_CAP);
	strbuf_addstr(&j, "comm\t0\nend\n");
	CHECK_EQ(test_load(&t, test_write("capped.summary", j.s, j.len), NULL, msg, sizeof(msg)), 0);
	summary_write(&t, &b);
	CHECK(strstr(b.s, "\nwarning\t3\t" SUMMARY_CAPPED "\n") != NULL);
	CHECK_EQ(test_load(&s, test_write("again.summary", b.s, b.len), NULL, msg, sizeof(msg)), 0);
	profile_release(&s);
	profile_release(&t);
	strbuf_release(&b);
	strbuf_release(&j);
}

/* Escapes round-trip, and a name with a tab and a newline survives. */
static void test_escape(void)
{
	struct strbuf b = STRBUF_INIT;
	char *s;

	summary_escape(&b, "a\tb\nc\\d\x1b" "e\xc3\xa9");
	CHECK_STR(b.s, "a\\tb\\nc\\\\d\\x1be\xc3\xa9");
	s = xstrdup(b.s);
	CHECK_EQ(summary_unescape(s, strlen(s)), 11);
	CHECK_STR(s, "a\tb\nc\\d\x1b" "e\xc3\xa9");
	free(s);
	strbuf_release(&b);
}

/*
 * A row's own start is a time like any other, 0 and below included, in a
 * summary whose flags say the trace had a timeline; in one that had none
 * the field holds 0 and the rows have no time.  A start past the bound on
 * timestamps is refused: it would read as no time at all.
 */
static void test_row_start(void)
{
	static const char head[] = "proftui-summary\t1\nflags\t0\t%d\nname\tmm\n"
				   "op\t0\top\t0\t1\t5\t5\t0\t0\t-1\t-1\t0\n"
				   "op\t-50\top\t0\t1\t5\t5\t0\t0\t-1\t-1\t0\nend\n";
	char text[256], msg[4096];

	for (int timeline = 0; timeline < 2; timeline++) {
		struct profile p;
		const struct node *zero, *neg;

		snprintf(text, sizeof(text), head, timeline);
		CHECK_EQ(test_load(&p, test_write("start.summary", text, strlen(text)), NULL, msg,
				   sizeof(msg)), 0);
		zero = node_first_child(p.root);
		neg = zero ? node_next(zero) : NULL;
		CHECK(zero && neg);
		CHECK_EQ(p.has_timeline, timeline);
		CHECK_EQ(node_is_timed(zero), timeline);
		CHECK_EQ(node_is_timed(neg), timeline);
		if (timeline && zero && neg) {
			CHECK_EQ(zero->start_ns, 0);
			CHECK_EQ(neg->start_ns, -50);
		}
		profile_release(&p);
	}
	CHECK_STR(refused("proftui-summary\t1\nflags\t0\t1\nname\tmm\n"
			  "op\t-9223372036854775808\top\t0\t1\t5\t5\t0\t0\t-1\t-1\t0\nend\n"),
		  "bad.summary:4:4: error: a time out of range (within 2^62 ns of 0)");
}

/* A record's attributes are bounded: the model finds one by walking its
 * record's list, so 50,000 keys on one op took 76 s to read. */
static void test_many_attrs(void)
{
	struct strbuf b = STRBUF_INIT;

	for (int nr = 256; nr <= 257; nr++) {
		strbuf_reset(&b);
		strbuf_addstr(&b, "proftui-summary\t1\nflags\t0\t0\nname\tmm\n"
			      "op\t0\top\t0\t1\t5\t5\t0\t0\t-1\t-1\t0\n");
		for (int i = 0; i < nr; i++)
			strbuf_addf(&b, "attr\tk%d\ti\t%d\n", i, i);
		strbuf_addstr(&b, "end\n");
		CHECK_STR(refused(b.s), nr == 256 ? "" : "bad.summary:261:1: error: more than 256 attributes on one record");
	}
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "every corpus trace prints the same from its summary", test_corpus },
	{ "a diff and ranks of summaries print as of their traces", test_diff },
	{ "a job's rank analyses from summaries are its traces'", test_job_analyses },
	{ "the ranks/job fixture from summaries is its traces'", test_job_fixture },
	{ "every --group on a summary is the trace's, or needs the trace", test_groups },
	{ "a summary without shapes says shapes need the trace", test_old_shapes },
	{ "bad summaries are refused with their place", test_bad },
	{ "a cut trace's summary says so, and opening it warns", test_cut },
	{ "a sum past int64 stops at its cap, with a warning", test_capped },
	{ "escapes round-trip", test_escape },
	{ "a record holds at most 256 attributes", test_many_attrs },
	{ "a row's start of 0 or below is a time; without a timeline, none", test_row_start },
	{ 0 },
};
