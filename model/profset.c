// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profset.h"
#include "strbuf.h"
#include "util.h"

void profset_release(struct profset *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		struct profset_member *m = &s->members[i];

		if (m->prof) {
			profile_release(m->prof);
			free(m->prof);
		}
		free(m->label);
		free(m->files);
	}
	free(s->members);
	free(s->why);
	free(s->label);
	free(s->missing);
	memset(s, 0, sizeof(*s));
}

const struct profset_member *profset_member_of(const struct profset *s, const struct profile *p)
{
	for (size_t i = 0; s && i < s->nr; i++)
		for (const struct profile *r = s->members[i].prof; r; r = r->next_run)
			if (r == p)
				return &s->members[i];
	return NULL;
}

const char *profset_source_of(const struct profile *p)
{
	const char *src = p->is_summary ? profile_meta_get(p, "summary", "source") : NULL;

	return src && *src ? src : p->path;
}

static bool ends_with(const char *s, size_t n, const char *suffix, size_t *stem)
{
	size_t k = strlen(suffix);

	if (n < k || memcmp(s + n - k, suffix, k))
		return false;
	*stem = n - k;
	return true;
}

bool profset_worker_of(const char *base, size_t *worker_len, const char **span, size_t *span_len)
{
	size_t n = strlen(base), stem;

	*span = base + n;
	*span_len = 0;
	/* consts.WORKER_PATTERN: ^(.*?)(\.\d+)?\.pt\.trace\.json(?:\.gz)?$ --
	 * the lazy worker leaves the last run of digits after a dot to the
	 * span. */
	if (ends_with(base, n, ".pt.trace.json.gz", &stem) ||
	    ends_with(base, n, ".pt.trace.json", &stem)) {
		size_t d = stem;

		while (d > 0 && base[d - 1] >= '0' && base[d - 1] <= '9')
			d--;
		if (d < stem && d > 0 && base[d - 1] == '.') {
			*worker_len = d - 1;
			*span = base + d;
			*span_len = stem - d;
		} else {
			*worker_len = stem;
		}
		return true;
	}
	if (ends_with(base, n, ".json.gz", &stem) || ends_with(base, n, ".json", &stem) ||
	    ends_with(base, n, ".summary", &stem))
		*worker_len = stem;
	else
		*worker_len = n;
	return false;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* What the ranks decision needs of each member. */
struct worker {
	size_t member;		/* index into the set as loaded */
	char *name;
	char *span;		/* "" when the file has none */
};

static int cmp_worker(const void *a, const void *b)
{
	const struct worker *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	/* Spans in the order torch-tb-profiler numbers them: by their
	 * timestamp strings, a file without one first. */
	c = strcmp(x->span, y->span);
	return c ? c : (x->member > y->member) - (x->member < y->member);
}

/* A member's worker name and the rank it claims, to sort: pairs that
 * clash are neighbours in one of two orders, so that a job of 10,000
 * ranks is not 50 million comparisons. */
struct claim {
	const char *name;
	int32_t rank;
	size_t member;
};

static int cmp_claim_name(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->member > y->member) - (x->member < y->member);
}

static int cmp_claim_rank(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return cmp_claim_name(a, b);
}

/* The members' claims (W[i] of member W[i].member), sorted by name. */
static struct claim *claims_of(const struct profset *s, const struct worker *w, size_t nr)
{
	struct claim *c = xcalloc(nr ? nr : 1, sizeof(*c));

	for (size_t i = 0; i < nr; i++)
		c[i] = (struct claim){ w[i].name, s->members[w[i].member].rank, w[i].member };
	qsort(c, nr, sizeof(*c), cmp_claim_name);
	return c;
}

/* Why the members are not the ranks of one job (for the diff's why), or
 * NULL when they are: every trace says its rank, in one world size, each
 * worker one rank and each rank one worker.  C: their claims, sorted by
 * name (left sorted by rank). */
