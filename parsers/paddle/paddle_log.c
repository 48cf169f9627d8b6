// SPDX-License-Identifier: MIT
/*
 * PaddlePaddle (paddle.c): the training-log lines, one step each
 * (PaddleDetection's "Epoch: [0] [ 19/12500] ... batch_cost:" and the
 * like): their costs, indices and labels.
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


static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The leading integer of S (after '[' and blanks), or -1. */
static int64_t leading_int(const char *s, size_t n, const char **digits, size_t *nr_digits)
{
	size_t i = 0, j;
	int64_t v = -1;

	while (i < n && (s[i] == '[' || s[i] == ' '))
		i++;
	j = i;
	while (j < n && isdigit((unsigned char)s[j]) && j - i < 18)
		j++;
	if (j > i && num_int(s + i, j - i, &v)) {
		if (digits) {
			*digits = s + i;
			*nr_digits = j - i;
		}
		return v;
	}
	return -1;
}

/* ppdet's eta: "5:05:37", "17 days, 13:50:26", "1 day, 0:00:01". */
static bool parse_eta(const char *s, size_t n, int64_t *ns)
{
	int64_t days = 0, part[3] = { 0, 0, 0 }, v;
	size_t i = 0, k = 0;

	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	if (i && i < n && s[i] == ' ') {
		size_t j = i + 1;

		if (!num_int(s, i, &days))
			return false;
		if (n - j >= 3 && !memcmp(s + j, "day", 3)) {
			j += 3;
			if (j < n && s[j] == 's')
				j++;
			if (j < n && s[j] == ',')
				j++;
			while (j < n && s[j] == ' ')
				j++;
			s += j;
			n -= j;
		} else {
			return false;
		}
	} else if (!i) {
		return false;
	}
	/* Bounded so that the nanoseconds fit an int64 (the fuzzer found
	 * "eta: 2322222222:59:56"): hours of at most 6 digits, minutes and
	 * seconds of 2, at most 10000 days. */
	for (i = 0; k < 3; k++) {
		size_t st = i, max = k ? 2 : 6;

		while (i < n && isdigit((unsigned char)s[i]))
			i++;
		if (i == st || i - st > max || !num_int(s + st, i - st, &part[k]))
			return false;
		if (k < 2 && (i >= n || s[i++] != ':'))
			return false;
	}
	if (days > 10000)
		return false;
	v = ((days * 24 + part[0]) * 60 + part[1]) * 60 + part[2];
	*ns = v * 1000000000;
	return true;
}

static bool is_key(const char *k, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (eq_nocase(k, n, *list))
			return true;
	return false;
}

/* A "key: value" pair of a log line, as printed. */
struct kv {
	const char *k, *v;
	size_t klen, vlen;
};

#define MAX_KV 48

/* What a log line says, cut into pairs; INDEX: the iteration index when
 * the line prints one in its own way (ppdet's "[ 19/12500]"). */
struct log_line {
	struct kv kv[MAX_KV];
	size_t nr;
	const char *index;
	size_t index_len;
	int index_rank;			/* enum index_rank of INDEX */
};

/* Which of a line's numbers names its iteration: a global step (never
 * restarts) over an iteration or step number over a batch within its
 * epoch (PaddleFleetX's "batch: 19" beside "global step 20"). */
enum index_rank { IDX_GLOBAL, IDX_ITER, IDX_BATCH, IDX_NONE };

static const char *const batch_keys[] = { "batch_cost", "avg_batch_cost", NULL };
static const char *const global_keys[] = { "global_step", "global step", NULL };
static const char *const iter_keys[] = { "iter", "iteration", "step", NULL };
static const char *const data_keys[] = { "data_cost", "reader_cost", "avg_reader_cost", NULL };
/* Keys that are not values of a step of their own (they are its time,
 * name or epoch). */
static const char *const label_keys[] = { "epoch", "eta", "batch_cost", "avg_batch_cost",
					  "data_cost", "reader_cost", "avg_reader_cost", "iter",
					  "iteration", "step", "global_step", "global step", "batch", NULL };

/* The end of the value that starts at S[VS]: a "[...]" group, or up to a
 * blank or a separator. */
static size_t value_end(const char *s, size_t n, size_t vs)
{
	size_t ve = vs;

	if (ve < n && s[ve] == '[') {
		while (ve < n && s[ve] != ']')
			ve++;
		return ve < n ? ve + 1 : ve;
	}
	while (ve < n && !is_blank(s[ve]) && s[ve] != ',' && s[ve] != ']' && s[ve] != '|')
		ve++;
	return ve;
}

/* Where the key before the colon at S[COLON] starts: a word of letters,
 * digits and '_', or two words when a ", " comes before them ("...,
 * learning rate: 2.5e-05", PaddleFleetX). */
