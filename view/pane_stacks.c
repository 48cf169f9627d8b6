// SPDX-License-Identifier: MIT
/*
 * Call stacks: the Python stacks an op ran under, for traces recorded
 * with_stack -- what torch-tb-profiler's "View call stack" lists.  K (the
 * call-stack action) on a row of Operators (or of a module's ops) opens
 * it for that op name, and for its input shapes when the rows are
 * grouped by them; --print stacks --drill NAME prints it.
 *
 * One section per distinct stack (agg_op_stacks()), the most device total
 * time first (then host total): its calls and times, then its frames one
 * per line, innermost first as the trace gives them.  Calls without a
 * stack are one section of their own, last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "pane.h"

struct st_row {
	const struct agg_row *stack;	/* a section: its stack's row */
	char *text;			/* heap: the section's title or a frame */
};

struct st_priv {
	struct agg agg;
	struct st_row *rows;
	size_t nr, alloc;
};

#define ROW(r) ((const struct st_row *)(r))

static bool of_op(const struct node *n, void *ctx)
{
	const struct pane_scope *s = ctx;
	const struct attr *a;

	if (s->drill_node)
		return n == s->drill_node;
	if (!s->drill_name || strcmp(node_name(n), s->drill_name))
		return false;
	if (!s->arg)
		return true;
	/* Grouped by shape: the plugin's "[]" stands for none too. */
	a = attr_find(node_attrs(n), "input_shapes");
	return !strcmp(a && attr_type(a) == ATTR_STRING ? a->v.s : "[]", s->arg);
}

static int cmp_stack(const void *a, const void *b)
{
	const struct agg_row *x = a, *y = b;

	if (!x->stack != !y->stack)
		return !x->stack ? 1 : -1;
	if (x->device_total_ns != y->device_total_ns)
		return x->device_total_ns > y->device_total_ns ? -1 : 1;
	if (x->host_total_ns != y->host_total_ns)
		return x->host_total_ns > y->host_total_ns ? -1 : 1;
	return x->stack && y->stack ? stack_attr_cmp(x->stack, y->stack) : 0;
}

static void add(struct st_priv *sp, const struct agg_row *stack, char *text)
{
	GROW(sp->rows, sp->alloc, sp->nr + 1);
	sp->rows[sp->nr].stack = stack;
	sp->rows[sp->nr++].text = text;
}

static void add_frame(const char *s, size_t n, void *ctx)
{
	add(ctx, NULL, xstrndup(s, n));
}

static struct cell get_text(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->text);
}

#define STACK_I64(field)                                                                        \
	static struct cell get_##field(const struct pane *pane, const void *row,                \
				       const struct column *c)                                  \
	{                                                                                       \
		(void)pane, (void)c;                                                            \
		return ROW(row)->stack ? cell_int(ROW(row)->stack->field) : cell_none();        \
	}
STACK_I64(calls)
STACK_I64(device_self_ns)
STACK_I64(device_total_ns)
STACK_I64(host_self_ns)
STACK_I64(host_total_ns)

static const struct column st_cols[] = {
	{ .key = "frame", .title = "Call stack", .kind = COL_NAME, .get = get_text,
	  .help = "a stack (its calls and times), then its Python frames, innermost first" },
	{ .key = "calls", .title = "Calls", .kind = COL_COUNT, .width = 6, .get = get_calls,
	  .help = "calls of the op under this stack" },
	{ .key = "device_self", .title = "Dev self", .kind = COL_TIME, .width = 10,
	  .get = get_device_self_ns, .help = "their device self time" },
	{ .key = "device_total", .title = "Dev total", .kind = COL_TIME, .width = 10,
	  .get = get_device_total_ns, .help = "their device total time" },
	{ .key = "host_self", .title = "Host self", .kind = COL_TIME, .width = 10,
	  .get = get_host_self_ns, .help = "their host self time" },
	{ .key = "host_total", .title = "Host total", .kind = COL_TIME, .width = 10,
	  .get = get_host_total_ns, .help = "their host total time" },
};