static char *not_ranks(const struct profset *s, struct claim *c, size_t nr)
{
	int32_t world = -1;

	for (size_t i = 0; i < nr; i++) {
		const struct profile *p = s->members[i].prof;

		if (!p->dist.present || p->dist.rank < 0)
			return xstrfmt("'%s' has no distributedInfo rank", s->members[i].files);
		if (world < 0)
			world = p->dist.world_size;
		else if (p->dist.world_size != world)
			return xstrfmt("world sizes %d and %d", (int)world, (int)p->dist.world_size);
	}
	for (size_t i = 1; i < nr; i++)
		if (!strcmp(c[i - 1].name, c[i].name) && c[i - 1].rank != c[i].rank)
			return xstrfmt("'%s' and '%s' are one worker with ranks %d and %d",
				       s->members[c[i - 1].member].files, s->members[c[i].member].files,
				       (int)c[i - 1].rank, (int)c[i].rank);
	qsort(c, nr, sizeof(*c), cmp_claim_rank);
	for (size_t i = 1; i < nr; i++)
		if (c[i - 1].rank == c[i].rank && strcmp(c[i - 1].name, c[i].name))
			return xstrfmt("'%s' and '%s' are both rank %d",
				       s->members[c[i - 1].member].files, s->members[c[i].member].files,
				       (int)c[i].rank);
	return NULL;
}

/* Append FIRST's runs with NEXT and its runs (a worker's later span). */
static void add_span(struct profile *first, struct profile *next)
{
	struct profile *last = first->last_run ? first->last_run : first;

	while (last->next_run)
		last = last->next_run;
	last->next_run = next;
	first->last_run = next->last_run ? next->last_run : next;
	next->last_run = NULL;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct profset_member *x = a, *y = b;

	if (x->rank != y->rank) {
		if (x->rank < 0 || y->rank < 0)
			return x->rank < 0 ? 1 : -1;
		return x->rank < y->rank ? -1 : 1;
	}
	return strcmp(x->label, y->label);
}

/* Fold the members into one per worker (spans as runs), ordered by rank. */
static void make_ranks(struct profset *s, struct worker *w, size_t nr)
{
	struct profset_member *out = xcalloc(nr, sizeof(*out));
	size_t n = 0;

	qsort(w, nr, sizeof(*w), cmp_worker);
	for (size_t i = 0; i < nr; i++) {
		struct profset_member *m = &s->members[w[i].member];

		if (n && !strcmp(out[n - 1].label, w[i].name)) {
			struct profset_member *into = &out[n - 1];
			char *files = xstrfmt("%s + %s", into->files, m->files);

			add_span(into->prof, m->prof);
			free(into->files);
			into->files = files;
			into->nr_spans++;
			free(m->files);
			free(m->label);
			continue;
		}
		out[n] = *m;
		free(out[n].label);
		out[n].label = xstrdup(w[i].name);
		out[n].rank = m->prof->dist.present ? m->prof->dist.rank : -1;
		out[n].nr_spans = 1;
		n++;
	}
	qsort(out, n, sizeof(*out), cmp_rank);
	free(s->members);
	s->members = out;
	s->nr = n;
}

/*
 * The world size the ranks agree on, and the ranks of it that none gave
 * (members are in rank order: one pass finds the gaps, however large the
 * world size a file claims).
 */
static void find_missing(struct profset *s)
{
	int32_t world = -1;
	int64_t next = 0;		/* the first rank not yet accounted for */

	for (size_t i = 0; i < s->nr; i++) {
		const struct profile *p = s->members[i].prof;

		if (!p->dist.present || p->dist.world_size <= 0 ||
		    (world >= 0 && p->dist.world_size != world))
			return;
		world = p->dist.world_size;
	}
	s->world_size = world;
	s->missing = xcalloc(s->nr + 1, sizeof(*s->missing));
	for (size_t i = 0; i <= s->nr; i++) {
		int64_t r = i < s->nr ? s->members[i].rank : world;

		if (r < next || r > world)
			continue;
		if (r > next) {
			s->missing[s->nr_missing_ranges++] =
				(struct rank_range){ (int32_t)next, (int32_t)(r - 1) };
			s->nr_missing += r - next;
		}
		next = r + 1;
	}
}

