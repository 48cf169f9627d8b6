// SPDX-License-Identifier: MIT
/* The terminal-free parts of the UI: short names numbered apart, column
 * choices, the config file, the detail view, the column chooser. */
#include "test.h"
#include "view/columns.h"
#include "tui/config.h"
#include "view/detail.h"
#include "view/pane.h"
#include "view/shortnames.h"

static struct node *kernel(struct profile *p, struct node *parent, const char *name, int64_t ns)
{
	struct node *n = node_new(p, parent, NODE_KERNEL, name, strlen(name));

	node_set_calls(p, n, 1);
	node_set_device_total(p, n, ns);
	node_set_device_self(p, n, ns);
	return n;
}

static const char *const k1 = "void at::native::vectorized_elementwise_kernel<4, at::native::"
			      "FillFunctor<float> >(int, at::native::FillFunctor<float>)";
static const char *const k2 = "void at::native::vectorized_elementwise_kernel<4, at::native::"
			      "AddFunctor<float> >(int, at::native::AddFunctor<float>)";

/* Two ops; mm launches k1 twice and k2 once, add launches k2. */
static void build(struct profile *p)
{
	struct node *mm = node_new(p, p->root, NODE_OP, "aten::mm", 8);
	struct node *add = node_new(p, p->root, NODE_OP, "aten::add", 9);

	node_set_calls(p, mm, 1);
	node_set_calls(p, add, 1);
	kernel(p, mm, k1, 300);
	kernel(p, mm, k1, 100);
	kernel(p, mm, k2, 50);
	kernel(p, add, k2, 20);
	kernel(p, add, "wgrad_alg0_engine<...>", 5);
	profile_finish(p);
}

static void test_short_names_apart(void)
{
	struct profile p;
	struct shortnames *sn;
	const char *a, *b;

	profile_init(&p, "t");
	build(&p);
	kernel(&p, p.root, "void wgrad_alg0_engine<float>(int)", 1);
	profile_finish(&p);
	sn = shortnames_new(&p, true);
	a = shortnames_get(sn, profile_intern(&p, k1, strlen(k1)));
	b = shortnames_get(sn, profile_intern(&p, k2, strlen(k2)));
	/* One short form, numbered in the order the tree meets them. */
	CHECK_STR(a, "vectorized_elementwise_kernel<...> #1");
	CHECK_STR(b, "vectorized_elementwise_kernel<...> #2");
	/* A short form that is another name's whole name is numbered too. */
	CHECK_STR(shortnames_get(sn, profile_intern(&p, "void wgrad_alg0_engine<float>(int)", 34)),
		  "wgrad_alg0_engine<...> #1");
	CHECK_STR(shortnames_get(sn, profile_intern(&p, "aten::mm", 8)), "aten::mm");
	/* A name the table has never met comes back as it is. */
	CHECK_STR(shortnames_get(sn, "not interned"), "not interned");
	shortnames_free(sn);
	profile_release(&p);
}

static void keys_of(const struct pane *pane, const struct col_choice *cc, char *buf, size_t size)
{
	int order[64];
	size_t n = columns_order(cc, pane, order, 64), k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && k < size; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? " " : "", pane->cols[order[i]].key);
}

static void test_column_choice(void)
{
	struct profile p;
	struct pane *pane;
	struct col_choice cc = { 0 };
	char got[512];

	profile_init(&p, "t");
	build(&p);
	pane = pane_new(pane_types[PANE_OPS], &p, NULL);
	keys_of(pane, NULL, got, sizeof(got));
	CHECK_STR(got, "name calls device_self device_total device_self_pct device_mean");
	/* Shown in this order, one hidden, a key no column has ignored; the
	 * columns it does not name come after. */
	col_choice_add(&cc, "device_total", true);
	col_choice_add(&cc, "name", false);	/* the name is always shown */
	col_choice_add(&cc, "calls", false);
	col_choice_add(&cc, "no_such_column", true);
	keys_of(pane, &cc, got, sizeof(got));
	CHECK_STR(got, "device_total name device_self device_self_pct device_mean");
	col_choice_release(&cc);
	pane_free(pane);
	profile_release(&p);
}

