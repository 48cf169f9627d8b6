// SPDX-License-Identifier: MIT
/*
 * PaddlePaddle (paddle.c): runs and steps -- a profile per summary
 * printed, the iteration lines moved to the run they measured -- and the
 * link of the Operator Summary's kernels to the Kernel Summary's rows.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../model/bounds.h"
#include "../../model/util.h"
#include "../num.h"
#include "../text.h"
#include "paddle_int.h"

static const char *const step_cats[] = { "Data", "Compute" };

struct run *paddle_run_new(struct paddle *pd, struct profile *p)
{
	struct run *r = xcalloc(1, sizeof(*r));

	r->p = p;
	r->last_sec = -1;
	r->first_step = r->mark = p->nr_steps;
	if (pd->cur)
		pd->cur->next = r;
	else
		pd->runs = r;
	pd->cur = r;
	return r;
}

bool paddle_want_steps(struct paddle *pd, struct profile *p, struct pos *at)
{
	if (!p->nr_step_cats && !p->nr_steps) {
		profile_set_step_cats(p, step_cats, ARRAY_SIZE(step_cats));
		return true;
	}
	if (p->nr_step_cats == ARRAY_SIZE(step_cats) && !strcmp(p->step_cats[0], step_cats[0]) &&
	    !strcmp(p->step_cats[1], step_cats[1]))
		return true;
	if (!pd->steps_refused)
		diag_warn(pd->d, at, "iterations left out: the profile has steps of another kind",
			  "the profile already has steps from another file; iterations left out");
	pd->steps_refused = true;
	return false;
}

/* Move FROM's steps from index START on to TO (names and attributes are
 * copied into TO's arena; FROM's copies stay in its arena, unused). */
static void move_steps(struct paddle *pd, struct profile *from, size_t start, struct profile *to)
{
	struct pos none = { 0, 0 };

	if (start >= from->nr_steps || !paddle_want_steps(pd, to, &none))
		return;
	for (size_t i = start; i < from->nr_steps; i++) {
		const struct step *s = &from->steps[i];
		struct step *t = profile_add_step(to, s->name, strlen(s->name));

		t->total_ns = s->total_ns;
		for (size_t c = 0; c < to->nr_step_cats && c < from->nr_step_cats; c++)
			t->cat_ns[c] = s->cat_ns[c];
		for (const struct attr *a = attr_list_first(from, &s->attrs); a; a = attr_next(a)) {
			if (attr_type(a) == ATTR_INT)
				attr_set_int(to, &t->attrs, attr_key(a), a->v.i);
			else if (attr_type(a) == ATTR_NS)
				attr_set_ns(to, &t->attrs, attr_key(a), a->v.i);
			else if (attr_type(a) == ATTR_DOUBLE)
				attr_set_double(to, &t->attrs, attr_key(a), a->v.d);
			else
				attr_set_str(to, &t->attrs, attr_key(a), a->v.s, strlen(a->v.s));
		}
	}
	from->nr_steps = start;
}

struct profile *paddle_run_for_section(struct paddle *pd, int sec, uint64_t line)
{
	struct run *r = pd->cur;

	/* A Memory Summary per place follows another legitimately. */
	if (r->last_sec > sec || (r->last_sec == sec && sec != SEC_MEMORY)) {
		char where[512];
		struct run *old = r;

		snprintf(where, sizeof(where), "%s:%" PRIu64, pd->in->path, line);
		r = paddle_run_new(pd, profile_add_run(pd->first, where));
		move_steps(pd, old->p, old->mark, r->p);
	}
	r->last_sec = sec;
	return r->p;
}

int64_t paddle_half_digit_ns(int pow10)
{
	int64_t v = 5;

	if (pow10 < 3)
		return 0;
	for (int i = 3; i < pow10; i++)
		v *= 10;
	return v;
}

/* NAME without the "..." of a cut name; *LEN gets its length. */
static const char *name_stem(const struct node *n, size_t *len)
{
	*len = strlen(node_name(n));
	if (n->flags & NODE_NAME_TRUNCATED)
		*len -= 3;
	return node_name(n);
}

