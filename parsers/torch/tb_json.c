// SPDX-License-Identifier: MIT
/*
 * torch-tb-profiler JSON outputs (doc/formats/tb-json.md): what the
 * TensorBoard plugin's REST endpoints return, saved one document per line --
 * overview, operator pie, operator table, kernel table, kernel pie, and
 * again for the next run.  Its own test file (result_check_file.txt) and
 * the Cambricon MLU fork's dumps look like this.
 *
 * Everything here is already aggregated by the plugin, in microseconds:
 *   overview      -> the Steps pane (categories named by its "columns",
 *                    never assumed) and Info (average step breakdown,
 *                    recommendations, environment, device summary);
 *   operator table -> NODE_OP rows under an "Operators" group;
 *   kernel table  -> NODE_KERNEL rows under a "Kernels" group (or under
 *                    their op when the table is grouped by kernel and op);
 *   pies          -> the same numbers again, unrounded: only checked
 *                    against the tables (and summarised in Info when the
 *                    run has no table to check them against).
 * A document of a kind the current run already has, or an overview after
 * anything, starts a new run; documents of one run given as separate files
 * (the plugin's endpoints saved one per file) join into one run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/util.h"
#include "../json.h"
#include "../parser.h"
#include "../text.h"

enum doc_kind {
	DOC_OVERVIEW = 1 << 0,
	DOC_OP_PIE = 1 << 1,
	DOC_OP_TABLE = 1 << 2,
	DOC_KERNEL_TABLE = 1 << 3,
	DOC_KERNEL_PIE = 1 << 4,
};

/* One value of a pie chart, kept to check against the table. */
struct pie_entry {
	const char *name;	/* interned in the run */
	int64_t ns;
	uint8_t cat;		/* enum pie_cat */
};

enum pie_cat { PIE_DEVICE_TOTAL, PIE_DEVICE_SELF, PIE_HOST_TOTAL, PIE_HOST_SELF, PIE_KERNEL_TOTAL,
	       NR_PIE_CATS };

static const char *const pie_keys[NR_PIE_CATS] = {
	"device_total_time", "device_self_time", "host_total_time", "host_self_time", "total",
};

struct tb {
	struct profile *p;	/* the first run: the caller's */
	struct profile *run;	/* the run documents go into now */
	struct diag *d;
	struct json j;
	unsigned run_kinds;	/* doc kinds the current run has */
	bool run_touched;	/* this file put something into the current run */
	unsigned doc_kind;	/* kinds of the document being read */
	uint64_t doc_line;	/* where it starts */
	size_t nr_docs;

	struct pie_entry *pie;	/* the current run's pie values, heap */
	size_t nr_pie, alloc_pie;
	char pie_title[NR_PIE_CATS][64];
	bool has_pie[NR_PIE_CATS];
	char *buf;		/* scratch for HTML and rows, heap */
	size_t buf_cap;
};

static struct pos here(const struct tb *tb)
{
	return json_pos(&tb->j);
}

/* A duration with unit 10^POW10 ns -> nanoseconds, exactly, if within
 * BOUND_DUR_NS of 0: beyond it a value is garbage, and sums of it would
 * overflow. */
static bool scaled_ns(const char *s, size_t n, int pow10, int64_t *ns)
{
	return num_scaled(s, n, pow10, ns) && *ns <= BOUND_DUR_NS && *ns >= -BOUND_DUR_NS;
}

/* Microseconds as the plugin prints them (ints, or floats for traces with
 * float timestamps) -> nanoseconds, exactly. */
static bool tok_ns(const struct tb *tb, enum json_tok t, int64_t *ns)
{
	return t == JSON_NUMBER && scaled_ns(tb->j.s, tb->j.len, 3, ns);
}

/* A table row of the wrong JSON type: say so and skip it. */
static enum json_tok not_a(struct tb *tb, enum json_tok t, const char *what)
{
	struct pos at = here(tb);

	diag_warn(tb->d, &at, "table rows of the wrong JSON type, skipped", "%s of the wrong JSON type; skipped",
		  what);
	return json_skip(&tb->j, t);
}

static void scratch(struct tb *tb, size_t need)
{
	if (need > tb->buf_cap) {
		tb->buf_cap = need > 2 * tb->buf_cap ? need : 2 * tb->buf_cap;
		tb->buf = xrealloc(tb->buf, tb->buf_cap);
	}
}

/* The group node NAME under the run's root, created if absent. */
static struct node *group(struct tb *tb, const char *name)
{
	return node_child(tb->run, tb->run->root, NODE_GROUP,
			  profile_intern(tb->run, name, strlen(name)));
}

static struct node *find_group(const struct profile *run, const char *name)
{
	for (struct node *c = node_first_child(run->root); c; c = node_next(c))
		if (c->kind == NODE_GROUP && !strcmp(node_name(c), name))
			return c;
	return NULL;
}

/* What the run already holds, from an earlier file of the same run. */
static unsigned kinds_in(const struct profile *run)
{
	unsigned k = 0;

	if (run->nr_step_cats || profile_meta_get(run, "performance", "Average Step Time"))
		k |= DOC_OVERVIEW;
	if (find_group(run, "Operators"))
		k |= DOC_OP_TABLE;
	if (find_group(run, "Kernels"))
		k |= DOC_KERNEL_TABLE;
	return k;
}

static void close_run(struct tb *tb);

/* The document being read is (also) of KIND: pick the run it goes into. */
static void begin_doc(struct tb *tb, unsigned kind)
{
	if (tb->doc_kind & kind)
		return;
	tb->doc_kind |= kind;
	if ((tb->run_kinds & kind) || (kind == DOC_OVERVIEW && tb->run_touched)) {
		char where[600];

		close_run(tb);
		snprintf(where, sizeof(where), "%s:%llu", tb->d->path, (unsigned long long)tb->doc_line);
		tb->run = profile_add_run(tb->p, where);
		tb->d->profile = tb->run;
		tb->run_kinds = 0;
	} else if (!tb->run_touched && !tb->run->run_where) {
		char where[600];

		snprintf(where, sizeof(where), "%s:%llu", tb->d->path, (unsigned long long)tb->doc_line);
		tb->run->run_where = profile_strdup(tb->run, where);
	}
	tb->run_kinds |= kind;
	tb->run_touched = true;
}

/* ---- HTML in recommendations ------------------------------------------- */

static void put(struct tb *tb, size_t *n, const char *s, size_t len)
{
	scratch(tb, *n + len + 1);
	memcpy(tb->buf + *n, s, len);
	*n += len;
	tb->buf[*n] = '\0';
}

/* The value of attribute NAME="..." inside the tag TAG[0..N). */
static const char *tag_attr(const char *tag, size_t n, const char *name, size_t *len)
{
	const char *a = text_find(tag, n, name), *q;

	if (!a)
		return NULL;
	a += strlen(name);
	if (a >= tag + n || (*a != '"' && *a != '\''))
		return NULL;
	q = memchr(a + 1, *a, (size_t)(tag + n - (a + 1)));
	if (!q)
		return NULL;
	*len = (size_t)(q - (a + 1));
	return a + 1;
}