static void test_config_file(void)
{
	struct config c, back;
	char err[512], cfg[1024];
	const char *path;

	config_init(&c);
	CHECK_EQ(config_parse(&c, "config", "# mine\n"
					    "set short-names on\n"
					    "set mouse off\n"
					    "set keymap vi\n"
					    "sort kernels mean ascending\n"
					    "columns ops name -calls device_total\n"
					    "set colour on\n"
					    "sort nowhere name\n"
					    "set mouse maybe\n"),
		 3);
	CHECK_EQ(c.short_names, 1);
	CHECK_EQ(c.mouse, 0);
	CHECK_STR(c.keymap, "vi");
	CHECK_STR(c.sort[PANE_KERNELS].key, "mean");
	CHECK(!c.sort[PANE_KERNELS].is_desc);
	CHECK_EQ(c.cols[PANE_OPS].nr, 3);
	CHECK(!c.cols[PANE_OPS].v[1].is_shown);
	CHECK(strstr(c.messages, "config:7: unknown setting 'colour'") != NULL);
	CHECK(strstr(c.messages, "config:8: unknown pane 'nowhere'") != NULL);
	CHECK(strstr(c.messages, "config:9: 'mouse' is on or off, not 'maybe'") != NULL);
	/* What is saved reads back the same; the directory is made. */
	path = test_write("x", "", 0);
	snprintf(cfg, sizeof(cfg), "%s.d/proftui/config", path);
	CHECK_EQ(config_save(&c, cfg, err, sizeof(err)), 0);
	config_init(&back);
	CHECK_EQ(config_load(&back, cfg, false), 0);
	CHECK_EQ(back.short_names, 1);
	CHECK_EQ(back.mouse, 0);
	CHECK_STR(back.keymap, "vi");
	CHECK_STR(back.sort[PANE_KERNELS].key, "mean");
	CHECK(back.sort[PANE_KERNELS].has_dir && !back.sort[PANE_KERNELS].is_desc);
	CHECK_EQ(back.cols[PANE_OPS].nr, 3);
	CHECK_STR(back.cols[PANE_OPS].v[1].key, "calls");
	CHECK(!back.cols[PANE_OPS].v[1].is_shown);
	config_release(&back);
	config_release(&c);
	/* An absent file is quiet when asked. */
	config_init(&c);
	CHECK_EQ(config_load(&c, "/nonexistent/proftui/config", true), -1);
	CHECK(!c.messages);
	config_release(&c);
}

static const struct detail_line *line_of(const struct pane *d, const char *field)
{
	for (size_t i = 0; i < d->nr_rows; i++)
		if (!strcmp(((const struct detail_line *)d->rows[i])->field, field))
			return d->rows[i];
	return NULL;
}

static void test_detail(void)
{
	struct profile p;
	struct pane *kernels, *d;
	struct detail_arg da;
	struct pane_scope scope = { 0 };
	struct pane_request req;
	const struct detail_line *l;

	profile_init(&p, "t");
	build(&p);
	kernels = pane_new(pane_types[PANE_KERNELS], &p, NULL);
	CHECK(pane_seek(kernels, k2));
	da.of = kernels;
	da.row = pane_row(kernels, kernels->cursor);
	scope.arg = &da;
	d = pane_new(pane_types[PANE_DETAIL], &p, &scope);
	/* The full name, every column with its unit and meaning. */
	CHECK_STR(line_of(d, "Name")->value, k2);
	CHECK_STR(line_of(d, "Total")->value, "0.070 us");
	CHECK_STR(line_of(d, "Calls")->value, "2");
	CHECK(strstr(line_of(d, "Total")->meaning, "summed over its calls") != NULL);
	/* The ops that launched it, most device time first, each leading to
	 * its row in Operators. */
	l = line_of(d, "op 1");
	CHECK(l && !strncmp(l->value, "aten::mm (", 10));
	l = line_of(d, "op 2");
	CHECK(l && !strncmp(l->value, "aten::add (", 11));
	CHECK(pane_seek(d, "op 2"));
	CHECK(pane_handle(d, ACT_DRILL, &req));
	CHECK(req.jump && req.jump_to == PANE_OPS);
	CHECK_STR(req.jump_row, "aten::add");
	pane_free(d);
	pane_free(kernels);
	profile_release(&p);
}

/* A kernel's launch line whole: every part of it, however long, and no
 * part cut to a bare number ("..., 0" where "0 B shared memory" was
 * cut at 128 bytes). */
static void test_detail_launch(void)
{
	struct profile p;
	struct pane *tree, *d;
	struct detail_arg da;
	struct pane_scope scope = { 0 };
	struct launch l = { .device = 0, .stream = 7, .grid = { 2147483647, 65535, 65535 },
			    .block = { 1024, 1024, 64 }, .registers_per_thread = 255,
			    .shared_memory_bytes = 0, .blocks_per_sm = 1234.5,
			    .occupancy_pct = 100 };
	struct node *op, *k;
	const struct detail_line *line;

	profile_init(&p, "t");
	op = node_new(&p, p.root, NODE_OP, "aten::mm", 8);
	node_set_calls(&p, op, 1);
	k = kernel(&p, op, "gemm", 10);
	attr_set_launch(&p, node_attr_list(k), profile_launch(&p, &l));
	profile_finish(&p);
	tree = pane_new(pane_types[PANE_TREE], &p, &(struct pane_scope){ .expand_all = true });
	CHECK(pane_seek(tree, "gemm"));
	da.of = tree;
	da.row = pane_row(tree, tree->cursor);
	scope.arg = &da;
	d = pane_new(pane_types[PANE_DETAIL], &p, &scope);
	line = line_of(d, "launch");
	CHECK(line != NULL);
	if (line)
		CHECK_STR(line->value, "grid (2147483647, 65535, 65535), block (1024, 1024, 64), "
				       "device 0, stream 7, 255 registers per thread, 0 B shared "
				       "memory, 1234.50 blocks per SM, 100.00% est. achieved "
				       "occupancy");
	pane_free(d);
	pane_free(tree);
	profile_release(&p);
}