/* Whether the Operator Summary's kernel TREE (the name cut at 45-47
 * characters, argument list kept) and the Kernel Summary's SUM (argument
 * list stripped, cut at 87) can be the same kernel: both are prefixes of
 * its full name. */
static bool same_kernel(const struct node *tree, const struct node *sum)
{
	size_t tl, sl;
	const char *t = name_stem(tree, &tl), *s = name_stem(sum, &sl);

	if (tl >= sl)
		return !memcmp(t, s, sl) &&
		       (tl == sl || (sum->flags & NODE_NAME_TRUNCATED) || t[sl] == '(');
	return (tree->flags & NODE_NAME_TRUNCATED) && !memcmp(t, s, tl);
}

static bool within(int64_t a, int64_t b, int64_t tol)
{
	return a - b <= tol && b - a <= tol;
}

/* How a Kernel Summary row compares with a kernel of the tree. */
enum fit {
	FIT_NONE,		/* not that kernel */
	FIT_SOME,		/* could be: it launched there, and elsewhere */
	FIT_EXACT,		/* every number the same: launched there only */
};

/*
 * Whether SUM, whose numbers are rounded to SUM_HALF_NS, can be the kernel
 * K: its name fits, and every count of K fits in SUM's -- the summary row
 * counts every launch of the kernel, so it has at least K's calls and
 * time, a max at least K's and a min at most K's.  KC and SC are K's and
 * SUM's calls and extremes.
 */
static enum fit kernel_fit(const struct profile *p, const struct tree_kernel *k,
			   const struct node_counts *kc, const struct node *sum,
			   const struct node_counts *sc, int64_t sum_half_ns)
{
	const struct node *n = k->n;
	int64_t sum_ns = node_device_total(p, sum), k_ns = node_device_total(p, n);
	/* Tables in one unit print one number the same: rounding is
	 * monotonic.  Across units each may be off by half its last digit. */
	int64_t tol = k->half_ns == sum_half_ns ? 0 : k->half_ns + sum_half_ns;

	if (!same_kernel(n, sum) || sc->calls < kc->calls || sum_ns + tol < k_ns)
		return FIT_NONE;
	if (kc->max_ns >= 0 && sc->max_ns >= 0 && sc->max_ns + tol < kc->max_ns)
		return FIT_NONE;
	if (kc->min_ns >= 0 && sc->min_ns >= 0 && kc->min_ns + tol < sc->min_ns)
		return FIT_NONE;
	if (sc->calls == kc->calls && within(sum_ns, k_ns, tol) &&
	    within(sc->max_ns, kc->max_ns, tol) && within(sc->min_ns, kc->min_ns, tol))
		return FIT_EXACT;
	return FIT_SOME;
}

/* What link_kernels() works out for the tree kernels and the summary
 * rows.  Heap arrays, freed by link_release(). */
struct link {
	struct node **sums;		/* the Kernel Summary's rows */
	struct node_counts *sum_counts;	/* ... their calls and extremes, read
					   once: the match is quadratic */
	size_t nr_sums;
	uint64_t *calls;		/* per row: calls of the tree kernels named after it */
	int64_t *ns, *tol_ns;		/* ... their time, and its rounding */
	size_t *match;			/* per tree kernel: its row, or NO_ROW */
	uint8_t *how;			/* ... and how it was found (enum link_how) */
	size_t *nr_fit;			/* ... how many rows it could be */
};

enum link_how {
	LINK_GUESS,			/* the one row it fits: to be checked */
	LINK_EXACT,			/* the one row with its every number */
	LINK_NAMED,			/* it has a row's very name already */
};

#define NO_ROW SIZE_MAX

static void link_release(struct link *l)
{
	free(l->sums);
	free(l->sum_counts);
	free(l->calls);
	free(l->ns);
	free(l->tol_ns);
	free(l->match);
	free(l->how);
	free(l->nr_fit);
}