static void add_item(struct tb *tb, size_t n, int *nr)
{
	size_t len = n;
	const char *s = text_trim(tb->buf, &len);
	char key[16];

	if (!len)
		return;
	snprintf(key, sizeof(key), "%d", ++*nr);
	scratch(tb, n + 1);
	memmove(tb->buf, s, len);
	tb->buf[len] = '\0';
	profile_meta(tb->run, "recommendations", key, tb->buf);
}

/*
 * The plugin's recommendations are an HTML list: one Info line per <li>,
 * tags dropped, a link's target kept after its text, entities decoded,
 * white space collapsed.
 */
static void add_recommendations(struct tb *tb, const char *html, size_t len)
{
	static const struct {
		const char *name;
		const char *text;
	} entities[] = {
		{ "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
		{ "&#39;", "'" }, { "&apos;", "'" }, { "&nbsp;", " " },
	};
	char *copy = xstrndup(html, len);
	char href[512] = "";
	size_t n = 0;
	int nr = 0;

	for (size_t i = 0; i < len;) {
		char c = copy[i];

		if (c == '<') {
			const char *end = memchr(copy + i, '>', len - i);
			const char *tag = copy + i + 1, *url;
			size_t tlen, ulen;

			if (!end)
				break;
			tlen = (size_t)(end - tag);
			if (text_starts(tag, tlen, "li") || text_starts(tag, tlen, "/li") ||
			    text_starts(tag, tlen, "/ul") || text_starts(tag, tlen, "ul")) {
				add_item(tb, n, &nr);
				n = 0;
			} else if (text_starts(tag, tlen, "br") || text_starts(tag, tlen, "p") ||
				   text_starts(tag, tlen, "/p")) {
				put(tb, &n, " ", 1);
			} else if (text_starts(tag, tlen, "a ") && (url = tag_attr(tag, tlen, "href=", &ulen))) {
				snprintf(href, sizeof(href), "%.*s", (int)ulen, url);
			} else if (text_starts(tag, tlen, "/a") && href[0]) {
				put(tb, &n, " (", 2);
				put(tb, &n, href, strlen(href));
				put(tb, &n, ")", 1);
				href[0] = '\0';
			}
			i = (size_t)(end - copy) + 1;
			continue;
		}
		if (c == '&') {
			size_t k;

			for (k = 0; k < ARRAY_SIZE(entities); k++) {
				size_t el = strlen(entities[k].name);

				if (i + el <= len && !memcmp(copy + i, entities[k].name, el)) {
					put(tb, &n, entities[k].text, strlen(entities[k].text));
					i += el;
					break;
				}
			}
			if (k < ARRAY_SIZE(entities))
				continue;
		}
		if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
			if (n && tb->buf[n - 1] != ' ')
				put(tb, &n, " ", 1);
			i++;
			continue;
		}
		put(tb, &n, &copy[i], 1);
		i++;
	}
	add_item(tb, n, &nr);
	free(copy);
}

/* ---- overview ---------------------------------------------------------- */

#define MAX_STEP_COLS 64

struct step_cols {
	int cat[MAX_STEP_COLS];		/* category index, -1: not a category */
	bool tooltip[MAX_STEP_COLS];
	int name_col;
	size_t nr;
};

/* "columns": [{"type": "string", "name": "Step"}, {"type": "number", "name":
 * "Kernel"}, {"type": "string", "role": "tooltip", ...}, ...] */
static enum json_tok read_step_columns(struct tb *tb, struct step_cols *sc)
{
	struct json *j = &tb->j;
	char *names[MAX_STEP_COLS];
	size_t nr_cats = 0;
	enum json_tok t;

	sc->nr = 0;
	sc->name_col = -1;
	while ((t = json_next(j)) != JSON_ARR_END) {
		char name[128] = "";
		bool is_tooltip = false, is_number = false;

		if (json_failed(t))
			goto out;
		if (t != JSON_OBJ_BEGIN || sc->nr == MAX_STEP_COLS) {
			struct pos at = here(tb);

			diag_warn(tb->d, &at, "step columns not understood, ignored",
				  "step column is not an object, or one too many; ignored");
			if (json_failed(t = json_skip(&tb->j, t)))
				goto out;
			if (sc->nr < MAX_STEP_COLS) {
				sc->cat[sc->nr] = -1;
				sc->tooltip[sc->nr++] = false;
			}
			continue;
		}
		while ((t = json_next_key(j)) == JSON_KEY) {
			bool want_name = json_is(j, "name"), want_role = json_is(j, "role"),
			     want_type = json_is(j, "type");

			t = json_next(j);
			if (t == JSON_STRING && want_name)
				snprintf(name, sizeof(name), "%.*s", (int)(j->len < 127 ? j->len : 127), j->s);
			else if (t == JSON_STRING && want_role)
				is_tooltip = json_is(j, "tooltip");
			else if (t == JSON_STRING && want_type)
				is_number = json_is(j, "number");
			if (json_failed(t = json_skip(&tb->j, t)))
				goto out;
		}
		if (t != JSON_OBJ_END)
			goto out;
		sc->tooltip[sc->nr] = is_tooltip;
		sc->cat[sc->nr] = -1;
		if (!is_tooltip && is_number && name[0]) {
			names[nr_cats] = xstrdup(name);
			sc->cat[sc->nr] = (int)nr_cats++;
		} else if (!is_tooltip && sc->name_col < 0) {
			sc->name_col = (int)sc->nr;	/* "Step" */
		}
		sc->nr++;
	}
	if (tb->run->nr_steps) {
		struct pos at = here(tb);

		/* Steps already hold values in the first columns' order. */
		diag_warn(tb->d, &at, "step columns repeated after steps, ignored",
			  "step columns come again after step rows; ignored with the rows after them");
		sc->nr = 0;
		sc->name_col = -1;
		t = JSON_ARR_END;
		goto out;
	}
	profile_set_step_cats(tb->run, (const char *const *)names, nr_cats);
out:
	for (size_t i = 0; i < nr_cats; i++)
		free(names[i]);
	return t;
}

/* "Step 5<br>Total: 187948us<br>..." -> the total, in ns. */
static bool tooltip_total(const char *s, size_t n, int64_t *ns)
{
	const char *t = text_find(s, n, "Total: "), *u;

	if (!t)
		return false;
	t += 7;
	u = text_find(t, n - (size_t)(t - s), "us");
	return u && scaled_ns(t, (size_t)(u - t), 3, ns);
}

static enum json_tok read_step_row(struct tb *tb, const struct step_cols *sc)
{
	struct json *j = &tb->j;
	struct step *st = NULL;
	int64_t sum = 0, tip_total = -1;
	size_t col = 0;
	enum json_tok t;
	struct pos at = here(tb);