/* Count the ranks that several members claim (members in rank order:
 * a claim shared is a run of equal ranks). */
static void find_shared(struct profset *s)
{
	for (size_t i = 0, j; i < s->nr; i = j) {
		for (j = i + 1; j < s->nr && s->members[j].rank == s->members[i].rank; j++)
			;
		if (s->members[i].rank >= 0 && j - i > 1) {
			s->nr_shared_ranks++;
			s->nr_sharing += j - i;
		}
	}
}

long profset_shown_rank(const struct profset *s, size_t m)
{
	if (s->members[m].rank >= 0)
		return s->members[m].rank;
	return s->some_rank_known ? -1 : (long)m;
}

char *profset_shared_text(const struct profset *s)
{
	enum { RANKS_SHOWN = 4, FILES_SHOWN = 3 };
	struct strbuf b = STRBUF_INIT;
	size_t shown = 0;

	if (!s->nr_shared_ranks)
		return NULL;
	if (s->nr_shared_ranks == 1)
		strbuf_addf(&b, "%zu workers claim ", s->nr_sharing);
	else
		strbuf_addf(&b, "%zu workers share %zu ranks: ", s->nr_sharing, s->nr_shared_ranks);
	for (size_t i = 0, j; i < s->nr && shown < RANKS_SHOWN; i = j) {
		for (j = i + 1; j < s->nr && s->members[j].rank == s->members[i].rank; j++)
			;
		if (s->members[i].rank < 0 || j - i < 2)
			continue;
		strbuf_addf(&b, "%srank %d (", shown++ ? ", " : "", (int)s->members[i].rank);
		for (size_t k = i; k < j && k < i + FILES_SHOWN; k++)
			strbuf_addf(&b, "%s%s", k > i ? ", " : "", s->members[k].files);
		if (j - i > FILES_SHOWN)
			strbuf_addf(&b, " and %zu more", j - i - FILES_SHOWN);
		strbuf_addstr(&b, ")");
	}
	if (s->nr_shared_ranks > shown)
		strbuf_addstr(&b, ", ...");
	return b.s;
}

const char *profset_missing_text(const struct profset *s, char *buf, size_t size)
{
	enum { SHOWN = 8 };
	size_t n;

	buf[0] = '\0';
	if (!s->nr_missing || !size)
		return buf;
	n = (size_t)snprintf(buf, size, "%lld of %d ranks missing (", (long long)s->nr_missing,
			     (int)s->world_size);
	for (size_t i = 0; i < s->nr_missing_ranges && i < SHOWN && n < size; i++) {
		const struct rank_range *g = &s->missing[i];

		n += (size_t)(g->lo == g->hi
				      ? snprintf(buf + n, size - n, "%s%d", i ? ", " : "", (int)g->lo)
				      : snprintf(buf + n, size - n, "%s%d-%d", i ? ", " : "", (int)g->lo,
						 (int)g->hi));
	}
	if (n < size)
		snprintf(buf + n, size - n, "%s)", s->nr_missing_ranges > SHOWN ? ", ..." : "");
	return buf;
}