static void test_chooser(void)
{
	struct profile p;
	struct pane *ops, *ch;
	struct col_choice cc = { 0 };
	struct columns_arg ca;
	struct pane_scope scope = { 0 };
	struct pane_request req;
	char got[512];

	profile_init(&p, "t");
	build(&p);
	ops = pane_new(pane_types[PANE_OPS], &p, NULL);
	ca.choice = &cc;
	ca.of = ops;
	scope.arg = &ca;
	ch = pane_new(pane_types[PANE_COLUMNS], &p, &scope);
	CHECK_EQ(ch->nr_view, ops->nr_cols);
	/* The name cannot go; Calls can, and moves down one. */
	CHECK(pane_handle(ch, ACT_TOGGLE_COLUMN, &req));
	CHECK(req.is_error);
	CHECK(pane_seek(ch, "Calls"));
	CHECK(pane_handle(ch, ACT_TOGGLE_COLUMN, &req));
	CHECK(pane_handle(ch, ACT_COLUMN_DOWN, &req));
	keys_of(ops, &cc, got, sizeof(got));
	CHECK_STR(got, "name device_self device_total device_self_pct device_mean");
	CHECK_EQ(cc.nr, ops->nr_cols);
	CHECK_STR(cc.v[2].key, "calls");
	CHECK(!cc.v[2].is_shown);
	/* K moves it back up, Space shows it again. */
	CHECK(pane_handle(ch, ACT_COLUMN_UP, &req));
	CHECK(pane_handle(ch, ACT_TOGGLE_COLUMN, &req));
	keys_of(ops, &cc, got, sizeof(got));
	CHECK_STR(got, "name calls device_self device_total device_self_pct device_mean");
	pane_free(ch);
	pane_free(ops);
	col_choice_release(&cc);
	profile_release(&p);
}

static bool has_row(const struct pane *pane, const char *key, const char *value)
{
	struct cell v;

	for (size_t i = 0; i < pane->nr_view; i++) {
		const void *row = pane_row(pane, i);

		if (strcmp(pane_row_name(pane, row), key))
			continue;
		v = pane_cell(pane, row, (size_t)pane_column(pane, "value"));
		if (v.type == CELL_TEXT && !strcmp(v.v.s, value))
			return true;
	}
	return false;
}

static void test_info_devices(void)
{
	struct profile p;
	struct device_info *d;
	struct pane *info;
	struct pane_request req;

	profile_init(&p, "t");
	d = profile_add_device(&p, 0);
	d->name = "NVIDIA H100 80GB HBM3";
	d->total_memory_bytes = 85198045184;
	d->cc_major = 9;
	d->cc_minor = 0;
	d->num_sms = 132;
	profile_meta(&p, "device 0", "totalGlobalMem", "85198045184");
	profile_meta(&p, "device 0", "numSms", "132");
	p.dist.present = true;
	p.dist.rank = 3;
	p.dist.world_size = 8;
	p.dist.backend = "nccl";
	profile_finish(&p);
	info = pane_new(pane_types[PANE_INFO], &p, NULL);
	/* A line with units; the raw properties folded under it. */
	CHECK(has_row(info, "summary", "NVIDIA H100 80GB HBM3, 79.35 GiB, compute 9.0, 132 SMs"));
	CHECK(!has_row(info, "totalGlobalMem", "85198045184"));
	CHECK(has_row(info, "rank", "3"));
	CHECK(has_row(info, "world size", "8"));
	CHECK(has_row(info, "backend", "nccl"));
	CHECK(pane_seek(info, "raw properties"));
	CHECK(pane_handle(info, ACT_DRILL, &req));
	CHECK(has_row(info, "totalGlobalMem", "85198045184"));
	pane_free(info);
	profile_release(&p);
}

const struct test tests[] = {
	{ "short names: one short form, numbered apart", test_short_names_apart },
	{ "a column choice orders and hides columns by key", test_column_choice },
	{ "the config file: settings, sorts, columns; bad lines; saved and read", test_config_file },
	{ "the detail view: name, columns with meanings, who launched it", test_detail },
	{ "the detail view: a kernel's launch line whole", test_detail_launch },
	{ "the column chooser shows, hides and moves columns", test_chooser },
	{ "Info: devices in a line with units, raw ones folded; the rank", test_info_devices },
	{ 0 },
};