	while ((t = json_next(j)) != JSON_ARR_END) {
		int64_t ns;

		if (json_failed(t))
			return t;
		if ((int)col == sc->name_col && (t == JSON_STRING || t == JSON_NUMBER)) {
			st = profile_add_step(tb->run, j->s, j->len);
		} else if (col < sc->nr && sc->cat[col] >= 0) {
			if (!st)
				st = profile_add_step(tb->run, "?", 1);
			if (tok_ns(tb, t, &ns) && ns >= 0) {
				st->cat_ns[sc->cat[col]] = ns;
				if (!sum_add(&sum, ns))
					diag_warn(tb->d, &at, "step totals past proftui's cap (2^61 ns)",
						  "step's categories add up past proftui's cap of 2^61 ns; "
						  "its total is the cap");
			} else if (t != JSON_NULL) {
				diag_warn(tb->d, &at, "step values that are not numbers, left out",
					  "step value is not a duration from 0 to 10^15 ns; left out");
			}
		} else if (col < sc->nr && sc->tooltip[col] && t == JSON_STRING && tip_total < 0) {
			if (!tooltip_total(j->s, j->len, &tip_total))
				tip_total = -1;
		}
		if (json_failed(t = json_skip(&tb->j, t)))
			return t;
		col++;
	}
	if (!st) {
		diag_warn(tb->d, &at, "empty step rows, skipped", "step row is empty; skipped");
		return t;
	}
	if (col != sc->nr)
		diag_warn(tb->d, &at, "step rows that do not match the columns",
			  "step '%s' has %zu values for %zu columns", st->name, col, sc->nr);
	st->total_ns = sum;
	/* The categories carve the step, so they add up to its length
	 * (overall_parser.py); the tooltip says what the length was. */
	if (tip_total >= 0 && (tip_total - sum > 1000 || sum - tip_total > 1000))
		diag_warn(tb->d, &at, "steps whose categories do not add up to their total",
			  "step '%s': categories add up to %lld ns, its tooltip says %lld ns", st->name,
			  (long long)sum, (long long)tip_total);
	return t;
}

/* A JSON scalar as text, for Info lines. */
static void scalar_text(const struct json *j, enum json_tok t, char *out, size_t cap)
{
	if (t == JSON_STRING || t == JSON_NUMBER || t == JSON_BARE)
		snprintf(out, cap, "%.*s", (int)(j->len < cap ? j->len : cap - 1), j->s);
	else if (t == JSON_TRUE || t == JSON_FALSE)
		snprintf(out, cap, "%s", t == JSON_TRUE ? "true" : "false");
	else
		out[0] = '\0';
}

/* One {"name", "value", "extra", "children"} of "performance". */
static enum json_tok read_perf_item(struct tb *tb, int depth)
{
	struct json *j = &tb->j;
	char name[128] = "", value[64] = "", extra[64] = "", line[160];
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		char *dst = json_is(j, "name") ? name : json_is(j, "value") ? value :
			    json_is(j, "extra") ? extra : NULL;

		if (json_is(j, "children")) {
			if (json_expect_open(j, JSON_ARR_BEGIN, &t)) {
				/* The parent's line comes first. */
				if (name[0]) {
					snprintf(line, sizeof(line), "%s us", value);
					profile_meta(tb->run, "performance", name, line);
					name[0] = '\0';
				}
				while ((t = json_next(j)) != JSON_ARR_END) {
					if (json_failed(t))
						return t;
					t = t == JSON_OBJ_BEGIN && depth < 4 ? read_perf_item(tb, depth + 1) :
									       json_skip(&tb->j, t);
					if (json_failed(t))
						return t;
				}
				continue;
			}
		} else if (dst) {
			t = json_next(j);
			scalar_text(j, t, dst, dst == name ? sizeof(name) : sizeof(value));
		} else {
			if (json_failed(t = json_skip_value(j)))
				return t;
			continue;
		}
		if (json_failed(t = json_skip(&tb->j, t)))
			return t;
	}
	if (name[0]) {
		if (depth && extra[0])
			snprintf(line, sizeof(line), "%s us (%s%%)", value, extra);
		else
			snprintf(line, sizeof(line), "%s us", value);
		profile_meta(tb->run, "performance", name, line);
	}
	return t;
}

/* [{"title": ..., "value": ...}, ...] -> Info lines of SECTION. */
static enum json_tok read_title_values(struct tb *tb, const char *section)
{
	struct json *j = &tb->j;
	enum json_tok t;

	while ((t = json_next(j)) != JSON_ARR_END) {
		char title[128] = "", value[256] = "";

		if (json_failed(t))
			return t;
		if (t != JSON_OBJ_BEGIN) {
			if (json_failed(t = json_skip(&tb->j, t)))
				return t;
			continue;
		}

		while ((t = json_next_key(j)) == JSON_KEY) {
			bool is_title = json_is(j, "title"), is_value = json_is(j, "value");

			t = json_next(j);
			if (is_title)
				scalar_text(j, t, title, sizeof(title));
			else if (is_value)
				scalar_text(j, t, value, sizeof(value));
			if (json_failed(t = json_skip(&tb->j, t)))
				return t;
		}
		if (t != JSON_OBJ_END)
			return t;
		if (title[0])
			profile_meta(tb->run, section, title, value);
	}
	return t;
}

/* "gpu_metrics" (or the MLU fork's "mlu_metrics"): {"title": "GPU Summary",
 * "data": [{"title", "value"}...], "tooltip": ...}.  The title names the
 * section; "data" comes after it in the plugin's output. */
static enum json_tok read_metrics(struct tb *tb, const char *key)
{
	struct json *j = &tb->j;
	char section[64];
	enum json_tok t;

	snprintf(section, sizeof(section), "%s", key);
	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "title")) {
			t = json_next(j);
			if (t == JSON_STRING)
				scalar_text(j, t, section, sizeof(section));
		} else if (json_is(j, "data")) {
			if (json_expect_open(j, JSON_ARR_BEGIN, &t)) {
				if (json_failed(t = read_title_values(tb, section)))
					return t;
				continue;
			}
		} else {
			if (json_failed(t = json_skip_value(j)))
				return t;
			continue;
		}
		if (json_failed(t = json_skip(&tb->j, t)))
			return t;
	}
	return t;
}

/* ---- pies -------------------------------------------------------------- */

/* {"title": "Device Self Time (us)", "columns": [...], "rows": [[name,
 * value]...]} or null. */
static enum json_tok read_pie(struct tb *tb, enum pie_cat cat, enum json_tok t)
{
	struct json *j = &tb->j;