/* The row tree kernel K can be for certain: the one row with its very
 * numbers, or else the one row that fits at all when no row of the table
 * is missing.  NO_ROW when none or several can be; *NR_FIT: how many fit. */
static size_t certain_row(const struct run *r, const struct link *l, const struct tree_kernel *k,
			  uint8_t *how, size_t *nr_fit)
{
	size_t exact = NO_ROW, fit = NO_ROW, nr_exact = 0;
	struct node_counts kc = node_counts(r->p, k->n);

	*nr_fit = 0;
	for (size_t i = 0; i < l->nr_sums; i++) {
		switch (kernel_fit(r->p, k, &kc, l->sums[i], &l->sum_counts[i], r->kernel_half_ns)) {
		case FIT_EXACT:
			exact = i;
			nr_exact++;
			/* fall through */
		case FIT_SOME:
			fit = i;
			(*nr_fit)++;
			break;
		default:
			break;
		}
	}
	*how = nr_exact == 1 ? LINK_EXACT : LINK_GUESS;
	if (nr_exact == 1)
		return exact;
	if (!nr_exact && *nr_fit == 1 && !r->kernels_cut)
		return fit;
	return NO_ROW;
}

/* Tree kernel K adds itself to row ROW's sums.  They saturate rather
 * than wrap: a sum at the cap is past the row's own (bounded) numbers, so
 * the guesses at it are refused, which link_refused() reports. */
static void link_count(const struct run *r, struct link *l, const struct tree_kernel *k, size_t row)
{
	sum_add_u(&l->calls[row], node_calls(r->p, k->n));
	sum_add(&l->ns[row], node_device_total(r->p, k->n));
	sum_add(&l->tol_ns[row], k->half_ns);
}

/* Report tree kernel K, cut short and left so: which rows could be it. */
static void link_refused(struct paddle *pd, const struct run *r, const struct tree_kernel *k,
			 size_t nr_fit)
{
	static const char kind[] = "cut kernel names no Kernel Summary row is certain to be, kept as printed";
	const char *name = node_name(k->n);
	int len = (int)(strlen(name) > 60 ? 60 : strlen(name));

	if (!nr_fit && r->kernels_cut)
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' fits none of the Kernel Summary rows "
			  "shown, and rows of it are missing; its cut name is kept", len, name);
	else if (!nr_fit)
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' fits no Kernel Summary row; "
			  "its cut name is kept", len, name);
	else if (nr_fit > 1)
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' could be any of %zu Kernel Summary "
			  "rows; its cut name is kept", len, name, nr_fit);
	else if (r->kernels_cut)
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' fits one Kernel Summary row, but rows "
			  "of that table are missing; its cut name is kept", len, name);
	else
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' fits one Kernel Summary row, but other "
			  "kernels of the tree take its calls or time; its cut name is kept", len, name);
}

/* Work out each tree kernel's row, then take back the guesses (not exact
 * matches) at rows the tree would count more calls or time for than the
 * row has. */
static void link_match(struct run *r, struct link *l)
{
	for (size_t i = 0; i < r->nr_tree_kernels; i++) {
		const struct tree_kernel *k = &r->tree_kernels[i];
		size_t same = NO_ROW;

		for (size_t j = 0; j < l->nr_sums && same == NO_ROW; j++)
			if (node_name(l->sums[j]) == node_name(k->n))
				same = j;
		if (same != NO_ROW) {
			l->match[i] = same;
			l->how[i] = LINK_NAMED;
		} else {
			l->match[i] = certain_row(r, l, k, &l->how[i], &l->nr_fit[i]);
		}
		if (l->match[i] != NO_ROW)
			link_count(r, l, k, l->match[i]);
	}
	for (size_t i = 0; i < r->nr_tree_kernels; i++) {
		size_t row = l->match[i];
		const struct node *sum;

		if (row == NO_ROW || l->how[i] != LINK_GUESS)
			continue;
		sum = l->sums[row];
		if (l->calls[row] > l->sum_counts[row].calls ||
		    l->ns[row] > node_device_total(r->p, sum) + l->tol_ns[row] + r->kernel_half_ns)
			l->match[i] = NO_ROW;
	}
}