static void st_load(struct pane *pane)
{
	struct st_priv *sp = xcalloc(1, sizeof(*sp));
	struct agg_scope s = { .step = pane->scope.step, .want = of_op, .ctx = &pane->scope };
	const char *what = pane->scope.drill_node ? node_name(pane->scope.drill_node)
			   : pane->scope.drill_name ? pane->scope.drill_name : "?";
	size_t n;

	pane->priv = sp;
	if (pane->scope.drill_node || pane->scope.drill_name)
		agg_op_stacks(pane->prof, &s, &sp->agg);
	/* Nothing to list when no call has a stack. */
	for (n = 0; n < sp->agg.nr && !sp->agg.rows[n].stack; n++)
		;
	if (n == sp->agg.nr)
		sp->agg.nr = 0;
	if (sp->agg.nr > 1)	/* rows may be NULL */
		qsort(sp->agg.rows, sp->agg.nr, sizeof(*sp->agg.rows), cmp_stack);
	for (size_t i = 0; i < sp->agg.nr; i++) {
		const struct agg_row *r = &sp->agg.rows[i];
		char title[64];

		if (!r->stack) {
			add(sp, r, xstrdup("(no call stack)"));
			continue;
		}
		snprintf(title, sizeof(title), "Stack %zu", i + 1);
		add(sp, r, xstrdup(title));
		/* One row a frame: a deep stack is many short rows, never
		 * its text. */
		stack_attr_frames(r->stack, add_frame, sp);
	}
	pane->rows = xmalloc((sp->nr ? sp->nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < sp->nr; i++)
		pane->rows[i] = &sp->rows[i];
	pane->nr_rows = sp->nr;
	for (size_t i = 0; i < ARRAY_SIZE(st_cols); i++)
		pane_add_column(pane, &st_cols[i]);
	pane->sort_col = -1;	/* the sections' order */
	n = strlen(what) + 32 + (pane->scope.arg ? strlen(pane->scope.arg) : 0);
	free(pane->title);	/* a step reloads the pane */
	pane->title = xmalloc(n);
	snprintf(pane->title, n, "%s%s%s \xe2\x80\xba call stacks", what,
		 pane->scope.arg ? " " : "", pane->scope.arg ? (const char *)pane->scope.arg : "");
}

static const char *st_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->text;
}

static int st_depth(const struct pane *pane, size_t i)
{
	return !ROW(pane_row(pane, i))->stack;
}

static int st_fold(const struct pane *pane, size_t i)
{
	(void)pane, (void)i;
	return 0;
}

/* The filter keeps a stack's heading with the frames it matches. */
static void st_rebuild(struct pane *pane)
{
	size_t n = 0, head = SIZE_MAX;

	pane->view = xrealloc(pane->view, (pane->nr_rows ? pane->nr_rows : 1) * sizeof(*pane->view));
	for (size_t i = 0; i < pane->nr_rows; i++) {
		const struct st_row *r = pane->rows[i];

		if (r->stack) {
			head = i;
			if (!pane->filter)
				pane->view[n++] = i;
			continue;
		}
		if (pane->filter && !filter_match(pane->filter, r->text, strlen(r->text)))
			continue;
		if (pane->filter && head != SIZE_MAX) {
			pane->view[n++] = head;
			head = SIZE_MAX;
		}
		pane->view[n++] = i;
	}
	pane->nr_view = n;
}

static void st_empty(const struct pane *pane, char *buf, size_t size)
{
	if (!pane->scope.drill_node && !pane->scope.drill_name) {
		snprintf(buf, size, "call stacks are of one op: name it (K on an Operators row, "
			 "--drill OP)");
		return;
	}
	snprintf(buf, size, "no call stack for '%s' (record with_stack=True)",
		 pane->scope.drill_node ? node_name(pane->scope.drill_node)
		 : pane->scope.drill_name ? pane->scope.drill_name : "?");
}

static void st_export_name(const struct pane *pane, char *buf, size_t size)
{
	snprintf(buf, size, "%s-stacks", pane->scope.drill_name ? pane->scope.drill_name : "op");
}

static void st_release(struct pane *pane)
{
	struct st_priv *sp = pane->priv;

	if (!sp)
		return;
	for (size_t i = 0; i < sp->nr; i++)
		free(sp->rows[i].text);
	free(sp->rows);
	agg_release(&sp->agg);
	free(sp);
	pane->priv = NULL;
}

static const char *const st_aliases[] = { "call-stacks", "stack", NULL };

static const struct pane_tree_ops st_tree = { .row_depth = st_depth, .row_fold = st_fold };
static const struct pane_print_ops st_print = { .export_name = st_export_name };

const struct pane_ops stacks_pane_ops = {
	.id = PANE_STACKS, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_DRILL_IS_SCOPE,
	.aliases = st_aliases,
	.load = st_load, .rebuild = st_rebuild, .row_name = st_name,
	.empty_text = st_empty, .release = st_release,
	.tree = &st_tree, .print = &st_print,
};