	if (t == JSON_NULL)
		return t;
	if (t != JSON_OBJ_BEGIN)
		return json_skip(&tb->j, t);
	tb->has_pie[cat] = true;
	/* The kernel pie has no title; call it what the table calls it. */
	snprintf(tb->pie_title[cat], sizeof(tb->pie_title[cat]), "%s",
		 cat == PIE_KERNEL_TOTAL ? "Total Duration (us)" : pie_keys[cat]);
	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "title")) {
			t = json_next(j);
			if (t == JSON_STRING)
				scalar_text(j, t, tb->pie_title[cat], sizeof(tb->pie_title[cat]));
		} else if (json_is(j, "rows")) {
			if (!json_expect_open(j, JSON_ARR_BEGIN, &t)) {
				if (json_failed(t = json_skip(&tb->j, t)))
					return t;
				continue;
			}
			while ((t = json_next(j)) != JSON_ARR_END) {
				struct pie_entry e = { .name = NULL, .ns = 0, .cat = (uint8_t)cat };
				bool has_value = false;
				int col = 0;

				if (json_failed(t))
					return t;
				if (t != JSON_ARR_BEGIN) {
					if (json_failed(t = json_skip(&tb->j, t)))
						return t;
					continue;
				}

				while ((t = json_next(j)) != JSON_ARR_END) {
					if (json_failed(t))
						return t;
					if (col == 0 && t == JSON_STRING)
						e.name = profile_intern(tb->run, j->s, j->len);
					else if (col == 1)
						has_value = tok_ns(tb, t, &e.ns);
					if (json_failed(t = json_skip(&tb->j, t)))
						return t;
					col++;
				}
				if (e.name && has_value) {
					GROW(tb->pie, tb->alloc_pie, tb->nr_pie + 1);
					tb->pie[tb->nr_pie++] = e;
				}
			}
			continue;
		} else {
			if (json_failed(t = json_skip_value(j)))
				return t;
			continue;
		}
		if (json_failed(t = json_skip(&tb->j, t)))
			return t;
	}
	return t;
}

struct kernel_sum {
	const struct profile *run;
	const char *name;
	double ns;
	bool found;
};

static bool add_kernel_ns(struct node *n, void *ctx)
{
	struct kernel_sum *ks = ctx;

	if (n->kind == NODE_KERNEL && node_name(n) == ks->name) {
		ks->ns += (double)node_device_total(ks->run, n);
		ks->found = true;
	}
	return true;
}

/* The pie value the table gives for E, summed over the rows of its name
 * (kernels may hang under their ops: the whole tree), in a double: a
 * check, not a number we show. */
static bool table_value(const struct profile *run, const struct pie_entry *e, double *ns)
{
	const struct node *g = find_group(run, "Operators");
	bool found = false;

	*ns = 0;
	if (e->cat == PIE_KERNEL_TOTAL) {
		struct kernel_sum ks = { run, e->name, 0, false };

		node_walk(run->root, add_kernel_ns, &ks);
		*ns = ks.ns;
		return ks.found;
	}
	if (!g)
		return false;
	for (const struct node *n = node_first_child(g); n; n = node_next(n)) {
		if (node_name(n) != e->name)
			continue;
		found = true;
		switch (e->cat) {
		case PIE_DEVICE_TOTAL:
			*ns += (double)node_device_total(run, n);
			break;
		case PIE_DEVICE_SELF:
			*ns += (double)node_device_self(run, n);
			break;
		case PIE_HOST_TOTAL:
			*ns += (double)node_host_total(run, n);
			break;
		default:
			*ns += (double)node_host_self(run, n);
			break;
		}
	}
	return found;
}

/*
 * The run is complete: say in Info what its pies hold, and check them
 * against its tables (the table rounds each value to a microsecond, the
 * pie does not).  A pie read before its table, from another file of the
 * same run, is not checked.
 */
static void close_run(struct tb *tb)
{
	for (size_t i = 0; i < tb->nr_pie; i++) {
		const struct pie_entry *e = &tb->pie[i];
		bool kernel = e->cat == PIE_KERNEL_TOTAL;
		double ns;

		if (!find_group(tb->run, kernel ? "Kernels" : "Operators"))
			continue;
		if (!table_value(tb->run, e, &ns) || fabs(ns - (double)e->ns) > 1000) {
			struct pos none = { 0, 0 };

			diag_warn(tb->d, &none, "pie chart values that differ from their table",
				  "%s of '%.80s' is %.3f us in the pie chart but %.3f us in the table",
				  tb->pie_title[e->cat], e->name, (double)e->ns / 1e3, ns / 1e3);
		}
	}
	for (int cat = 0; cat < NR_PIE_CATS; cat++) {
		bool kernel = cat == PIE_KERNEL_TOTAL;
		size_t nr = 0;
		double sum = 0;
		char value[96];

		if (!tb->has_pie[cat])
			continue;
		for (size_t i = 0; i < tb->nr_pie; i++) {
			if (tb->pie[i].cat == cat) {
				nr++;
				sum += (double)tb->pie[i].ns;
			}
		}
		/* Self times and kernel totals add up; inclusive totals do not. */
		if (cat == PIE_DEVICE_TOTAL || cat == PIE_HOST_TOTAL)
			snprintf(value, sizeof(value), "%zu operators", nr);
		else
			snprintf(value, sizeof(value), "%zu %s, %.3f us in all", nr,
				 kernel ? "kernels" : "operators", sum / 1e3);
		profile_meta(tb->run, kernel ? "kernel pie chart" : "operator pie chart", tb->pie_title[cat],
			     value);
	}
	tb->nr_pie = 0;
	memset(tb->has_pie, 0, sizeof(tb->has_pie));
}

/* ---- operator table ---------------------------------------------------- */

/* The operator table's members (run_generator.py _generate_op_table). */
enum op_field {
	OF_OTHER, OF_NAME, OF_CALLS, OF_SHAPE, OF_TC_ELIGIBLE, OF_TC_SELF, OF_TC_TOTAL,
	OF_DEVICE_SELF, OF_DEVICE_TOTAL, OF_HOST_SELF, OF_HOST_TOTAL,
};

static const struct {
	const char *key;
	enum op_field field;
} op_keys[] = {
	{ "name", OF_NAME },
	{ "calls", OF_CALLS },
	{ "input_shape", OF_SHAPE },
	{ "tc_eligible", OF_TC_ELIGIBLE },
	{ "tc_self_ratio", OF_TC_SELF },
	{ "tc_total_ratio", OF_TC_TOTAL },
	{ "device_self_duration", OF_DEVICE_SELF },
	{ "device_total_duration", OF_DEVICE_TOTAL },
	{ "host_self_duration", OF_HOST_SELF },
	{ "host_total_duration", OF_HOST_TOTAL },
};

/* What the member name just read is. */
static enum op_field op_field_of(const struct json *j)
{
	for (size_t i = 0; i < ARRAY_SIZE(op_keys); i++)
		if (json_is(j, op_keys[i].key))
			return op_keys[i].field;
	return OF_OTHER;
}

