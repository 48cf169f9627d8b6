// SPDX-License-Identifier: MIT
/*
 * Several whole profiles (load.h): which files make one profile, the runs
 * of a log dir, loading the profiles in parallel with profile_load(), and
 * how they relate (model/profset.h).
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../model/escape.h"
#include "../model/profset.h"
#include "../model/strbuf.h"
#include "load.h"
#include "parser.h"
#include "text.h"

/* A message of the loader's own, escaped, on a line. */
static void say(const struct load_options *opt, const char *f, ...) PRINTF_LIKE(2, 3);

static void say(const struct load_options *opt, const char *f, ...)
{
	va_list ap;

	if (!opt->err)
		return;
	va_start(ap, f);
	escape_vfprintf(opt->err, f, ap);
	va_end(ap);
	fputc('\n', opt->err);
}

/* The parser that would read PATH, without a message (the load says what
 * is wrong with a file no parser claims); NULL when none would, and for
 * what cannot be read twice -- standard input, a pipe, a FIFO: reading
 * its head here would leave the load an empty (or, for a FIFO with no
 * writer left, a never-ending) file.  Such a file is a profile of its
 * own, and its load finds the parser from the same bytes. */
static const struct parser *probe_file(const char *path, const struct load_options *opt)
{
	const struct parser *parser = NULL;
	struct input in;
	struct diag d;
	const char *head;
	struct stat st;
	size_t len;

	if (opt->format)
		return parser_find(opt->format);
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	diag_init(&d, path, NULL, NULL);
	if (input_open(&in, path, &d))
		goto out;
	len = input_head(&in, &head);
	if (len && !(parser = parser_detect(head, len)) && !text_is_binary(head, len))
		parser = parser_detect_past_head(&in);
	input_close(&in);
out:
	diag_finish(&d);
	return parser;
}

struct file_list {
	char **v;
	size_t nr, alloc;
};

static void files_add(struct file_list *f, char *path)
{
	GROW(f->v, f->alloc, f->nr + 1);
	f->v[f->nr++] = path;
}

static void files_release(struct file_list *f)
{
	for (size_t i = 0; i < f->nr; i++)
		free(f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file a log dir holds for us: a trace (the plugin's WORKER_PATTERN) or
 * a summary. */
static bool is_worker_file(const char *name)
{
	const char *span;
	size_t len, span_len, n = strlen(name);

	return profset_worker_of(name, &len, &span, &span_len) ||
	       (n > 8 && !strcmp(name + n - 8, ".summary"));
}

/* A run of a log dir, as torch-tb-profiler's home lists them: a
 * directory that holds worker files, named by its path under the log dir
 * (the log dir's own name when the files are right in it). */
struct run_dir {
	char *name;
	char *dir;
	struct file_list files;
};

struct run_list {
	struct run_dir *v;
	size_t nr, alloc;
};

static void runs_release(struct run_list *rl)
{
	for (size_t i = 0; i < rl->nr; i++) {
		free(rl->v[i].name);
		free(rl->v[i].dir);
		files_release(&rl->v[i].files);
	}
	free(rl->v);
	memset(rl, 0, sizeof(*rl));
}

static char *run_name(const char *top, const char *dir)
{
	size_t n = strlen(top);
	const char *slash;

	while (n > 1 && top[n - 1] == '/')
		n--;
	if (strlen(dir) > n && !strncmp(dir, top, n))
		return xstrdup(dir + n + (dir[n] == '/'));
	for (slash = top + n; slash > top && slash[-1] != '/'; slash--)
		;
	return xstrndup(slash, (size_t)(top + n - slash));
}

/*
 * The runs under TOP into OUT: DIR's worker files, sorted by name, are a
 * run; a directory without any holds the runs of its subdirectories (at
 * any depth), in the order of their names, as the plugin walks a log dir.
 */
static int walk_runs(const char *top, const char *dir, struct run_list *out, char *err, size_t size,
		     int depth)
{
	struct file_list files = { 0 }, dirs = { 0 };
	struct dirent *e;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d) {
		snprintf(err, size, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		struct stat st;
		char *path;
		size_t n;

		if (e->d_name[0] == '.')
			continue;
		n = strlen(dir) + strlen(e->d_name) + 2;
		path = xmalloc(n);
		snprintf(path, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) && depth < 8)
			files_add(&dirs, path);
		else if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && is_worker_file(e->d_name))
			files_add(&files, path);
		else
			free(path);
	}
	closedir(d);
	if (files.nr) {
		struct run_dir *r;

		qsort(files.v, files.nr, sizeof(*files.v), cmp_str);
		GROW(out->v, out->alloc, out->nr + 1);
		r = &out->v[out->nr++];
		r->name = run_name(top, dir);
		r->dir = xstrdup(dir);
		r->files = files;
		files_release(&dirs);
		return 0;
	}
	if (dirs.nr)
		qsort(dirs.v, dirs.nr, sizeof(*dirs.v), cmp_str);
	for (size_t i = 0; i < dirs.nr && !rc; i++)
		rc = walk_runs(top, dirs.v[i], out, err, size, depth + 1);
	files_release(&dirs);
	return rc;
}

int profset_list_runs(const char *dir, struct profset_run **runs, size_t *nr, char *err,
		      size_t size)
{
	struct run_list rl = { 0 };
	struct stat st;

	*runs = NULL;
	*nr = 0;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, size, "%s: not a directory (runs are the directories of a log dir)", dir);
		return -1;
	}
	if (walk_runs(dir, dir, &rl, err, size, 0)) {
		runs_release(&rl);
		return -1;
	}
	*runs = xcalloc(rl.nr + 1, sizeof(**runs));
	for (size_t i = 0; i < rl.nr; i++) {
		(*runs)[i].name = rl.v[i].name;
		(*runs)[i].dir = rl.v[i].dir;
		(*runs)[i].nr_files = rl.v[i].files.nr;
		rl.v[i].name = rl.v[i].dir = NULL;
	}
	*nr = rl.nr;
	runs_release(&rl);
	return 0;
}