static char *ranks_why(const struct profset *s, const struct profset_hints *h, bool by_dist)
{
	struct strbuf b = STRBUF_INIT;
	char line[512];
	int32_t lo = -1, hi = -1;
	size_t spans = 0;

	for (size_t i = 0; i < s->nr; i++) {
		int32_t r = s->members[i].rank;

		if (r >= 0 && (lo < 0 || r < lo))
			lo = r;
		if (r > hi)
			hi = r;
		if (s->members[i].nr_spans > 1)
			spans++;
	}
	snprintf(line, sizeof(line), "ranks: %zu workers of one job", s->nr);
	strbuf_addstr(&b, line);
	if (h->want_ranks)
		strbuf_addstr(&b, " (--ranks)");
	else if (h->from_dir)
		strbuf_addstr(&b, " (a directory: one worker per *.pt.trace.json[.gz] name)");
	if (by_dist && lo >= 0 && s->nr_missing) {
		char missing[256];

		snprintf(line, sizeof(line), "%s distributedInfo world size %d, %s",
			 h->want_ranks || h->from_dir ? ";" : " by", (int)s->members[0].prof->dist.world_size,
			 profset_missing_text(s, missing, sizeof(missing)));
		strbuf_addstr(&b, line);
	} else if (by_dist && lo >= 0) {
		snprintf(line, sizeof(line), "%s distributedInfo world size %d, ranks %d-%d",
			 h->want_ranks || h->from_dir ? ";" : " by", (int)s->members[0].prof->dist.world_size,
			 (int)lo, (int)hi);
		strbuf_addstr(&b, line);
	}
	if (spans) {
		snprintf(line, sizeof(line), "; %zu worker(s) with several spans, shown as runs", spans);
		strbuf_addstr(&b, line);
	}
	if (s->nr_shared_ranks) {
		snprintf(line, sizeof(line), "; %zu workers claim %zu rank(s) between them, each "
			 "shown apart", s->nr_sharing, s->nr_shared_ranks);
		strbuf_addstr(&b, line);
	}
	return b.s;
}

int profset_relate(struct profset *s, const struct profset_hints *h, char *err, size_t size)
{
	struct worker *w;
	char *why_not;
	struct claim *claims;
	size_t nr_workers = 0, nr_loaded = s->nr;
	int rc = 0;

	err[0] = '\0';
	s->world_size = -1;
	if (!s->nr) {
		snprintf(err, size, "nothing to open");
		return -1;
	}
	w = xcalloc(s->nr, sizeof(*w));
	for (size_t i = 0; i < s->nr; i++) {
		const char *base = base_name(profset_source_of(s->members[i].prof)), *span;
		size_t len, span_len;

		profset_worker_of(base, &len, &span, &span_len);
		w[i].member = i;
		w[i].name = xstrndup(base, len);
		w[i].span = xstrndup(span, span_len);
		s->members[i].rank = s->members[i].prof->dist.present ? s->members[i].prof->dist.rank : -1;
		s->some_rank_known |= s->members[i].rank >= 0;
	}
	claims = claims_of(s, w, s->nr);
	for (size_t i = 0; i < s->nr; i++)
		nr_workers += !i || strcmp(claims[i - 1].name, claims[i].name);
	why_not = not_ranks(s, claims, s->nr);
	free(claims);

	if (h->want_diff) {
		if (s->nr != 2) {
			snprintf(err, size, "--diff compares two profiles, not %zu", s->nr);
			rc = -1;
		} else {
			s->kind = PROFSET_DIFF;
			s->why = xstrfmt("diff (--diff): base '%s', new '%s'", s->members[0].files,
				     s->members[1].files);
		}
	} else if (h->want_ranks || (h->from_dir && nr_workers > 1) || (!why_not && s->nr > 1)) {
		s->kind = PROFSET_RANKS;
		make_ranks(s, w, s->nr);
		find_missing(s);
		find_shared(s);
		s->why = ranks_why(s, h, !why_not);
		if (s->nr == 1 && !h->want_ranks)
			s->kind = PROFSET_ONE;
	} else if (h->from_dir) {
		/* One worker in a directory: its spans are its runs. */
		s->kind = PROFSET_ONE;
		make_ranks(s, w, s->nr);
		s->why = xstrfmt("one worker of a directory%s", s->members[0].nr_spans > 1
								 ? ", its spans shown as runs"
								 : "");
	} else if (s->nr == 1) {
		s->kind = PROFSET_ONE;
		s->why = xstrdup(strstr(s->members[0].files, " + ")
					 ? "one profile, of files that complete each other"
					 : "one profile");
	} else if (s->nr == 2) {
		s->kind = PROFSET_DIFF;
		s->why = xstrfmt("diff: base '%s', new '%s' -- two whole profiles, not ranks of one job "
			     "(%s); --merge sums them, --ranks reads them as ranks",
			     s->members[0].files, s->members[1].files, why_not);
	} else {
		snprintf(err, size, "%zu whole profiles that are not the ranks of one job (%s): "
			 "--diff compares two, --ranks reads them as ranks, --merge sums them",
			 s->nr, why_not);
		rc = -1;
	}
	if (!rc) {
		struct strbuf b = STRBUF_INIT;

		for (size_t i = 0; i < s->nr; i++) {
			if (i)
				strbuf_addstr(&b, s->kind == PROFSET_DIFF ? " -> " : ", ");
			strbuf_addstr(&b, s->kind == PROFSET_RANKS ? s->members[i].label
								   : s->members[i].files);
		}
		s->label = b.s ? b.s : xstrdup("");
	}
	free(why_not);
	for (size_t i = 0; i < nr_loaded; i++) {
		free(w[i].name);
		free(w[i].span);
	}
	free(w);
	return rc;
}