struct op_row {
	int64_t ns[NR_NODE_TIMES];	/* the node's times, by enum node_time */
	uint64_t calls;
	const char *name, *shape, *tc_eligible;	/* interned in the run */
	double tc_self, tc_total;	/* -1: not given */
	bool bad, negative;
};

/* The value T of member F into R. */
static void op_cell(struct tb *tb, enum op_field f, enum json_tok t, struct op_row *r)
{
	const struct json *j = &tb->j;
	int64_t *dst = f == OF_DEVICE_SELF ? &r->ns[NODE_DEVICE_SELF] :
		       f == OF_DEVICE_TOTAL ? &r->ns[NODE_DEVICE_TOTAL] :
		       f == OF_HOST_SELF ? &r->ns[NODE_HOST_SELF] :
		       f == OF_HOST_TOTAL ? &r->ns[NODE_HOST_TOTAL] : NULL;
	int64_t c;

	if (dst) {
		r->bad |= !tok_ns(tb, t, dst);
		r->negative |= *dst < 0;
		return;
	}
	switch (f) {
	case OF_NAME:
		if (t == JSON_STRING)
			r->name = profile_intern(tb->run, j->s, j->len);
		break;
	case OF_CALLS:
		if (t == JSON_NUMBER && num_int(j->s, j->len, &c) && bound_count_ok(c))
			r->calls = (uint64_t)c;
		else
			r->bad = true;
		break;
	case OF_SHAPE:
		if (t == JSON_STRING)
			r->shape = profile_intern(tb->run, j->s, j->len);
		break;
	case OF_TC_ELIGIBLE:
		if (t == JSON_STRING)
			r->tc_eligible = profile_intern(tb->run, j->s, j->len);
		break;
	case OF_TC_SELF:
	case OF_TC_TOTAL: {
		double *pct = f == OF_TC_SELF ? &r->tc_self : &r->tc_total;

		/* A share outside 0..100 is none: unknown (-1), said. */
		if (t == JSON_NUMBER &&
		    (!num_double(j->s, j->len, pct) || !(*pct >= 0 && *pct <= 100))) {
			struct pos at = here(tb);

			diag_warn(tb->d, &at, "percentages not from 0 to 100, left out",
				  "'%.*s' is not a percentage from 0 to 100; left out",
				  (int)(j->len < 40 ? j->len : 40), j->s);
			*pct = -1;
		}
		break;
	}
	default:
		break;
	}
}

/* The node of an operator row that read. */
static void add_op_row(struct tb *tb, const struct op_row *r)
{
	/* The group only once a row is there: an empty table leaves no trace. */
	struct node *row = node_new_interned(tb->run, group(tb, "Operators"), NODE_OP, r->name);

	/* Rows of the table: never merged (grouped by name and input shape,
	 * one name has several). */
	row->flags = NODE_DISTINCT;
	node_set_calls(tb->run, row, r->calls);
	for (int t = 0; t < NR_NODE_TIMES; t++)
		node_set_time(tb->run, row, (enum node_time)t, r->ns[t]);
	if (r->shape)
		attr_set_str(tb->run, node_attr_list(row), "input_shapes", r->shape, strlen(r->shape));
	if (r->tc_eligible)
		attr_set_str(tb->run, node_attr_list(row), "tc_eligible", r->tc_eligible, strlen(r->tc_eligible));
	/* Already percentages: round(100 * ratio, 2) (run_generator.py). */
	if (r->tc_self >= 0)
		attr_set_double(tb->run, node_attr_list(row), "tc_self_pct", r->tc_self);
	if (r->tc_total >= 0)
		attr_set_double(tb->run, node_attr_list(row), "tc_total_pct", r->tc_total);
}

/* One {"name", "calls", "device_self_duration", ...} of the operator table. */
static enum json_tok read_op_row(struct tb *tb)
{
	struct json *j = &tb->j;
	struct pos at = here(tb);
	struct op_row r = { .tc_self = -1, .tc_total = -1 };
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		enum op_field f = op_field_of(j);

		if (f == OF_OTHER) {
			if (json_failed(t = json_skip_value(j)))
				return t;
			continue;
		}
		t = json_next(j);
		op_cell(tb, f, t, &r);
		if (json_failed(t = json_skip(j, t)))
			return t;
	}
	if (t != JSON_OBJ_END)
		return t;
	if (!r.name) {
		diag_warn(tb->d, &at, "operator rows without a name, skipped", "operator row has no name; skipped");
		return t;
	}
	if (r.bad) {
		diag_warn(tb->d, &at, "operator rows with values that are not numbers, skipped",
			  "operator '%.80s' has a call count or duration that is not a number within "
			  "proftui's bounds (2^40 calls, 10^15 ns); skipped", r.name);
		return t;
	}
	if (r.negative)
		diag_warn(tb->d, &at, "negative operator durations (as the plugin computed them)",
			  "operator '%.80s' has a negative duration; kept as the plugin gives it", r.name);
	add_op_row(tb, &r);
	return t;
}

static enum json_tok read_op_table(struct tb *tb)
{
	enum json_tok t;

	while ((t = json_next(&tb->j)) != JSON_ARR_END) {
		if (json_failed(t))
			return t;
		t = t == JSON_OBJ_BEGIN ? read_op_row(tb) : not_a(tb, t, "operator row");
		if (json_failed(t))
			return t;
	}
	return t;
}

/* ---- kernel table ------------------------------------------------------ */

enum kcol {
	KC_OTHER, KC_NAME, KC_OP, KC_TC, KC_CALLS, KC_TOTAL, KC_MEAN, KC_MAX, KC_MIN, KC_BPSM, KC_OCC,
	KC_GRID, KC_BLOCK, KC_REGS, KC_SMEM, KC_OP_TC,
};

#define MAX_KCOLS 32

struct kcols {
	uint8_t kind[MAX_KCOLS];
	int8_t pow10[MAX_KCOLS];	/* durations: 3 for "(us)" */
	size_t nr;
};

/*
 * The kernel table's column titles (run_generator.py's and the MLU
 * fork's), as data.  A duration title names its unit: "Total Duration
 * (us)".
 */
enum title_match { TITLE_EXACT, TITLE_PREFIX, TITLE_DURATION };

static const struct {
	const char *title;
	enum title_match match;
	enum kcol kind;
} kernel_titles[] = {
	{ "Name", TITLE_EXACT, KC_NAME },
	{ "Operator", TITLE_EXACT, KC_OP },
	{ "Tensor Cores Used", TITLE_EXACT, KC_TC },
	{ "Kernel Uses Tensor Cores", TITLE_EXACT, KC_TC },
	{ "Op is Tensor Cores eligible", TITLE_EXACT, KC_OP_TC },
	{ "Calls", TITLE_EXACT, KC_CALLS },
	{ "Total Duration", TITLE_DURATION, KC_TOTAL },
	{ "Mean Duration", TITLE_DURATION, KC_MEAN },
	{ "Max Duration", TITLE_DURATION, KC_MAX },
	{ "Min Duration", TITLE_DURATION, KC_MIN },
	{ "Mean Blocks Per SM", TITLE_EXACT, KC_BPSM },
	{ "Mean Est. Achieved Occupancy", TITLE_PREFIX, KC_OCC },
	{ "Grid", TITLE_EXACT, KC_GRID },
	{ "Block", TITLE_EXACT, KC_BLOCK },
	{ "Register Per Thread", TITLE_EXACT, KC_REGS },
	{ "Shared Memory", TITLE_EXACT, KC_SMEM },
};