/* One profile to load: its files (indices into the file list). */
struct group {
	size_t *files;
	size_t nr, alloc;
	const struct parser *parser;	/* of its first file */
	struct profile *prof;
	int rc;
	char *msgs;			/* what its load said, printed in order */
	size_t msgs_len;
	_Atomic uint64_t done, total, plain;	/* its progress */
};

struct loader {
	struct file_list *files;
	struct group *groups;
	size_t nr_groups;
	const struct load_options *opt;
	_Atomic size_t next;		/* the next group a thread takes */
	pthread_mutex_t progress_lock;
};

struct group_progress {
	struct loader *l;
	struct group *g;
};

/* A thread's progress: every group's, summed, shown by one thread at a
 * time (the others' numbers are in the next call's sum). */
static void group_progress(void *ctx, const struct load_progress *lp)
{
	struct group_progress *gp = ctx;
	struct load_progress sum = { 0, 0, 0 };

	gp->g->done = lp->done;
	gp->g->total = lp->total;
	gp->g->plain = lp->plain;
	if (pthread_mutex_trylock(&gp->l->progress_lock))
		return;
	for (size_t i = 0; i < gp->l->nr_groups; i++) {
		sum.done += gp->l->groups[i].done;
		sum.total += gp->l->groups[i].total;
		sum.plain += gp->l->groups[i].plain;
	}
	gp->l->opt->progress(gp->l->opt->progress_ctx, &sum);
	pthread_mutex_unlock(&gp->l->progress_lock);
}

static void load_group(struct loader *l, struct group *g)
{
	struct load_options o = *l->opt;
	struct group_progress gp = { l, g };
	const char **paths = xmalloc(g->nr * sizeof(*paths));
	struct strbuf label = STRBUF_INIT;
	FILE *err = NULL;

	for (size_t i = 0; i < g->nr; i++) {
		paths[i] = l->files->v[g->files[i]];
		if (i)
			strbuf_addstr(&label, " + ");
		strbuf_addstr(&label, paths[i]);
	}
	if (l->opt->err)
		err = open_memstream(&g->msgs, &g->msgs_len);
	o.err = err;
	if (l->opt->progress) {
		o.progress = group_progress;
		o.progress_ctx = &gp;
	}
	g->prof = xmalloc(sizeof(*g->prof));
	profile_init(g->prof, label.s);
	g->rc = profile_load(g->prof, paths, g->nr, &o);
	if (err)
		fclose(err);
	strbuf_release(&label);
	free(paths);
}

static void *load_thread(void *arg)
{
	struct loader *l = arg;
	size_t i;

	while ((i = atomic_fetch_add(&l->next, 1)) < l->nr_groups)
		load_group(l, &l->groups[i]);
	return NULL;
}

/* Load every group, JOBS at a time. */
static void load_groups(struct loader *l)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t jobs = l->opt->jobs ? l->opt->jobs : cores > 0 ? (size_t)cores : 1, started = 0;
	pthread_t *threads;

	if (jobs > l->nr_groups)
		jobs = l->nr_groups;
	pthread_mutex_init(&l->progress_lock, NULL);
	if (jobs <= 1) {
		load_thread(l);
		pthread_mutex_destroy(&l->progress_lock);
		return;
	}
	threads = xmalloc(jobs * sizeof(*threads));
	for (size_t t = 0; t < jobs; t++)
		if (!pthread_create(&threads[t], NULL, load_thread, l))
			started++;
		else
			break;
	/* No thread to be had: this one loads what is left. */
	load_thread(l);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	free(threads);
	pthread_mutex_destroy(&l->progress_lock);
}

