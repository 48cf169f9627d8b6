// SPDX-License-Identifier: MIT
/* The filter's costs: PCRE2's limits make a pattern that backtracks
 * without end an error (never "no match"), a pass can be stopped from
 * outside, and patterns have a bounded length. */
#include "test.h"
#include "view/filter.h"
#include "view/pane.h"

/* N a's then TAIL: (a+)+ tries 2^N ways to split the run. */
static char *run_of_a(size_t n, const char *tail)
{
	char *s = xmalloc(n + strlen(tail) + 1);

	memset(s, 'a', n);
	strcpy(s + n, tail);
	return s;
}

/* Five ops that all end in b and a digit, after 30 a's. */
static void build_long(struct profile *p)
{
	for (int i = 0; i < 5; i++) {
		char tail[16];
		char *name;
		struct node *n;

		snprintf(tail, sizeof(tail), "b%d", i);
		name = run_of_a(30, tail);
		n = node_new(p, p->root, NODE_OP, name, strlen(name));
		node_set_calls(p, n, 1);
		node_set_host_total(p, n, 10);
		node_set_host_self(p, n, 10);
		free(name);
	}
	profile_finish(p);
}

static void test_limit_is_an_error(void)
{
	struct profile p;
	struct pane *pane;
	char err[256];
	const char *why;

	profile_init(&p, "t");
	build_long(&p);
	pane = pane_new(pane_types[PANE_OPS], &p, NULL);
	/* Every row matches b[0-9]$, but the first branch gives up first:
	 * that is not "0 of 5 rows", it is an error. */
	pane_set_filter(pane, filter_new("(a+)+c|b[0-9]$", err, sizeof(err)));
	why = filter_error(pane->filter);
	CHECK(why != NULL);
	CHECK(why && strstr(why, "pattern too costly (match limit exceeded) on 'aaaa"));
	/* The same rows without the costly branch: all shown. */
	pane_set_filter(pane, filter_new("b[0-9]$", err, sizeof(err)));
	CHECK(filter_error(pane->filter) == NULL);
	CHECK_EQ(pane->nr_view, 5);
	pane_free(pane);
	profile_release(&p);
}

static void test_backtracking_within_limits(void)
{
	char err[256];
	struct filter *f = filter_new("(a+)+c|b[0-9]$", err, sizeof(err));
	char *s = run_of_a(8, "b1");

	/* 2^8 ways: well inside the limit, so decided, and a match. */
	CHECK(filter_match(f, s, strlen(s)));
	CHECK(filter_error(f) == NULL);
	filter_free(f);
	free(s);
}

static void test_error_is_sticky_and_short(void)
{
	char err[256];
	struct filter *f = filter_new("(a+)+$", err, sizeof(err));
	char *s = run_of_a(1000, "_");
	const char *why;

	CHECK(!filter_match(f, s, strlen(s)));
	why = filter_error(f);
	CHECK(why != NULL);
	/* The name quoted short: 40 a's and an ellipsis, not 1,000. */
	CHECK(why && strstr(why, "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'"));
	/* After an error the pass shows nothing, even what would match. */
	CHECK(!filter_match(f, "a", 1));
	CHECK(filter_error(f) == why);
	filter_free(f);
	free(s);
}

static bool stop_at_once(void *ctx)
{
	(*(int *)ctx)++;
	return true;
}

static void test_stop(void)
{
	char err[256];
	struct filter *f = filter_new("x", err, sizeof(err));
	int asked = 0, shown = 0;

	filter_set_stop(f, stop_at_once, &asked);
	for (int i = 0; i < 1000; i++)
		shown += filter_match(f, "x", 1);
	/* Asked once, after a few matches; none shown after it. */
	CHECK_EQ(asked, 1);
	CHECK(shown > 0 && shown < 100);
	CHECK(filter_stopped(f));
	CHECK(filter_error(f) == NULL);
	filter_set_stop(f, NULL, NULL);
	filter_resume(f);
	CHECK(!filter_stopped(f));
	CHECK(filter_match(f, "x", 1));
	filter_free(f);
}

static void test_pattern_length(void)
{
	char err[256];
	char *re = xmalloc(FILTER_PATTERN_MAX + 2);
	struct filter *f;

	memset(re, 'a', FILTER_PATTERN_MAX + 1);
	re[FILTER_PATTERN_MAX + 1] = '\0';
	CHECK(filter_new(re, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "the most is 65536") != NULL);
	/* At the bound, PCRE2 judges (its compiled form may be too large). */
	re[FILTER_PATTERN_MAX] = '\0';
	f = filter_new(re, err, sizeof(err));
	CHECK(f || !strstr(err, "the most is"));
	filter_free(f);
	free(re);
}

/* A group repeated over a long name: deep, but cheap.  PCRE2's JIT stack
 * (32 KiB unless given one) gave up at a few thousand characters. */
static void test_long_name_repeated_group(void)
{
	char err[256];
	struct filter *f = filter_new("^(?:\\w|:)+$", err, sizeof(err));
	char *s = run_of_a(5000, "::b");

	CHECK(filter_match(f, s, strlen(s)));
	CHECK(filter_error(f) == NULL);
	filter_free(f);
	free(s);
}

const struct test tests[] = {
	{ "a limit hit is an error, not no match", test_limit_is_an_error },
	{ "backtracking within the limits", test_backtracking_within_limits },
	{ "an error stays and quotes the name short", test_error_is_sticky_and_short },
	{ "a pass stops when asked", test_stop },
	{ "patterns have a bounded length", test_pattern_length },
	{ "a repeated group over a long name", test_long_name_repeated_group },
	{ 0 },
};