static const struct {
	const char *unit;
	int8_t pow10;
} duration_units[] = {
	{ "(us)", 3 }, { "(ms)", 6 }, { "(ns)", 0 },
};

/* The unit of a duration title, as a power of ten of nanoseconds. */
static bool duration_unit(const char *s, size_t n, int8_t *pow10)
{
	for (size_t i = 0; i < ARRAY_SIZE(duration_units); i++) {
		if (text_find(s, n, duration_units[i].unit)) {
			*pow10 = duration_units[i].pow10;
			return true;
		}
	}
	return false;
}

static enum kcol kcol_of(const char *s, size_t n, int8_t *pow10)
{
	*pow10 = 3;
	for (size_t i = 0; i < ARRAY_SIZE(kernel_titles); i++) {
		const char *title = kernel_titles[i].title;

		switch (kernel_titles[i].match) {
		case TITLE_EXACT:
			if (text_eq(s, n, title))
				return kernel_titles[i].kind;
			break;
		case TITLE_PREFIX:
			if (text_starts(s, n, title))
				return kernel_titles[i].kind;
			break;
		case TITLE_DURATION:
			if (text_starts(s, n, title) && duration_unit(s, n, pow10))
				return kernel_titles[i].kind;
			break;
		}
	}
	return KC_OTHER;
}

static enum json_tok read_kernel_columns(struct tb *tb, struct kcols *kc)
{
	struct json *j = &tb->j;
	bool warned = false;
	enum json_tok t;

	kc->nr = 0;
	while ((t = json_next(j)) != JSON_ARR_END) {
		enum kcol kind = KC_OTHER;
		int8_t pow10 = 3;

		if (json_failed(t))
			return t;
		if (t == JSON_OBJ_BEGIN) {
			while ((t = json_next_key(j)) == JSON_KEY) {
				bool is_name = json_is(j, "name");

				t = json_next(j);
				if (is_name && t == JSON_STRING)
					kind = kcol_of(j->s, j->len, &pow10);
				if (json_failed(t = json_skip(&tb->j, t)))
					return t;
			}
			if (t != JSON_OBJ_END)
				return t;
		} else if (t == JSON_STRING) {
			kind = kcol_of(j->s, j->len, &pow10);
		} else if (json_failed(t = json_skip(&tb->j, t))) {
			return t;
		}
		if (kind == KC_OTHER && !warned) {
			struct pos at = here(tb);

			diag_warn(tb->d, &at, "kernel table columns not understood, ignored",
				  "kernel table column not understood; ignored");
			warned = true;
		}
		if (kc->nr < MAX_KCOLS) {
			kc->kind[kc->nr] = (uint8_t)kind;
			kc->pow10[kc->nr] = pow10;
		}
		kc->nr++;
	}
	return t;
}

/* The op row NAME of this run's operator table, for a kernel table grouped
 * by kernel and op; NULL when there is none, or several (a table grouped
 * by input shape): a kernel would then hang under the wrong shape. */
static struct node *op_row(struct tb *tb, const char *name)
{
	struct node *g = find_group(tb->run, "Operators"), *found = NULL;

	for (struct node *n = g ? node_first_child(g) : NULL; n; n = node_next(n)) {
		if (node_name(n) != name)
			continue;
		if (found)
			return NULL;
		found = n;
	}
	return found;
}

struct krow {
	const char *name, *op, *tc, *op_tc, *grid, *block;
	int64_t calls, total, mean, max, min, regs, smem;
	double bpsm, occ;
	bool has_calls, has_total, has_mean, has_max, has_min, has_bpsm, has_occ, has_regs, has_smem;
	bool bad;
};

static void kernel_cell(struct tb *tb, const struct kcols *kc, size_t col, enum json_tok t, struct krow *r)
{
	const struct json *j = &tb->j;
	enum kcol kind = col < kc->nr && col < MAX_KCOLS ? (enum kcol)kc->kind[col] : KC_OTHER;
	int pow10 = col < MAX_KCOLS ? kc->pow10[col] : 3;
	const char *str = t == JSON_STRING ? profile_intern(tb->run, j->s, j->len) : NULL;
	bool is_num = t == JSON_NUMBER;

	switch (kind) {
	case KC_NAME:
		r->name = str;
		break;
	case KC_OP:
		r->op = str;
		break;
	case KC_TC:
		r->tc = str;
		break;
	case KC_OP_TC:
		r->op_tc = str;
		break;
	case KC_GRID:
		r->grid = str;
		break;
	case KC_BLOCK:
		r->block = str;
		break;
	case KC_CALLS:
		r->has_calls = is_num && num_int(j->s, j->len, &r->calls) && bound_count_ok(r->calls);
		r->bad |= !r->has_calls;
		break;
	case KC_TOTAL:
		r->has_total = is_num && scaled_ns(j->s, j->len, pow10, &r->total);
		r->bad |= !r->has_total;
		break;
	case KC_MEAN:
		r->has_mean = is_num && scaled_ns(j->s, j->len, pow10, &r->mean);
		break;
	case KC_MAX:
		r->has_max = is_num && scaled_ns(j->s, j->len, pow10, &r->max);
		break;
	case KC_MIN:
		r->has_min = is_num && scaled_ns(j->s, j->len, pow10, &r->min);
		break;
	case KC_BPSM:
		r->has_bpsm = is_num && num_double(j->s, j->len, &r->bpsm) && isfinite(r->bpsm) &&
			      r->bpsm >= 0;
		if (is_num && !r->has_bpsm) {
			struct pos at = here(tb);

			diag_warn(tb->d, &at, "kernel values that are not numbers, left out",
				  "blocks per SM '%.*s' is not a number from 0; left out",
				  (int)(j->len < 40 ? j->len : 40), j->s);
		}
		break;
	case KC_OCC:
		r->has_occ = is_num && num_double(j->s, j->len, &r->occ) && r->occ >= 0 &&
			     r->occ <= 100;
		if (is_num && !r->has_occ) {
			struct pos at = here(tb);

			diag_warn(tb->d, &at, "percentages not from 0 to 100, left out",
				  "'%.*s' is not a percentage from 0 to 100; left out",
				  (int)(j->len < 40 ? j->len : 40), j->s);
		}
		break;
	case KC_REGS:
		r->has_regs = is_num && num_int(j->s, j->len, &r->regs);
		break;
	case KC_SMEM:
		r->has_smem = is_num && num_int(j->s, j->len, &r->smem);
		break;
	default:
		break;
	}
}

