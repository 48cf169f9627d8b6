// SPDX-License-Identifier: MIT
/*
 * rocprof: the CSV reader the two parsers share, detection by the header
 * (and of nothing else), the figures a statistics row keeps, and bad
 * input, on files written here.  The goldens in tests/golden/rocprof/
 * show the panes.
 */
#include <math.h>

#include "model/aggregate.h"
#include "parsers/parser.h"
#include "parsers/rocprof/rocprof.h"
#include "test.h"

extern const struct parser rocprof_stats_parser, rocprof_trace_parser;

static char msg[16384];

#define STATS_HDR "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\""
#define V3_HDR STATS_HDR ",\"MinNs\",\"MaxNs\",\"StdDev\""
#define API_HDR "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\"," \
		"\"Start_Timestamp\",\"End_Timestamp\""
#define KT_HDR "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Kernel_Id\",\"Kernel_Name\"," \
	       "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\""

static int split(const char *text, struct field *f, const char **why, size_t *col)
{
	static char line[256 * 1024];
	size_t n = strlen(text);

	memcpy(line, text, n + 1);
	return rocprof_split(line, n, f, why, col);
}

static void test_split(void)
{
	struct field f[ROCPROF_MAX_COLS];
	const char *why = NULL;
	size_t col = 0;
	int nr = split("12,\"f(int, float)\",\"say \"\"hi\"\"\",  7 ,", f, &why, &col);

	CHECK_EQ(nr, 5);
	CHECK(text_eq(f[0].s, f[0].len, "12"));
	CHECK(text_eq(f[1].s, f[1].len, "f(int, float)"));
	CHECK_EQ(f[1].col, 4);
	CHECK(text_eq(f[2].s, f[2].len, "say \"hi\""));
	CHECK(text_eq(f[3].s, f[3].len, "7"));
	CHECK_EQ(f[4].len, 0);
	CHECK_EQ(split("", f, &why, &col), 1);
}

static void test_split_errors(void)
{
	struct field f[ROCPROF_MAX_COLS];
	const char *why = NULL;
	size_t col = 0;
	static char big[ROCPROF_MAX_FIELD + 16];

	CHECK_EQ(split("1,\"open,2", f, &why, &col), -1);
	CHECK_STR(why, "quote left open at the end of the line");
	CHECK_EQ(col, 2);
	CHECK_EQ(split("\"a\"b,2", f, &why, &col), -1);
	CHECK_STR(why, "text after a closing quote");
	CHECK_EQ(col, 3);
	memset(big, 'x', ROCPROF_MAX_FIELD + 1);
	big[ROCPROF_MAX_FIELD + 1] = '\0';
	CHECK_EQ(split(big, f, &why, &col), -1);
	CHECK_STR(why, "a field longer than 65536 bytes");
	memset(big, ',', 100);
	big[100] = '\0';
	CHECK_EQ(split(big, f, &why, &col), -1);
	CHECK_STR(why, "more than 64 fields in a line");
}

static int probe(const struct parser *pr, const char *head)
{
	return pr->probe(head, strlen(head));
}

static void test_probe(void)
{
	CHECK(probe(&rocprof_stats_parser, STATS_HDR "\n\"k\",1,2,2,100\n") > 0);
	CHECK(probe(&rocprof_stats_parser, V3_HDR "\r\n") > 0);
	CHECK(probe(&rocprof_stats_parser, "\xef\xbb\xbf" STATS_HDR "\r\n") > 0);
	CHECK_EQ(probe(&rocprof_trace_parser, STATS_HDR "\n"), 0);
	CHECK(probe(&rocprof_trace_parser, API_HDR "\n") > 0);
	CHECK(probe(&rocprof_trace_parser, KT_HDR "\n") > 0);
	CHECK(probe(&rocprof_trace_parser, "\"Guid\"," KT_HDR "\n") > 0);
	/* rocprofv2's file plugin quotes no title */
	CHECK(probe(&rocprof_trace_parser, "Dispatch_ID,GPU_ID,Queue_ID,TID,Kernel_Name,"
		    "Start_Timestamp,End_Timestamp,Correlation_ID\n") > 0);
	CHECK(probe(&rocprof_stats_parser,
		    "Name,Calls,TotalDurationNs,AverageNs,Percentage\n") > 0);
	CHECK_EQ(probe(&rocprof_stats_parser, API_HDR "\n"), 0);
	/* Near misses: a column more, a column less, no line end yet, another
	 * separator, a header further down, a Domain-less Function table. */
	CHECK_EQ(probe(&rocprof_stats_parser, STATS_HDR ",\"Device\"\n"), 0);
	CHECK_EQ(probe(&rocprof_stats_parser, "\"Name\",\"Calls\",\"TotalDurationNs\"\n"), 0);
	CHECK_EQ(probe(&rocprof_stats_parser, STATS_HDR), 0);
	CHECK_EQ(probe(&rocprof_stats_parser,
		       "Name;Calls;TotalDurationNs;AverageNs;Percentage\n"), 0);
	CHECK_EQ(probe(&rocprof_stats_parser, "log line\n" STATS_HDR "\n"), 0);
	CHECK_EQ(probe(&rocprof_trace_parser,
		       "\"Function\",\"Start_Timestamp\",\"End_Timestamp\"\n"), 0);
	CHECK_EQ(probe(&rocprof_trace_parser, "\"Name\",\"Start\",\"End\"\n"), 0);
	CHECK_EQ(probe(&rocprof_trace_parser, "{\"traceEvents\": []}\n"), 0);
}

