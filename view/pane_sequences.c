// SPDX-License-Identifier: MIT
/*
 * Kernel sequences: the frequent kernel sequences under an op
 * (model/kernel_seq.c, Holistic Trace Analysis's
 * get_frequent_cuda_kernel_sequences()), one row per pattern -- the op's
 * name, then the names of the GPU events its calls launched, in start
 * order -- with its count and summed GPU and CPU times.  F (the sequences
 * action) on a row of Operators opens it for that op; --print sequences
 * [--drill OP] prints it, for the default op without --drill.  It follows
 * the step chosen (the calls that start in its span).  The JSON is HTA's
 * columns in snake_case, times in microseconds, and the kernels' names as
 * an array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/kernel_seq.h"
#include "../model/strbuf.h"
#include "../model/util.h"
#include "detail.h"
#include "export.h"
#include "pane.h"

struct seq_row {
	const struct kseq_pattern *k;
	char *text;			/* heap: the names joined by '|' */
};

struct seq_priv {
	struct kseq_result r;
	struct seq_row *rows;
	const char *op;			/* the op shown (interned), or NULL */
};

#define SR(r) ((const struct seq_row *)(r))

static struct cell get_count(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)SR(row)->k->count);
}

static struct cell get_gpu(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(SR(row)->k->gpu_ns);
}

static struct cell get_cpu(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(SR(row)->k->cpu_ns);
}

static struct cell get_kernels(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)SR(row)->k->nr_names - 1);
}

static struct cell get_pattern(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(SR(row)->text);
}

static const struct column seq_cols[] = {
	{ .key = "count", .title = "Count", .kind = COL_COUNT, .width = 7, .get = get_count,
	  .help = "calls of the op with this pattern: the op's calls (by exact name) at the "
		  "smallest call-stack depth among those that launched at least 3 GPU events" },
	{ .key = "gpu_kernel_duration", .json_key = "gpu_kernel_duration", .title = "GPU time",
	  .kind = COL_TIME, .width = 11, .get = get_gpu,
	  .help = "the summed durations of the kernels, copies and sets those calls launched "
		  "(in their subtrees)" },
	{ .key = "cpu_op_duration", .json_key = "cpu_op_duration", .title = "CPU time",
	  .kind = COL_TIME, .width = 11, .get = get_cpu,
	  .help = "the summed durations of those calls of the op" },
	{ .key = "kernels", .title = "Kernels", .kind = COL_COUNT, .width = 7, .get = get_kernels,
	  .help = "the GPU events in the pattern" },
	{ .key = "pattern", .title = "Pattern", .kind = COL_NAME, .get = get_pattern,
	  .help = "the op's name, then the names of the kernels, copies and sets its call "
		  "launched, in start order (equal starts in the file's order), joined by '|'; "
		  "rows by count, then by this text" },
};

static void seq_load(struct pane *pane)
{
	struct seq_priv *sp = xcalloc(1, sizeof(*sp));
	struct kseq_options o;

	pane->priv = sp;
	kseq_options_default(&o);
	if (pane->scope.step && pane->scope.step->end_ns > pane->scope.step->start_ns) {
		o.lo_ns = pane->scope.step->start_ns;
		o.hi_ns = pane->scope.step->end_ns;
	}
	/* The op asked for, else the default (over the whole profile, so
	 * that a step does not change which op is shown). */
	sp->op = pane->scope.drill_name ? pane->scope.drill_name : kseq_default_op(pane->prof, NULL);
	kseq_compute(pane->prof, sp->op, &o, &sp->r);
	sp->rows = xcalloc(sp->r.nr_patterns + 1, sizeof(*sp->rows));
	pane->rows = xmalloc((sp->r.nr_patterns + 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < sp->r.nr_patterns; i++) {
		const struct kseq_pattern *k = &sp->r.patterns[i];
		struct strbuf t = { 0 };

		for (size_t j = 0; j < k->nr_names; j++) {
			if (j)
				strbuf_addch(&t, '|');
			strbuf_addstr(&t, k->names[j]);
		}
		sp->rows[i].k = k;
		sp->rows[i].text = t.s ? t.s : xstrdup("");
		pane->rows[i] = &sp->rows[i];
	}
	pane->nr_rows = sp->r.nr_patterns;
	for (size_t i = 0; i < ARRAY_SIZE(seq_cols); i++)
		pane_add_column(pane, &seq_cols[i]);
	pane->sort_col = -1;	/* count, then the text: the model's order */
	free(pane->title);	/* a step reloads the pane */
	if (sp->op) {
		size_t n = strlen(sp->op) + 32;

		pane->title = xmalloc(n);
		snprintf(pane->title, n, "%s \xe2\x80\xba kernel sequences", sp->op);
	} else {
		pane->title = xstrdup("Kernel sequences");
	}
}

static const char *seq_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return SR(row)->text;
}