static enum json_tok read_kernel_row(struct tb *tb, const struct kcols *kc)
{
	struct json *j = &tb->j;
	struct pos at = here(tb);
	struct krow r;
	struct node *parent = NULL, *k;
	size_t col = 0;
	enum json_tok t;

	memset(&r, 0, sizeof(r));
	while ((t = json_next(j)) != JSON_ARR_END) {
		if (json_failed(t))
			return t;
		kernel_cell(tb, kc, col++, t, &r);
		if (json_failed(t = json_skip(&tb->j, t)))
			return t;
	}
	if (!r.name || r.bad || !r.has_calls || !r.has_total) {
		diag_warn(tb->d, &at, "kernel rows without a name, calls or total, skipped",
			  "kernel row lacks a name, or a call count or total duration within proftui's "
			  "bounds (2^40 calls, 10^15 ns); skipped");
		return t;
	}
	if (col != kc->nr)
		diag_warn(tb->d, &at, "kernel rows that do not match the columns",
			  "kernel '%.80s' has %zu values for %zu columns", r.name, col, kc->nr);
	/* The plugin's mean is round(Σ dur / calls); ours will be total /
	 * calls of the rounded total: they may differ by the rounding only. */
	if (r.has_mean && r.calls) {
		int64_t mean = r.total / r.calls;

		if (mean - r.mean > 1000 || r.mean - mean > 1000)
			diag_warn(tb->d, &at, "kernel means that differ from total / calls",
				  "kernel '%.80s': mean %lld ns, but total / calls is %lld ns", r.name,
				  (long long)r.mean, (long long)mean);
	}
	if (r.op)
		parent = op_row(tb, r.op);
	if (!parent)
		parent = group(tb, "Kernels");
	k = node_new_interned(tb->run, parent, NODE_KERNEL, r.name);
	/* Grouped by kernel and op (and grid, block, registers, shared
	 * memory): each row keeps its own launch attributes, so rows stay
	 * as the plugin printed them rather than merge under one name. */
	if (r.op)
		k->flags = NODE_DISTINCT;
	node_set_calls(tb->run, k, (uint64_t)r.calls);
	node_set_device_self(tb->run, k, r.total);
	node_set_device_total(tb->run, k, r.total);
	node_set_minmax(tb->run, k, r.has_min ? r.min : -1, r.has_max ? r.max : -1);
	if (r.tc)
		attr_set_str(tb->run, node_attr_list(k), "tensor_cores_used", r.tc, strlen(r.tc));
	if (r.op)
		attr_set_str(tb->run, node_attr_list(k), "op", r.op, strlen(r.op));
	if (r.op_tc)
		attr_set_str(tb->run, node_attr_list(k), "op_tc_eligible", r.op_tc, strlen(r.op_tc));
	if (r.grid)
		attr_set_str(tb->run, node_attr_list(k), "grid", r.grid, strlen(r.grid));
	if (r.block)
		attr_set_str(tb->run, node_attr_list(k), "block", r.block, strlen(r.block));
	if (r.has_regs)
		attr_set_int(tb->run, node_attr_list(k), "registers_per_thread", r.regs);
	if (r.has_smem)
		attr_set_int(tb->run, node_attr_list(k), "shared_memory_bytes", r.smem);
	/*
	 * The plugin's blocks per SM and occupancy are already means over the
	 * kernel's calls, weighted by duration.  agg_kernels() weights each
	 * node's value by the node's duration and divides by the row's total;
	 * this node is the whole row, so that gives the plugin's value back.
	 * A row whose rounded total is 0 carries no weight: the value would
	 * be lost in a 0/0, so it is not stored.
	 */
	if (r.total > 0) {
		if (r.has_bpsm)
			attr_set_double(tb->run, node_attr_list(k), "blocks_per_sm", r.bpsm);
		if (r.has_occ)
			attr_set_double(tb->run, node_attr_list(k), "occupancy_pct", r.occ);
	}
	return t;
}

enum table_kind { TABLE_STEPS, TABLE_KERNELS };

/*
 * The overview's "steps" and the kernel table's "data" are both
 * {"columns": [...], "rows": [[...], ...]}: the columns say what each
 * row's cells are, so rows that come before them are skipped.
 */
static enum json_tok read_table(struct tb *tb, enum table_kind kind)
{
	struct json *j = &tb->j;
	struct step_cols sc = { .nr = 0, .name_col = -1 };
	struct kcols kc = { .nr = 0 };
	bool steps = kind == TABLE_STEPS, has_cols = false;
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "columns")) {
			if (json_expect_open(j, JSON_ARR_BEGIN, &t)) {
				t = steps ? read_step_columns(tb, &sc) : read_kernel_columns(tb, &kc);
				if (json_failed(t))
					return t;
				has_cols = steps ? sc.nr > 0 : true;
				continue;
			}
		} else if (json_is(j, "rows")) {
			if (json_expect_open(j, JSON_ARR_BEGIN, &t) && has_cols) {
				while ((t = json_next(j)) != JSON_ARR_END) {
					if (json_failed(t))
						return t;
					if (t != JSON_ARR_BEGIN)
						t = not_a(tb, t, steps ? "step row" : "kernel row");
					else
						t = steps ? read_step_row(tb, &sc) : read_kernel_row(tb, &kc);
					if (json_failed(t))
						return t;
				}
				continue;
			}
			if (t == JSON_ARR_BEGIN) {
				struct pos at = here(tb);

				diag_warn(tb->d, &at, "tables whose rows come before their columns, skipped",
					  "%s rows come before their columns; skipped",
					  steps ? "step" : "kernel");
			}
		} else {
			if (json_failed(t = json_skip_value(j)))
				return t;
			continue;
		}
		if (json_failed(t = json_skip(&tb->j, t)))
			return t;
	}
	return t;
}

/* ---- documents --------------------------------------------------------- */

static bool is_metrics_key(const struct json *j)
{
	return j->len > 8 && !memcmp(j->s + j->len - 8, "_metrics", 8);
}

/* One top-level document, after its '{'. */
static enum json_tok read_doc(struct tb *tb)
{
	struct json *j = &tb->j;
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		int pie = -1;