/* Other formats' samples are never claimed as rocprof. */
static void test_not_claimed(void)
{
	static const char *const others[] = {
		"tests/golden/kineto/two-steps.json", "tests/golden/torch-table/modern.txt",
		"tests/golden/paddle/summary-new.txt", "tests/golden/megengine/lar-v17.txt",
		"tests/golden/trtexec/log-trt86.txt", "tests/golden/summary/shapes.summary",
	};

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		FILE *f = fopen(others[i], "rb");
		static char head[INPUT_PROBE_BYTES];
		size_t n;

		CHECK(f != NULL);
		if (!f)
			continue;
		n = fread(head, 1, sizeof(head), f);
		fclose(f);
		CHECK_EQ(rocprof_stats_parser.probe(head, n), 0);
		CHECK_EQ(rocprof_trace_parser.probe(head, n), 0);
	}
}

static struct node *find(const struct profile *p, const char *name)
{
	for (struct node *g = node_first_child(p->root); g; g = node_next(g))
		for (struct node *n = node_first_child(g); n; n = node_next(n))
			if (!strcmp(node_name(n), name))
				return n;
	return NULL;
}

/* Every figure of a row as printed: the node's calls, total and extremes,
 * the file's mean and share, the standard deviation. */
static void test_stats_figures(void)
{
	static const char text[] = V3_HDR "\n"
		"\"k(int, float)\",3,3000001,1000000.333333,97.5,900000,1100000,100000.5\n"
		"\"hipMemcpy\",2,400,200.000000,2.5,100,300,141.421356\n"
		"\"MEMORY_COPY_HOST_TO_DEVICE\",1,50,50.0,0.01,50,50,0\n";
	const char *path = test_write("stats.csv", text, sizeof(text) - 1);
	struct profile p;
	struct node *k, *api, *copy;
	const struct attr *a;

	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK_STR(p.format, "rocprof-stats");
	k = find(&p, "k(int, float)");
	api = find(&p, "hipMemcpy");
	copy = find(&p, "MEMORY_COPY_HOST_TO_DEVICE");
	CHECK(k && api && copy);
	if (k && api && copy) {
		CHECK_EQ(k->kind, NODE_KERNEL);
		CHECK_EQ(node_calls(&p, k), 3);
		CHECK_EQ(node_device_total(&p, k), 3000001);
		CHECK_EQ(node_min_ns(&p, k), 900000);
		CHECK_EQ(node_max_ns(&p, k), 1100000);
		a = attr_find(node_attrs(k), ATTR_FILE_DEVICE_MEAN);
		CHECK(a && a->v.i == 1000000);
		a = attr_find(node_attrs(k), ATTR_FILE_DEVICE_TOTAL_PCT);
		CHECK(a && a->v.d == 97.5);
		a = attr_find(node_attrs(k), "stddev_ns");
		CHECK(a && a->v.d == 100000.5);
		CHECK_EQ(api->kind, NODE_RUNTIME);
		CHECK_EQ(node_host_total(&p, api), 400);
		CHECK_EQ(node_device_total(&p, api), 0);
		CHECK_EQ(copy->kind, NODE_MEMCPY);
		CHECK_EQ(node_device_total(&p, copy), 50);
	}
	profile_release(&p);
}

/* A value a sum could wrap on, a bad count: file:line:col errors. */
static void test_stats_bad_values(void)
{
	static const struct {
		const char *row, *where;
	} cases[] = {
		{ "\"k\",1,9223372036854775807,1,1", "bad.csv:2:7: error: value '9223372036854775807'" },
		{ "\"k\",1099511627777,1,1,1", "bad.csv:2:5: error: value '1099511627777'" },
		{ "\"k\",-1,1,1,1", "bad.csv:2:5: error: value '-1'" },
		{ "\"k\",1,1,inf,1", "bad.csv:2:9: error: value 'inf'" },
		{ "\"k\",1,1,1,1e300", "bad.csv:2:11: error: value '1e300'" },
		{ "\"k\",1,1,1", "bad.csv:2:1: error: 4 fields where the header has 5" },
		{ "\"k,1,1,1,1", "bad.csv:2:1: error: quote left open" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256];
		int n = snprintf(text, sizeof(text), STATS_HDR "\n%s\n", cases[i].row);
		const char *path = test_write("bad.csv", text, (size_t)n);
		struct profile p;

		CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), -1);
		if (!strstr(msg, cases[i].where)) {
			printf("  case %zu: %s\n", i, msg);
			CHECK(strstr(msg, cases[i].where) != NULL);
		}
		profile_release(&p);
	}
}

