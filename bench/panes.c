// SPDX-License-Identifier: MIT
/*
 * The pane engine on a million rows: how long a sort by each kind of
 * column and a filter take, as the TUI does them on a key press.  Figures
 * for bench/run.sh, not a test: prints the median of RUNS runs in ms.
 *
 *   build/bench/panes [ROWS [RUNS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view/pane.h"

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	size_t rows = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	struct profile p;
	struct pane *pane;
	double t0, *ms = calloc((size_t)runs, sizeof(*ms));
	char name[96], err[128];
	uint64_t seed = 42;
	static const char *const sorts[] = { "device_self", "host_total", "calls", "name" };
	static const char *const filters[] = { "conv", "^aten::(mm|addmm)_1[0-9]+$", "!kernel" };

	profile_init(&p, "bench");
	t0 = now_ms();
	/* Distinct op names with times from a little xorshift generator. */
	for (size_t i = 0; i < rows; i++) {
		static const char *const stems[] = { "aten::conv2d", "aten::mm", "aten::addmm",
						     "aten::add_", "my_kernel_launch", "aten::copy_" };
		struct node *n;
		int len;

		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		len = snprintf(name, sizeof(name), "%s_%zu", stems[seed % 6], i);
		n = node_new(&p, p.root, NODE_OP, name, (size_t)len);
		node_set_calls(&p, n, 1 + seed % 1000);
		node_set_device_self(&p, n, (int64_t)(seed % 100000000));
		node_set_device_total(&p, n, node_device_self(&p, n) + (int64_t)(seed % 777));
		node_set_host_self(&p, n, (int64_t)(seed % 5000000));
		node_set_host_total(&p, n, node_host_self(&p, n) * 2);
	}
	profile_finish(&p);
	printf("rows: %zu (built in %.0f ms)\n", rows, now_ms() - t0);

	t0 = now_ms();
	pane = pane_new(pane_types[PANE_OPS], &p, NULL);
	printf("%-36s %8.1f ms\n", "Operators pane: aggregate + sort", now_ms() - t0);
	for (size_t s = 0; s < sizeof(sorts) / sizeof(sorts[0]); s++) {
		int col = pane_column(pane, sorts[s]);

		for (int r = 0; r < runs; r++) {
			t0 = now_ms();
			pane_sort(pane, col, r % 2 == 0);
			ms[r] = now_ms() - t0;
		}
		printf("sort by %-28s %8.1f ms (median of %d)\n", sorts[s], median(ms, runs), runs);
	}
	/* Filters re-sort what they keep: by device self, the default. */
	pane_sort(pane, pane_column(pane, "device_self"), true);
	for (size_t f = 0; f < sizeof(filters) / sizeof(filters[0]); f++) {
		for (int r = 0; r < runs; r++) {
			struct filter *flt = filter_new(filters[f], err, sizeof(err));

			t0 = now_ms();
			pane_set_filter(pane, flt);
			ms[r] = now_ms() - t0;
		}
		printf("filter %-29s %8.1f ms (median of %d; %zu rows match, sorted)\n", filters[f],
		       median(ms, runs), runs, pane->nr_view);
	}
	pane_free(pane);
	profile_release(&p);
	free(ms);
	return 0;
}