/*
 * Kernel -> ops drill-down goes by name, but the Operator Summary prints
 * a kernel's name cut at 45-47 characters with its argument list, and
 * the Kernel Summary the same kernel's name without arguments, cut at 87
 * ("void phi::GPURoiAlignBackward<float>(int, flo..." and "void
 * phi::GPURoiAlignBackward<float>").  A tree kernel takes a Kernel Summary
 * row's name only when it is certain to be that kernel: the one row with
 * its very calls, time, max and min (launched from there only), or the one
 * row of a complete table whose name and counts it fits at all, and whose
 * calls and time the tree's kernels of that name do not overrun.  A guess
 * would do worse than a cut name: drill-down would list an op under a
 * kernel it never launched.  The others keep the cut name, NODE_NAME_
 * TRUNCATED, with a warning each ("void xmma_cudnn::gemm::kernel<xmma_
 * cudnn::imp..." fits dozens).  Quadratic: skipped for tables too large
 * for it to stay cheap.
 */
static void link_kernels(struct paddle *pd, struct run *r)
{
	struct link l = { 0 };
	size_t nr = r->nr_tree_kernels;

	if (!r->kernel_summary || !nr)
		return;
	for (struct node *s = node_first_child(r->kernel_summary); s; s = node_next(s))
		l.nr_sums++;
	if (!l.nr_sums || l.nr_sums > 20000000 / nr) {
		struct pos none = { 0, 0 };

		if (l.nr_sums)
			diag_warn(pd->d, &none, "kernel names not linked to the Kernel Summary",
				  "%zu kernels and %zu Kernel Summary rows: too many to link by name; "
				  "cut names are kept", nr, l.nr_sums);
		return;
	}
	l.sums = xmalloc(l.nr_sums * sizeof(*l.sums));
	l.sum_counts = xmalloc(l.nr_sums * sizeof(*l.sum_counts));
	l.nr_sums = 0;
	for (struct node *s = node_first_child(r->kernel_summary); s; s = node_next(s)) {
		l.sum_counts[l.nr_sums] = node_counts(r->p, s);
		l.sums[l.nr_sums++] = s;
	}
	l.calls = xcalloc(l.nr_sums, sizeof(*l.calls));
	l.ns = xcalloc(l.nr_sums, sizeof(*l.ns));
	l.tol_ns = xcalloc(l.nr_sums, sizeof(*l.tol_ns));
	l.match = xcalloc(nr, sizeof(*l.match));
	l.how = xcalloc(nr, sizeof(*l.how));
	l.nr_fit = xcalloc(nr, sizeof(*l.nr_fit));
	link_match(r, &l);
	for (size_t i = 0; i < nr; i++) {
		struct node *n = r->tree_kernels[i].n;
		const struct node *match = l.match[i] == NO_ROW ? NULL : l.sums[l.match[i]];

		if (match && l.how[i] != LINK_NAMED) {
			node_set_name(r->p, n, node_name(match));
			n->flags &= (uint8_t)~(NODE_NAME_TRUNCATED | NODE_DISTINCT);
			n->flags |= match->flags & (NODE_NAME_TRUNCATED | NODE_DISTINCT);
		} else if (!match && (n->flags & NODE_NAME_TRUNCATED)) {
			link_refused(pd, r, &r->tree_kernels[i], l.nr_fit[i]);
		}
	}
	link_release(&l);
}

/* A step's name and place, for finding names given twice. */
struct named_step {
	const char *name;		/* interned: equal names, equal pointers */
	size_t i;
};

static int cmp_named_step(const void *a, const void *b)
{
	const struct named_step *x = a, *y = b;

	if (x->name != y->name)
		return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* A name the run's steps share (a log that restarts its count, two
 * processes printing into one file) stays on its first step; the K-th
 * step of that name becomes "NAME (K)", so no step merges with another
 * in the panes that find steps by name (--step). */