/* Records in start order whatever the file's; one that ends before it
 * starts is skipped with a warning; a timestamp past its bound is an
 * error. */
static void test_trace_records(void)
{
	static const char text[] = KT_HDR "\n"
		"\"KERNEL_DISPATCH\",\"Agent 1\",3,7,\"late\",2,2000,2500\n"
		"\"KERNEL_DISPATCH\",\"Agent 1\",3,7,\"early\",1,1000,1200\n"
		"\"KERNEL_DISPATCH\",\"Agent 1\",3,7,\"backwards\",3,3000,2999\n";
	static const char huge[] = KT_HDR "\n"
		"\"KERNEL_DISPATCH\",1,1,7,\"k\",1,4611686018427387904,4611686018427387905\n";
	const char *path = test_write("trace.csv", text, sizeof(text) - 1);
	struct profile p;
	struct node *gpu, *a, *b;
	const struct launch *l;

	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK_STR(p.format, "rocprof-trace");
	CHECK(strstr(msg, "trace.csv:4:") && strstr(msg, "'backwards' ends before it starts"));
	gpu = node_first_child(p.root);
	CHECK(gpu && !strcmp(node_name(gpu), "GPU 1"));
	a = gpu ? node_first_child(gpu) : NULL;
	b = a ? node_next(a) : NULL;
	CHECK(a && b && !node_next(b));
	if (a && b) {
		CHECK_STR(node_name(a), "early");
		CHECK_STR(node_name(b), "late");
		CHECK_EQ(a->start_ns, 1000);
		CHECK_EQ(node_device_total(&p, a), 200);
		l = node_launch(a);
		CHECK(l && l->device == 1 && l->stream == 3);
	}
	CHECK(p.has_time_origin && p.time_origin_ns == 1000);
	profile_release(&p);
	path = test_write("huge.csv", huge, sizeof(huge) - 1);
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), -1);
	CHECK(strstr(msg, "huge.csv:2:") && strstr(msg, "a timestamp within 2^62 ns"));
	profile_release(&p);
}

#define CP_HDR "\"Kind\",\"Direction\",\"Source_Agent_Id\",\"Destination_Agent_Id\"," \
	       "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\""

/* A run's traces loaded together, in either order: each dispatch and
 * copy under the HIP call of its Correlation_Id (of two calls of an id,
 * the one on its thread), one without a call left under its GPU; time 0
 * the earliest start of all the files. */