/* The suffix of P's that ends the base name of PATH (trex's
 * <engine><suffix>), its index, or -1; *STEM gets the engine's length. */
static int engine_suffix(const struct parser *p, const char *path, const char **base,
			 size_t *stem)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	*base = slash ? slash + 1 : path;
	n = strlen(*base);
	for (int i = 0; p && p->engine_suffixes && p->engine_suffixes[i]; i++) {
		size_t k = strlen(p->engine_suffixes[i]);

		if (n > k && !strcmp(*base + n - k, p->engine_suffixes[i])) {
			*stem = n - k;
			return i;
		}
	}
	return -1;
}

/* Whether files A and B of one family can be of one engine: not two of
 * one kind (two graphs are two engines, or two builds of one: either
 * way a diff, not a sum), not two whose names say different engines. */
static bool same_engine(const struct file_list *files, const struct parser **found, size_t a,
			size_t b)
{
	const char *base_a, *base_b;
	size_t stem_a = 0, stem_b = 0;
	int kind_a, kind_b;

	if (!found[a]->engine_suffixes || !found[b]->engine_suffixes)
		return true;
	kind_a = engine_suffix(found[a], files->v[a], &base_a, &stem_a);
	kind_b = engine_suffix(found[b], files->v[b], &base_b, &stem_b);
	if (found[a] == found[b] && kind_a == kind_b)
		return false;
	return kind_a < 0 || kind_b < 0 ||
	       (stem_a == stem_b && !memcmp(base_a, base_b, stem_a));
}

/* Whether file I completes the profile of group G. */
static bool completes(const struct group *g, const struct file_list *files,
		      const struct parser **found, size_t i)
{
	if (!g->parser || !g->parser->family || strcmp(g->parser->family, found[i]->family))
		return false;
	for (size_t k = 0; k < g->nr; k++)
		if (!same_engine(files, found, g->files[k], i))
			return false;
	return true;
}

/* Which files load together: all of them with --merge, the files of one
 * family (of one engine) as one profile, every other file alone. */
static size_t make_groups(const struct file_list *files, const struct parser **found,
			  const struct load_options *opt, struct group **out)
{
	struct group *g = xcalloc(files->nr ? files->nr : 1, sizeof(*g));
	size_t n = 0;

	for (size_t i = 0; i < files->nr; i++) {
		const struct parser *p = found[i];
		size_t k = n;

		if (opt->merge && n)
			k = 0;
		else if (p && p->family)
			for (k = 0; k < n; k++)
				if (completes(&g[k], files, found, i))
					break;
		if (k == n)
			g[n++].parser = p;
		GROW(g[k].files, g[k].alloc, g[k].nr + 1);
		g[k].files[g[k].nr++] = i;
	}
	*out = g;
	return n;
}

/* Load FILES (released here) into SET and relate them; WORST is 1 when
 * an error was said already.  profset_load()'s codes. */
static int load_set(struct profset *set, struct file_list *files, const struct profset_hints *hints,
		    const struct load_options *opt, int worst)
{
	const struct parser **found;
	struct loader l = { .files = files, .opt = opt };
	char err[1024];

	memset(set, 0, sizeof(*set));
	if (!files->nr) {
		files_release(files);
		return -1;
	}
	found = xcalloc(files->nr, sizeof(*found));
	for (size_t i = 0; i < files->nr; i++)
		found[i] = probe_file(files->v[i], opt);
	l.nr_groups = make_groups(files, found, opt, &l.groups);
	load_groups(&l);

	set->members = xcalloc(l.nr_groups, sizeof(*set->members));
	for (size_t i = 0; i < l.nr_groups; i++) {
		struct group *g = &l.groups[i];

		if (g->msgs_len && opt->err)
			fwrite(g->msgs, 1, g->msgs_len, opt->err);
		free(g->msgs);
		if (g->rc != 0)
			worst = 1;
		if (g->rc < 0) {
			profile_release(g->prof);
			free(g->prof);
		} else {
			struct profset_member *m = &set->members[set->nr++];

			m->prof = g->prof;
			m->files = xstrdup(g->prof->path);
			m->label = xstrdup(g->prof->path);
		}
		free(g->files);
	}
	free(l.groups);
	free(found);
	files_release(files);
	if (!set->nr) {
		profset_release(set);
		return -1;
	}
	if (profset_relate(set, hints, err, sizeof(err))) {
		/* With a file left out, what the rest are to each other is
		 * not what was given (a --diff of one): the file's error,
		 * said already, is the cause, and bad input is exit 2. */
		if (!worst)
			say(opt, "proftui: %s", err);
		profset_release(set);
		return worst ? -1 : -2;
	}
	if (set->nr_shared_ranks) {
		char *shared = profset_shared_text(set);

		say(opt, "proftui: warning: %s: each worker is shown apart, under its name (which "
		    "--rank takes)", shared);
		free(shared);
	}
	if (set->nr_missing)
		say(opt, "proftui: warning: %s: Transfer, Sync and the straggler marks are "
		    "those of the %zu %s given", profset_missing_text(set, err, sizeof(err)),
		    set->nr, set->nr_shared_ranks ? "workers" : "ranks");
	return worst;
}