static void name_repeats(struct profile *p, size_t first)
{
	size_t n = p->nr_steps - first;
	struct named_step *v = xmalloc((n ? n : 1) * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = (struct named_step){ p->steps[first + i].name, first + i };
	qsort(v, n, sizeof(*v), cmp_named_step);
	for (size_t i = 1, k = 1; i < n; i++) {
		char name[128];
		int len;

		k = v[i].name == v[i - 1].name ? k + 1 : 1;
		if (k == 1)
			continue;
		len = snprintf(name, sizeof(name), "%s (%zu)", v[i].name, k);
		p->steps[v[i].i].name =
			profile_intern(p, name, len < (int)sizeof(name) ? (size_t)len : sizeof(name) - 1);
	}
	free(v);
}

/* A Kernel Summary the file cut short, or whose rows it says it omits:
 * its rows' ratios (of all kernel time) then sum short of 100%, and Info
 * says so, with how much the rows read hold. */
static void note_kernels_cut(struct run *r)
{
	double sum = 0;
	bool any = false;
	char text[128];

	if (!r->kernels_cut || !r->kernel_summary)
		return;
	for (const struct node *k = node_first_child(r->kernel_summary); k; k = node_next(k)) {
		const struct attr *a = attr_find(node_attrs(k), ATTR_FILE_DEVICE_TOTAL_PCT);

		if (a && attr_type(a) == ATTR_DOUBLE) {
			sum += a->v.d;
			any = true;
		}
	}
	if (any)
		snprintf(text, sizeof(text), "rows omitted by the file: those read hold %.2f%% of "
			 "the kernel time (their Ratio(%%))", sum);
	else
		snprintf(text, sizeof(text), "rows omitted by the file");
	profile_meta(r->p, "kernel summary", "rows", text);
}

void paddle_finish_run(struct paddle *pd, struct run *r)
{
	struct profile *p = r->p;

	link_kernels(pd, r);
	note_kernels_cut(r);
	if (p->nr_steps > r->first_step) {
		int64_t epoch = -1;
		bool several = false;

		for (size_t i = r->first_step; i < p->nr_steps; i++) {
			const struct attr *a = attr_find(attr_list_first(p, &p->steps[i].attrs), "epoch");

			if (!a)
				continue;
			if (epoch >= 0 && a->v.i != epoch)
				several = true;
			epoch = a->v.i;
		}
		for (size_t i = r->first_step; several && i < p->nr_steps; i++) {
			struct step *s = &p->steps[i];
			const struct attr *a = attr_find(attr_list_first(p, &s->attrs), "epoch");
			char name[96];
			int n;

			if (!a)
				continue;
			n = snprintf(name, sizeof(name), "%" PRId64 "/%s", a->v.i, s->name);
			s->name = profile_intern(p, name, n < (int)sizeof(name) ? (size_t)n : sizeof(name) - 1);
		}
		name_repeats(p, r->first_step);
		return;
	}
	/* No iterations: the Model Summary's rows are the average step, each
	 * category its host total over ProfileStep's calls (not its own Avg,
	 * which is per call of that phase: Dataloader may run 9 times in 10
	 * steps), so the categories add up to the step. */
	if (r->has_model && r->model_step_calls > 0 && r->model_step_ns >= 0 && r->nr_model &&
	    !p->nr_step_cats &&
	    !p->nr_steps) {
		const char *names[MAX_MODEL_CATS];
		struct step *s;

		for (size_t i = 0; i < r->nr_model; i++)
			names[i] = r->model_names[i];
		profile_set_step_cats(p, names, r->nr_model);
		s = profile_add_step(p, "average", 7);
		s->total_ns = div_round(r->model_step_ns, r->model_step_calls);
		for (size_t i = 0; i < r->nr_model; i++)
			s->cat_ns[i] = r->model_ns[i] < 0 ? -1 : div_round(r->model_ns[i], r->model_step_calls);
	}
}