		for (int c = 0; c < NR_PIE_CATS; c++)
			if (json_is(j, pie_keys[c]))
				pie = c;
		if (json_is(j, "steps")) {
			begin_doc(tb, DOC_OVERVIEW);
			if (json_expect_open(j, JSON_OBJ_BEGIN, &t)) {
				if (json_failed(t = read_table(tb, TABLE_STEPS)))
					return t;
				continue;
			}
		} else if (json_is(j, "performance")) {
			begin_doc(tb, DOC_OVERVIEW);
			if (json_expect_open(j, JSON_ARR_BEGIN, &t)) {
				while ((t = json_next(j)) != JSON_ARR_END) {
					if (json_failed(t))
						return t;
					t = t == JSON_OBJ_BEGIN ? read_perf_item(tb, 0) : json_skip(&tb->j, t);
					if (json_failed(t))
						return t;
				}
				continue;
			}
		} else if (json_is(j, "recommendations")) {
			begin_doc(tb, DOC_OVERVIEW);
			if ((t = json_next(j)) == JSON_STRING)
				add_recommendations(tb, j->s, j->len);
		} else if (json_is(j, "environments")) {
			begin_doc(tb, DOC_OVERVIEW);
			if (json_expect_open(j, JSON_ARR_BEGIN, &t)) {
				if (json_failed(t = read_title_values(tb, "environment")))
					return t;
				continue;
			}
		} else if (is_metrics_key(j)) {
			char key[64];

			snprintf(key, sizeof(key), "%.*s", (int)(j->len < 63 ? j->len : 63), j->s);
			begin_doc(tb, DOC_OVERVIEW);
			if (json_expect_open(j, JSON_OBJ_BEGIN, &t)) {
				if (json_failed(t = read_metrics(tb, key)))
					return t;
				continue;
			}
		} else if (pie >= 0) {
			begin_doc(tb, pie == PIE_KERNEL_TOTAL ? DOC_KERNEL_PIE : DOC_OP_PIE);
			t = json_next(j);
			if (json_failed(t = read_pie(tb, (enum pie_cat)pie, t)))
				return t;
			continue;
		} else if (json_is(j, "data")) {
			t = json_next(j);
			if (t == JSON_ARR_BEGIN) {
				begin_doc(tb, DOC_OP_TABLE);
				if (json_failed(t = read_op_table(tb)))
					return t;
				continue;
			}
			if (t == JSON_OBJ_BEGIN) {
				begin_doc(tb, DOC_KERNEL_TABLE);
				if (json_failed(t = read_table(tb, TABLE_KERNELS)))
					return t;
				continue;
			}
		} else {
			/* "metadata" (sort order, tooltips) and what we do not know */
			if (json_failed(t = json_skip_value(j)))
				return t;
			continue;
		}
		if (json_failed(t = json_skip(&tb->j, t)))
			return t;
	}
	return t;
}

static void report_quirks(struct tb *tb)
{
	struct pos none = { 0, 0 };

	if (tb->j.nr_bare_words)
		diag_warn(tb->d, &none, "bare NaN or Infinity values (tolerated)",
			  "%llu unquoted NaN, Infinity or N/A value(s); read as missing",
			  (unsigned long long)tb->j.nr_bare_words);
	if (tb->j.nr_raw_control)
		diag_warn(tb->d, &none, "raw control characters in strings (tolerated)",
			  "%llu raw control character(s) inside strings; read as they are",
			  (unsigned long long)tb->j.nr_raw_control);
	if (tb->j.nr_empty_trailing)
		diag_warn(tb->d, &none, "trailing commas (tolerated)",
			  "%llu trailing comma(s) before a closing bracket",
			  (unsigned long long)tb->j.nr_empty_trailing);
}

/* Whether any run of P holds rows, steps or Info lines. */
static bool has_content(const struct profile *p)
{
	for (; p; p = p->next_run)
		if (node_first_child(p->root) || p->nr_steps || p->meta)
			return true;
	return false;
}

static int tb_json_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct tb tb = { .p = p, .d = d };
	struct profile *first_warnings = d->profile;
	enum json_tok t;
	int rc = 0;

	tb.run = p;
	while (tb.run->next_run)
		tb.run = tb.run->next_run;
	tb.run_kinds = kinds_in(tb.run);
	d->profile = tb.run;
	json_init(&tb.j, in, d);
	for (;;) {
		t = json_next(&tb.j);
		if (json_failed(t))
			break;
		if (t != JSON_OBJ_BEGIN) {
			struct pos at = here(&tb);

			diag_error(d, &at, "expected a JSON object (one torch-tb-profiler document per line)");
			t = JSON_ERROR;
			break;
		}
		tb.doc_line = here(&tb).line;
		tb.doc_kind = 0;
		t = read_doc(&tb);
		if (t != JSON_OBJ_END)
			break;
		if (!tb.doc_kind) {
			struct pos at = { tb.doc_line, 1 };

			diag_warn(d, &at, "documents of an unknown kind, skipped",
				  "document is not an overview, operator or kernel output; skipped");
		}
		tb.nr_docs++;
	}
	if (t == JSON_EOF && tb.j.truncated) {
		struct pos at = here(&tb);
		char why[256];

		diag_error(d, &at, "unexpected end of file inside a document%s; kept the %zu "
			   "documents before it and the complete rows of this one",
			   json_cut_why(&tb.j, why, sizeof(why)), tb.nr_docs);
	} else if (t == JSON_EOF && !tb.nr_docs && !d->nr_errors) {
		diag_error(d, NULL, "no JSON document in the file");
	}
	if (!tb.nr_docs && !has_content(p))
		rc = -1;	/* nothing usable was read */
	if (rc == 0) {
		close_run(&tb);
		report_quirks(&tb);
	}
	d->profile = first_warnings;
	free(tb.pie);
	free(tb.buf);
	json_release(&tb.j);
	return rc;
}

/*
 * A JSON object that starts like one of the plugin's documents, or has
 * their marks: the operator table's tensor-core ratios, the kernel table's
 * column names, the pies' titles, the overview's tooltip columns.
 */
static int tb_json_probe(const char *head, size_t len)
{
	static const char *const marks[] = {
		"\"tc_self_ratio\"", "\"host_self_duration\"", "\"device_self_duration\"", "\"Tensor Cores Used\"",
		"\"Total Duration (us)\"", "\"Device Self Time (us)\"", "\"Host Self Time (us)\"",
		"\"Host Total Time (us)\"",
	};
	size_t i = 0;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= len || head[i] != '{')
		return 0;
	if (text_find(head + i, len - i, "\"traceEvents\""))
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(marks); k++)
		if (text_find(head + i, len - i, marks[k]))
			return 85;
	/* The overview: step columns with tooltip columns between them. */
	if (text_find(head + i, len - i, "\"steps\"") && text_find(head + i, len - i, "\"tooltip\"") &&
	    text_find(head + i, len - i, "\"columns\""))
		return 85;
	/* The kernel pie alone: {"total": {"columns": [... "name": "value"}] */
	if (text_starts(head + i, len - i, "{\"total\"") && text_find(head + i, len - i, "\"value\""))
		return 70;
	return 0;
}

const struct parser tb_json_parser = {
	.counts_per_node = true,
	.name = "tb-json",
	.family = "torch-tb-profiler",
	.summary = "torch-tb-profiler REST outputs: overview, operator and kernel tables (one JSON per line)",
	.probe = tb_json_probe,
	.parse = tb_json_parse,
};
