// SPDX-License-Identifier: MIT
/*
 * The detail view (`i` on any row; Esc returns): one row of another pane,
 * all of it -- its full name (wrapped, never cut), every column of its
 * pane with the value, its unit and what the column means, the row's
 * attributes as the file gives them (shapes, grid and block, precision,
 * tactic, call stack...), and what the row's pane type adds (detail hook:
 * the ops that launched a kernel, with Enter going to each).
 *
 * The lines are copied when it opens: the values are those of the moment
 * (the step and drill-down the row was in).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "detail.h"
#include "pane.h"

#define LINE(r) ((const struct detail_line *)(r))

static const char *line_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return LINE(row)->field;
}

static struct cell get_field(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(LINE(row)->field);
}

static struct cell get_value(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(LINE(row)->value);
}

static struct cell get_meaning(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(LINE(row)->meaning);
}

static const struct column detail_cols[] = {
	{ .key = "field", .title = "Field", .kind = COL_NAME, .get = get_field,
	  .help = "a column of the row's pane, an attribute the file gives, or a related row" },
	{ .key = "value", .title = "Value", .kind = COL_TEXT, .get = get_value, .wrap = true,
	  .help = "the row's value, with its unit" },
	{ .key = "meaning", .title = "Meaning", .kind = COL_TEXT, .get = get_meaning, .wrap = true,
	  .help = "what the value is (the column's definition)" },
};

/* An attribute's value as text, into OUT. */
static void attr_text(const struct attr *a, struct strbuf *out)
{
	char buf[128];

	strbuf_reset(out);
	switch (attr_type(a)) {
	case ATTR_INT:
		snprintf(buf, sizeof(buf), "%" PRId64, a->v.i);
		strbuf_addstr(out, buf);
		break;
	case ATTR_NS:
		fmt_time(a->v.i, buf, sizeof(buf));
		strbuf_addstr(out, buf);
		break;
	case ATTR_DOUBLE:
		snprintf(buf, sizeof(buf), "%g", a->v.d);
		strbuf_addstr(out, buf);
		break;
	case ATTR_STRING:
		strbuf_addstr(out, a->v.s ? a->v.s : "");
		break;
	case ATTR_STACK:
		call_stack_append_text(a->v.stack, out);
		break;
	case ATTR_LAUNCH: {
		const struct launch *l = a->v.launch;

		/* Into OUT as it grows: a fixed buffer cut the line's end to
		 * a bare ", 0". */
#define PUT(...)                                                                     \
	do {                                                                         \
		if (out->len)                                                        \
			strbuf_addstr(out, ", ");                                     \
		strbuf_addf(out, __VA_ARGS__);                                       \
	} while (0)
		if (l->grid[0])
			PUT("grid (%d, %d, %d)", l->grid[0], l->grid[1], l->grid[2]);
		if (l->block[0])
			PUT("block (%d, %d, %d)", l->block[0], l->block[1], l->block[2]);
		if (l->device >= 0)
			PUT("device %d", l->device);
		if (l->stream >= 0)
			PUT("stream %d", l->stream);
		if (l->registers_per_thread >= 0)
			PUT("%d registers per thread", l->registers_per_thread);
		if (l->shared_memory_bytes >= 0)
			PUT("%" PRId64 " B shared memory", l->shared_memory_bytes);
		if (l->blocks_per_sm == l->blocks_per_sm)
			PUT("%.2f blocks per SM", l->blocks_per_sm);
		if (l->occupancy_pct == l->occupancy_pct)
			PUT("%.2f%% est. achieved occupancy", l->occupancy_pct);
#undef PUT
		break;
	}
	}
}

static void detail_load(struct pane *pane)
{
	const struct detail_arg *da = pane->scope.arg;
	const struct pane *of = da->of;
	struct detail *d = xcalloc(1, sizeof(*d));
	struct strbuf text = STRBUF_INIT;
	const struct attr *attrs = pane_row_attrs(of, da->row);
	char buf[256];

	pane->priv = d;
	detail_add(d, "Name", pane_row_name(of, da->row), "the full name, as the profile gives it");
	detail_heading(d, "-- columns --");
	for (size_t c = 0; c < of->nr_cols; c++) {
		const struct column *col = &of->cols[c];
		struct cell v;

		if (col->kind == COL_BAR || col->kind == COL_NAME)
			continue;
		v = pane_cell(of, da->row, c);
		if (v.type == CELL_TEXT)
			detail_add(d, col->title, v.v.s, col->help);
		else if (v.type == CELL_NONE)
			detail_add(d, col->title, "(none)", col->help);
		else {
			fmt_cell(col->kind, v, FMT_HUMAN, buf, sizeof(buf));
			detail_add(d, col->title, buf, col->help);
		}
	}
	if (attrs) {
		detail_heading(d, "-- attributes --");
		for (const struct attr *a = attrs; a; a = attr_next(a)) {
			attr_text(a, &text);
			detail_add(d, attr_key(a), text.s ? text.s : "", "as the file gives it");
		}
	}
	pane_detail(of, da->row, d);
	strbuf_release(&text);

	pane->rows = xmalloc((d->nr ? d->nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < d->nr; i++)
		pane->rows[i] = &d->v[i];
	pane->nr_rows = d->nr;
	for (size_t i = 0; i < ARRAY_SIZE(detail_cols); i++)
		pane_add_column(pane, &detail_cols[i]);
	pane->sort_col = -1;
	pane->title = xstrdup("detail");
}

/* Enter on a line that leads somewhere: that row, in its pane. */
static bool detail_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	const struct detail_line *l = pane_row(pane, pane->cursor);

	if (act != ACT_DRILL && act != ACT_UNFOLD)
		return false;
	if (!l || !l->is_link) {
		req->message = "nothing to open on this line";
		req->is_error = true;
		return true;
	}
	req->jump = true;
	req->jump_to = l->go_to;
	req->jump_row = l->go_name;
	return true;
}

static void detail_release_priv(struct pane *pane)
{
	struct detail *d = pane->priv;

	if (!d)
		return;
	detail_release(d);
	free(d);
}

static const enum action detail_hints[] = {
	ACT_HELP, ACT_DRILL, ACT_EXPORT, ACT_BACK, ACT_NONE,
};

/* The actions handle() takes. */
static const enum action detail_actions[] = {
	ACT_DRILL, ACT_UNFOLD, ACT_NONE,
};

static const struct pane_text_ops detail_text = { .hints = detail_hints };

const struct pane_ops detail_pane_ops = {
	.id = PANE_DETAIL,
	.load = detail_load, .row_name = line_name, .handle = detail_handle, .actions = detail_actions,
	.release = detail_release_priv, .text = &detail_text,
};