static void say_runs(const struct load_options *opt, const char *dir, const struct run_list *rl,
		     const char *what)
{
	struct strbuf b = STRBUF_INIT;

	for (size_t i = 0; i < rl->nr; i++) {
		strbuf_addstr(&b, i ? ", " : "");
		strbuf_addstr(&b, rl->v[i].name);
	}
	say(opt, "proftui: %s holds %zu run%s (%s): %s", dir, rl->nr, rl->nr == 1 ? "" : "s", b.s,
	    what);
	strbuf_release(&b);
}

/*
 * A log dir of several runs: the one --run NAME names, or every run, each
 * loaded as a set of its own, then chained (model/profset.h): the runs
 * of the set, which --run N and { } pick.  RL is released here.
 */
static int load_runs(struct profset *set, const char *dir, struct run_list *rl,
		     const struct profset_hints *hints, const struct load_options *opt)
{
	struct profset *sets;
	const char **names;
	char err[1024];
	int worst = 0, rc = 0;
	size_t nr = 0;

	for (size_t i = 0; opt->run_name && i < rl->nr; i++) {
		if (strcmp(rl->v[i].name, opt->run_name))
			continue;
		rc = load_set(set, &rl->v[i].files, hints, opt, 0);
		if (rc >= 0)
			profset_name_runs(set, rl->v[i].name);
		runs_release(rl);
		return rc;
	}
	if (opt->run_name) {
		char *what = xstrfmt("no run '%s' among them", opt->run_name);

		say_runs(opt, dir, rl, what);
		free(what);
		runs_release(rl);
		return -2;
	}
	sets = xcalloc(rl->nr, sizeof(*sets));
	names = xcalloc(rl->nr, sizeof(*names));
	for (; nr < rl->nr && rc >= 0; nr++) {
		rc = load_set(&sets[nr], &rl->v[nr].files, hints, opt, 0);
		names[nr] = rl->v[nr].name;
		if (rc > worst)
			worst = rc;
	}
	if (rc >= 0 && profset_chain_runs(set, sets, names, nr, err, sizeof(err))) {
		say(opt, "proftui: %s: %s; open one with --run NAME (see --print runs)", dir, err);
		rc = -2;
	} else if (rc >= 0) {
		/* Titles name the log dir; the run shown is said beside. */
		free(set->label);
		set->label = xstrdup(dir);
	}
	for (size_t i = 0; rc < 0 && i < nr; i++)
		profset_release(&sets[i]);
	free(sets);
	free(names);
	runs_release(rl);
	return rc < 0 ? rc : worst;
}

int profset_load(struct profset *set, const char *const *paths, size_t nr_paths,
		 const struct load_options *opt)
{
	struct file_list files = { 0 };
	struct profset_hints hints = { .want_diff = opt->diff, .want_ranks = opt->ranks };
	char err[1024];
	int worst = 0;

	memset(set, 0, sizeof(*set));
	for (size_t i = 0; i < nr_paths; i++) {
		struct run_list rl = { 0 };
		struct stat st;

		if (stat(paths[i], &st) || !S_ISDIR(st.st_mode)) {
			files_add(&files, xstrdup(paths[i]));
			continue;
		}
		hints.from_dir = true;
		if (walk_runs(paths[i], paths[i], &rl, err, sizeof(err), 0)) {
			say(opt, "proftui: %s", err);
			runs_release(&rl);
			files_release(&files);
			return -1;
		}
		/* --run NAME names a run even of a log dir of one. */
		if ((rl.nr > 1 || (rl.nr && opt->run_name)) && nr_paths == 1)
			return load_runs(set, paths[i], &rl, &hints, opt);
		if (rl.nr > 1) {
			say_runs(opt, paths[i], &rl, "open it alone, to choose among them");
			runs_release(&rl);
			files_release(&files);
			return -2;
		}
		if (!rl.nr) {
			say(opt, "%s: error: a directory without traces (proftui reads a "
			    "directory as a log dir of *.pt.trace.json[.gz] or *.summary "
			    "files)", paths[i]);
			worst = 1;
		}
		for (size_t k = 0; rl.nr && k < rl.v[0].files.nr; k++)
			files_add(&files, xstrdup(rl.v[0].files.v[k]));
		runs_release(&rl);
	}
	return load_set(set, &files, &hints, opt, worst);
}