static void seq_empty(const struct pane *pane, char *buf, size_t size)
{
	const struct seq_priv *sp = pane->priv;

	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "Kernel sequences need the trace: a summary holds no call tree");
	else if (sp && sp->op)
		snprintf(buf, size, "no call of '%s' launched 3 kernels, copies or sets", sp->op);
	else
		snprintf(buf, size, "no op launched 3 kernels, copies or sets in this profile");
}

/* i on a row: the pattern one name a line. */
static void seq_detail(const struct pane *pane, const void *row, struct detail *d)
{
	const struct kseq_pattern *k = SR(row)->k;

	(void)pane;
	detail_heading(d, "-- pattern --");
	for (size_t i = 0; i < k->nr_names; i++) {
		char field[32];

		if (i)
			snprintf(field, sizeof(field), "GPU event %zu", i);
		else
			snprintf(field, sizeof(field), "op");
		detail_add(d, field, k->names[i], NULL);
	}
}

/* The rows in view as HTA's frame: pattern, count, the two durations in
 * microseconds, and the kernels' names. */
static long seq_json(const struct pane *pane, FILE *out, size_t limit)
{
	long rows = 0;
	char us[64];

	fputs("[", out);
	for (size_t i = 0; i < pane->nr_view && (!limit || i < limit); i++) {
		const struct seq_row *r = pane_row(pane, i);
		const struct kseq_pattern *k = r->k;

		fputs(rows ? ",\n  {\"pattern\": " : "\n  {\"pattern\": ", out);
		export_json_string(out, r->text);
		fmt_us(k->gpu_ns, us, sizeof(us));
		fprintf(out, ", \"count\": %llu, \"gpu_kernel_duration\": %s", (unsigned long long)k->count,
			us);
		fmt_us(k->cpu_ns, us, sizeof(us));
		fprintf(out, ", \"cpu_op_duration\": %s, \"kernels\": [", us);
		for (size_t j = 1; j < k->nr_names; j++) {
			fputs(j > 1 ? ", " : "", out);
			export_json_string(out, k->names[j]);
		}
		fputs("]}", out);
		rows++;
	}
	fputs(rows ? "\n]\n" : "]\n", out);
	return rows;
}

static void seq_export_name(const struct pane *pane, char *buf, size_t size)
{
	const struct seq_priv *sp = pane->priv;

	snprintf(buf, size, "%s-sequences", sp && sp->op ? sp->op : "op");
}

static void seq_release(struct pane *pane)
{
	struct seq_priv *sp = pane->priv;

	if (!sp)
		return;
	for (size_t i = 0; i < sp->r.nr_patterns; i++)
		free(sp->rows[i].text);
	free(sp->rows);
	kseq_release(&sp->r);
	free(sp);
	pane->priv = NULL;
}

static const struct pane_print_ops seq_print = { .export_name = seq_export_name,
						 .export_json = seq_json };
static const struct pane_text_ops seq_text = { .detail = seq_detail };

const struct pane_ops sequences_pane_ops = {
	.id = PANE_SEQUENCES, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_DRILL_IS_SCOPE,
	.load = seq_load, .row_name = seq_name, .empty_text = seq_empty,
	.needs_trace = pane_empty_of_summary, .release = seq_release,
	.print = &seq_print, .text = &seq_text,
};