static size_t key_start(const char *s, size_t colon)
{
	size_t ks = colon, w;

	while (ks > 0 && is_ident(s[ks - 1]))
		ks--;
	if (ks == colon || ks < 2 || s[ks - 1] != ' ' || !isalpha((unsigned char)s[ks - 2]))
		return ks;
	w = ks - 1;
	while (w > 0 && isalpha((unsigned char)s[w - 1]))
		w--;
	return w >= 2 && s[w - 1] == ' ' && s[w - 2] == ',' ? w : ks;
}

/* Cut S[0..N) into "key: value" pairs wherever they are
 * (doc/formats/paddle.md, 'Training-log lines'); "12:00:35" and "5:05:37"
 * have no blank after the colon and are no pairs. */
static void scan_pairs(const char *s, size_t n, struct log_line *l)
{
	memset(l, 0, sizeof(*l));
	l->index_rank = IDX_NONE;
	for (size_t i = 0; i + 1 < n && l->nr < ARRAY_SIZE(l->kv); i++) {
		size_t ks = i, vs, ve;

		if (s[i] != ':' || s[i + 1] != ' ')
			continue;
		ks = key_start(s, i);
		if (ks == i)
			continue;
		vs = i + 1;
		while (vs < n && s[vs] == ' ')
			vs++;
		ve = value_end(s, n, vs);
		l->kv[l->nr++] = (struct kv){ s + ks, s + vs, i - ks, ve - vs };
		/* ppdet: "Epoch: [0] [   19/12500]" -- the index follows. */
		if (eq_nocase(s + ks, i - ks, "epoch") && ve > vs && s[vs] == '[') {
			size_t j = ve;

			while (j < n && s[j] == ' ')
				j++;
			if (j < n && s[j] == '[' &&
			    leading_int(s + j, n - j, &l->index, &l->index_len) >= 0)
				l->index_rank = IDX_ITER;
		}
	}
}

/* Whether S[0..N) starts as a number does: a cost that does, and is no
 * time within bounds, is a bad value, not prose. */
static bool looks_numeric(const char *s, size_t n)
{
	size_t i = n && (s[0] == '-' || s[0] == '+') ? 1 : 0;

	return i < n && (isdigit((unsigned char)s[i]) || s[i] == '.');
}

/* The batch and data costs of a line, in ns (-1: none).  Seconds, or with
 * a unit: "2.18455s" (PaddleClas).  False, with *BAD the pair, when a cost
 * is written as a number but is no duration within BOUND_DUR_NS (too
 * large for an int64, negative, or beyond the bound). */
static bool read_costs(const struct log_line *l, int64_t *batch_ns, int64_t *data_ns,
		       const struct kv **bad)
{
	*batch_ns = *data_ns = -1;
	for (size_t i = 0; i < l->nr; i++) {
		const struct kv *kv = &l->kv[i];
		bool is_batch = is_key(kv->k, kv->klen, batch_keys);
		int64_t ns;

		if (!is_batch && !is_key(kv->k, kv->klen, data_keys))
			continue;
		if (!num_time_ns(kv->v, kv->vlen, 9, &ns) || !bound_dur_ok(ns)) {
			if (!looks_numeric(kv->v, kv->vlen))
				continue;
			*bad = kv;
			return false;
		}
		*(is_batch ? batch_ns : data_ns) = ns;
	}
	return true;
}

/* The rank of an index key (enum index_rank). */
static int index_key_rank(const char *k, size_t n)
{
	if (is_key(k, n, global_keys))
		return IDX_GLOBAL;
	if (is_key(k, n, iter_keys))
		return IDX_ITER;
	return eq_nocase(k, n, "batch") ? IDX_BATCH : IDX_NONE;
}

/* Take the number at V as L's index if it ranks above the one L has. */
static void offer_index(struct log_line *l, int rank, const char *v, size_t n)
{
	const char *digits;
	size_t nr_digits;

	if (rank < l->index_rank && leading_int(v, n, &digits, &nr_digits) >= 0) {
		l->index = digits;
		l->index_len = nr_digits;
		l->index_rank = rank;
	}
}

/* The same words written without a colon, "iter 10", "global step 20":
 * a word of index_key_rank() at a word's start, blanks, then digits
 * ("speed: 0.84 step/s" is no index). */
static void index_words(const char *s, size_t n, struct log_line *l)
{
	static const char *const words[] = { "global step", "global_step", "iteration", "iter",
					     "step", NULL };

	for (const char *const *w = words; *w; w++) {
		size_t wl = strlen(*w);

		for (size_t i = 0; i + wl < n; i++) {
			size_t j = i + wl;

			if ((i && is_ident(s[i - 1])) || strncasecmp(s + i, *w, wl) || s[j] != ' ')
				continue;
			while (j < n && s[j] == ' ')
				j++;
			if (j < n && isdigit((unsigned char)s[j]))
				offer_index(l, index_key_rank(*w, wl), s + j, n - j);
		}
	}
}