static void test_link(void)
{
	static const char kt[] = "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Thread_Id\","
		"\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n"
		"\"KERNEL_DISPATCH\",2,1,8,\"k\",5,2000,2500\n"
		"\"KERNEL_DISPATCH\",2,1,8,\"orphan\",9,3000,3100\n";
	static const char api[] = API_HDR "\n"
		"\"HIP_RUNTIME_API\",\"hipLaunchKernel\",1,7,5,1500,1600\n"
		"\"HIP_RUNTIME_API\",\"hipLaunchKernel\",1,8,5,1700,1800\n"
		"\"HIP_RUNTIME_API\",\"hipMemcpy\",1,7,6,900,5000\n";
	static const char cp[] = CP_HDR "\n"
		"\"MEMORY_COPY\",\"HOST_TO_DEVICE\",0,3,6,1000,1400\n";

	for (int order = 0; order < 2; order++) {
		char dir[512], kpath[600], apath[600], cpath[600];
		const char *paths[3];
		struct profile p;
		struct node *k = NULL, *orphan = NULL, *copy = NULL;

		snprintf(dir, sizeof(dir), "%s", test_write("x", "", 0));
		*strrchr(dir, '/') = '\0';
		snprintf(kpath, sizeof(kpath), "%s/r_kernel_trace.csv", dir);
		snprintf(apath, sizeof(apath), "%s/r_hip_api_trace.csv", dir);
		snprintf(cpath, sizeof(cpath), "%s/r_memory_copy_trace.csv", dir);
		test_write("r_kernel_trace.csv", kt, sizeof(kt) - 1);
		test_write("r_hip_api_trace.csv", api, sizeof(api) - 1);
		test_write("r_memory_copy_trace.csv", cp, sizeof(cp) - 1);
		paths[0] = order ? apath : kpath;
		paths[1] = order ? kpath : apath;
		paths[2] = cpath;
		CHECK_EQ(test_load_paths(&p, paths, 3, NULL, msg, sizeof(msg)), 0);
		CHECK(strstr(msg, "1 kernel dispatch or copy not linked to a HIP call") != NULL);
		for (struct node *g = node_first_child(p.root); g; g = node_next(g))
			for (struct node *c = node_first_child(g); c; c = node_next(c)) {
				if (!strcmp(node_name(c), "orphan"))
					orphan = c;
				for (struct node *d = node_first_child(c); d; d = node_next(d)) {
					if (!strcmp(node_name(d), "k"))
						k = d;
					if (!strcmp(node_name(d), "MEMORY_COPY_HOST_TO_DEVICE"))
						copy = d;
				}
			}
		CHECK(k && orphan && copy);
		if (k && orphan && copy) {
			struct node *call = node_parent(k), *thread = call ? node_parent(call) : NULL;
			int32_t device = -1, stream = -1;

			CHECK_STR(node_name(call), "hipLaunchKernel");
			CHECK_EQ(call->start_ns, 1700);	/* thread 8's call of id 5 */
			CHECK(thread && !strcmp(node_name(thread), "thread 8"));
			CHECK_STR(node_name(node_parent(orphan)), "GPU 2");
			CHECK_STR(node_name(node_parent(copy)), "hipMemcpy");
			CHECK_EQ(node_device_total(&p, copy), 400);
			CHECK(profile_copy_stream(&p, copy, &device, &stream) && device == 3 &&
			      stream == -1);
		}
		CHECK(p.has_time_origin && p.time_origin_ns == 900);
		profile_release(&p);
	}
}

/* Marker ranges nest per thread; one that outlasts the range it starts
 * in lies beside it, under the nearest range that holds it, warned of;
 * self time is the range less the union of its children. */
static void test_markers_nest(void)
{
	static const char text[] = API_HDR "\n"
		"\"MARKER_CORE_API\",\"outer\",1,7,1,1000,2000\n"
		"\"MARKER_CORE_API\",\"a\",1,7,2,1100,1500\n"
		"\"MARKER_CORE_API\",\"cross\",1,7,3,1400,1800\n"
		"\"MARKER_CORE_API\",\"inner\",1,7,4,1150,1200\n";
	const char *path = test_write("markers.csv", text, sizeof(text) - 1);
	struct profile p;
	struct node *thread, *outer, *a, *cross, *inner;

	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK(strstr(msg, "1 marker range outlasts a range it starts in") != NULL);
	thread = node_first_child(p.root);
	outer = thread ? node_first_child(thread) : NULL;
	a = outer ? node_first_child(outer) : NULL;
	cross = a ? node_next(a) : NULL;
	inner = a ? node_first_child(a) : NULL;
	CHECK(outer && a && cross && inner && !node_next(outer));
	if (outer && a && cross && inner) {
		CHECK_STR(node_name(outer), "outer");
		CHECK_STR(node_name(a), "a");
		CHECK_STR(node_name(cross), "cross");
		CHECK_STR(node_name(inner), "inner");
		CHECK_EQ(outer->kind, NODE_ANNOTATION);
		CHECK_EQ(node_host_total(&p, outer), 1000);
		/* a [1100,1500) and cross [1400,1800): 700 of it covered */
		CHECK_EQ(node_host_self(&p, outer), 300);
		CHECK_EQ(node_host_self(&p, a), 350);
		CHECK_EQ(node_host_self(&p, cross), 400);
	}
	profile_release(&p);
}

/* 200,000 rows read in linear time. */
static void test_many_rows(void)
{
	size_t cap = 200000 * 48 + 128, n = 0;
	char *text = xmalloc(cap);
	const char *path;
	struct profile p;
	double t0;

	n += (size_t)snprintf(text + n, cap - n, STATS_HDR "\n");
	for (int i = 0; i < 200000; i++)
		n += (size_t)snprintf(text + n, cap - n, "\"kernel_%d\",1,10,10,0.0005\n", i);
	path = test_write("many.csv", text, n);
	free(text);
	t0 = test_cpu_s();
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(p.nr_nodes, 200002);
	profile_release(&p);
}

const struct test tests[] = {
	{ "split", test_split },
	{ "split_errors", test_split_errors },
	{ "probe", test_probe },
	{ "not_claimed", test_not_claimed },
	{ "stats_figures", test_stats_figures },
	{ "stats_bad_values", test_stats_bad_values },
	{ "trace_records", test_trace_records },
	{ "many_rows", test_many_rows },
	{ "link", test_link },
	{ "markers_nest", test_markers_nest },
	{ 0 },
};