void profset_name_runs(struct profset *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		for (struct profile *r = s->members[i].prof; r; r = r->next_run)
			if (!r->run_title)
				r->run_title = profile_strdup(r, name);
}

/* Why RUN (named NAME) does not line up with FIRST, or NULL. */
static char *misfit(const struct profset *first, const struct profset *run, const char *name0,
		    const char *name)
{
	size_t nr_runs = profile_nr_runs(first->members[0].prof);

	if (run->kind != first->kind || run->nr != first->nr)
		return xstrfmt("its runs do not line up ('%s' is %zu profile(s), '%s' %zu)", name0,
			       first->nr, name, run->nr);
	for (size_t m = 0; m < run->nr; m++)
		if (profile_nr_runs(run->members[m].prof) != profile_nr_runs(first->members[m].prof) ||
		    profile_nr_runs(first->members[m].prof) != nr_runs)
			return xstrfmt("its runs do not line up ('%s' and '%s' hold several runs "
				       "each, not as many)", name0, name);
	return NULL;
}

int profset_chain_runs(struct profset *s, struct profset *runs, const char *const *names,
		       size_t nr, char *err, size_t size)
{
	struct strbuf b = STRBUF_INIT;
	char *why;

	for (size_t r = 1; r < nr; r++) {
		if ((why = misfit(&runs[0], &runs[r], names[0], names[r]))) {
			snprintf(err, size, "%s", why);
			free(why);
			return -1;
		}
	}
	for (size_t r = 0; r < nr; r++)
		profset_name_runs(&runs[r], names[r]);
	*s = runs[0];
	/* Each member's files joined in one buffer: joined run by run, the
	 * whole string was copied again for each (quadratic in the runs). */
	for (size_t m = 0; m < s->nr; m++) {
		struct profset_member *into = &s->members[m];
		struct strbuf files = STRBUF_INIT;

		strbuf_addstr(&files, into->files);
		for (size_t r = 1; r < nr; r++) {
			strbuf_addstr(&files, " + ");
			strbuf_addstr(&files, runs[r].members[m].files);
			add_span(into->prof, runs[r].members[m].prof);
			runs[r].members[m].prof = NULL;
		}
		free(into->files);
		into->files = files.s;
	}
	for (size_t r = 1; r < nr; r++)
		profset_release(&runs[r]);
	strbuf_addf(&b, "a log dir of %zu runs (", nr);
	for (size_t r = 0; r < nr; r++)
		strbuf_addf(&b, "%s%s", r ? ", " : "", names[r]);
	strbuf_addf(&b, "), shown as runs; %s", s->why ? s->why : "");
	free(s->why);
	s->why = b.s;
	memset(&runs[0], 0, sizeof(runs[0]));
	return 0;
}