/* The epoch, index and eta of line S[0..N) into L and *EPOCH, *ETA_NS
 * (-1: none): "epoch: 3", PaddleClas's "[Epoch 1/120]", "iter: 7", "iter
 * 7", "global step 20", ppdet's "eta: 1 day, 2:03:04". */
static void read_labels(const char *s, size_t n, struct log_line *l, int64_t *epoch, int64_t *eta_ns)
{
	const char *at = text_find(s, n, "[Epoch ");

	*epoch = *eta_ns = -1;
	if (at)
		*epoch = leading_int(at + 7, n - (size_t)(at + 7 - s), NULL, NULL);
	for (size_t i = 0; i < l->nr; i++) {
		const struct kv *kv = &l->kv[i];

		if (eq_nocase(kv->k, kv->klen, "epoch"))
			*epoch = leading_int(kv->v, kv->vlen, NULL, NULL);
		else if (index_key_rank(kv->k, kv->klen) != IDX_NONE)
			offer_index(l, index_key_rank(kv->k, kv->klen), kv->v, kv->vlen);
		else if (eq_nocase(kv->k, kv->klen, "eta"))
			parse_eta(kv->v, n - (size_t)(kv->v - s), eta_ns);
	}
	index_words(s, n, l);
}

/* Every other numeric value of the line (losses, learning rate, ips) is a
 * column of its own, keyed by its name in lower case ("learning rate":
 * "learning_rate"): an integer where the file writes one ("ips: 3455"), a
 * double where it writes a decimal. */
static void step_values(struct profile *p, struct step *st, const struct log_line *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		const struct kv *kv = &l->kv[i];
		char key[64];
		int64_t v;
		double d;

		if (kv->klen >= sizeof(key) || is_key(kv->k, kv->klen, label_keys))
			continue;
		for (size_t j = 0; j < kv->klen; j++)
			key[j] = kv->k[j] == ' ' ? '_' : (char)tolower((unsigned char)kv->k[j]);
		key[kv->klen] = '\0';
		if (num_int(kv->v, kv->vlen, &v))
			attr_set_int(p, &st->attrs, key, v);
		else if (num_double(kv->v, kv->vlen, &d) && d == d)
			attr_set_double(p, &st->attrs, key, d);
	}
}

/* The step's categories from its batch and data costs.  Without a data
 * cost (PaddleFleetX prints none) neither is known: the line does not
 * say that no time went to data. */
static void step_split(struct paddle *pd, struct step *st, int64_t batch_ns, int64_t data_ns,
		       const struct pos *at)
{
	st->total_ns = batch_ns;
	if (data_ns < 0)
		return;
	st->cat_ns[0] = data_ns;
	if (data_ns > batch_ns) {
		diag_warn(pd->d, at, "iterations whose data time exceeds the batch time",
			  "data_cost exceeds batch_cost; compute time taken as 0");
		st->cat_ns[1] = 0;
	} else {
		st->cat_ns[1] = batch_ns - data_ns;
	}
}

bool paddle_iteration_line(struct paddle *pd, const char *s, size_t n, uint64_t lineno)
{
	struct log_line l;
	int64_t batch_ns, data_ns, epoch, eta_ns;
	struct profile *p = pd->cur->p;
	struct pos pos = { lineno, 1 };
	const struct kv *bad;
	struct step *st;
	char ordinal[32];

	if (!text_find(s, n, "batch_cost"))
		return false;
	scan_pairs(s, n, &l);
	if (!read_costs(&l, &batch_ns, &data_ns, &bad)) {
		pos.col = (uint64_t)(bad->v - s) + 1;
		diag_warn(pd->d, &pos, "iterations with a cost beyond bounds, skipped",
			  "%.*s '%.*s' is not a time from 0 to 10^15 ns (11.6 days); iteration skipped",
			  (int)bad->klen, bad->k, (int)(bad->vlen > 40 ? 40 : bad->vlen), bad->v);
		pd->found = true;
		return true;
	}
	if (batch_ns < 0)
		return false;
	if (!paddle_want_steps(pd, p, &pos))
		return true;
	pd->found = true;
	read_labels(s, n, &l, &epoch, &eta_ns);
	if (!l.index) {
		/* No index printed: number the run's iterations from 0. */
		snprintf(ordinal, sizeof(ordinal), "%zu", p->nr_steps - pd->cur->first_step);
		l.index = ordinal;
		l.index_len = strlen(ordinal);
	}
	st = profile_add_step(p, l.index, l.index_len);
	step_split(pd, st, batch_ns, data_ns, &pos);
	if (epoch >= 0)
		attr_set_int(p, &st->attrs, "epoch", epoch);
	if (eta_ns >= 0)
		attr_set_ns(p, &st->attrs, "eta_ns", eta_ns);
	step_values(p, st, &l);
	return true;
}
