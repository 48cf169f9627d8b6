// SPDX-License-Identifier: MIT
/*
 * trex's device properties, <engine>.metadata.json (utils/device_info.py):
 * a JSON array of one object per GPU of the machine, as pycuda reports
 * them -- "Name", "ComputeCapability" ([8, 6]), "TotalMemory" (bytes),
 * "CUDA_VERSION" ([11, 6, 0]) and every CUDA device attribute under its
 * own name ("MULTIPROCESSOR_COUNT": 28, ...).
 *
 * Each GPU becomes a device of the model (name, memory, compute
 * capability, SMs...: the Overview's and Info's line for it) and Info
 * lines: its name, compute capability and total memory first, then every
 * other member as written, in the file's order, in section "device 0",
 * "device 1"... by its place in the file (trex lists every GPU of the
 * machine, not only the one the engine ran on); Info folds them under the
 * device's line.  The file is known by its content: an array whose first
 * object has those three members.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/strbuf.h"
#include "../../model/util.h"
#include "../num.h"
#include "../parser.h"
#include "trtexec.h"

#define KIND_NOT_DEVICE "elements of the device list that are not devices (skipped)"

enum value_format {
	V_AS_WRITTEN,
	V_DOTTED,		/* [8, 6] is 8.6, [11, 6, 0] is 11.6.0 */
	V_BYTES,		/* 12629049344 -> "12629049344 bytes (11.8 GiB)" */
};

/* The members shown first, in this order, under names of ours; the
 * others keep theirs.  An array elsewhere is joined with ", ". */
static const struct {
	const char *json, *key;
	enum value_format format;
} device_keys[] = {
	{ "Name", "name", V_AS_WRITTEN },
	{ "ComputeCapability", "compute capability", V_DOTTED },
	{ "TotalMemory", "total memory", V_BYTES },
	{ "CUDA_VERSION", "CUDA_VERSION", V_DOTTED },
};

/* The first NR_SHOWN_FIRST of device_keys are shown first, and one of
 * them tells a device object. */
#define NR_SHOWN_FIRST 3
#define ALL_FOUND ((1u << NR_SHOWN_FIRST) - 1)

/* One Info line of one device, held until the device is read whole. */
struct device_line {
	size_t device;			/* its place in the array */
	size_t rank;			/* device_keys index, or NR_SHOWN_FIRST */
	char *key, *value;		/* heap */
};

struct devices {
	struct profile *p;
	struct diag *d;
	struct json j;
	struct device_line *v;
	size_t nr, alloc;
	size_t nr_kept;			/* devices read whole */
};

static size_t key_index(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(device_keys); i++)
		if (!strcmp(key, device_keys[i].json))
			return i;
	return ARRAY_SIZE(device_keys);
}

/* An array of scalars joined into OUT: numbers with '.' when DOTTED, else
 * ", "; nested containers are left out. */
static enum json_tok read_array(struct json *j, bool dotted, struct strbuf *out)
{
	enum json_tok t;
	size_t nr = 0;

	while ((t = json_next(j)) != JSON_ARR_END) {
		if (json_failed(t))
			return t;
		if (t == JSON_OBJ_BEGIN || t == JSON_ARR_BEGIN) {
			t = json_skip(j, t);
			if (json_failed(t))
				return t;
			continue;
		}
		if (nr++)
			strbuf_addstr(out, dotted ? "." : ", ");
		if (t == JSON_TRUE || t == JSON_FALSE)
			strbuf_addstr(out, t == JSON_TRUE ? "true" : "false");
		else if (t == JSON_NULL)
			strbuf_addstr(out, "null");
		else
			strbuf_add(out, j->s, j->len);
	}
	return t;
}

/* "12629049344 bytes (11.8 GiB)" for a whole number of bytes; else the
 * value as written, which the model's device does not take (a size
 * beyond BOUND_BYTES is said by the caller).  False for such a size. */
static bool add_bytes(struct strbuf *out, const char *s, size_t n)
{
	int64_t bytes;
	char buf[96];

	if (!num_int(s, n, &bytes) || bytes < 0 || bytes > BOUND_BYTES) {
		strbuf_add(out, s, n);
		return !num_int(s, n, &bytes) || bytes < 0;
	}
	snprintf(buf, sizeof(buf), "%lld bytes (%.1f GiB)", (long long)bytes,
		 (double)bytes / (1024.0 * 1024 * 1024));
	strbuf_addstr(out, buf);
	return true;
}

/* The value of the member whose name was just read, as text into OUT
 * (left empty for null and objects). */
static enum json_tok read_value(struct devices *dv, enum value_format format, struct strbuf *out)
{
	struct json *j = &dv->j;
	enum json_tok t = json_next(j);
	struct pos at = json_pos(j);

	switch (t) {
	case JSON_STRING:
	case JSON_BARE:
		strbuf_add(out, j->s, j->len);
		break;
	case JSON_NUMBER:
		if (format == V_BYTES && !add_bytes(out, j->s, j->len))
			diag_warn(dv->d, &at, "device sizes beyond bounds (kept as text)",
				  "size %.*s is beyond proftui's bound of 2^50 bytes; kept as written",
				  (int)(j->len < 40 ? j->len : 40), j->s);
		else if (format != V_BYTES)
			strbuf_add(out, j->s, j->len);
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		strbuf_addstr(out, t == JSON_TRUE ? "true" : "false");
		break;
	case JSON_ARR_BEGIN:
		return read_array(j, format == V_DOTTED, out);
	default:
		break;
	}
	return json_skip(j, t);
}

static void add_line(struct devices *dv, size_t device, size_t rank, const char *key,
		     struct strbuf *value)
{
	struct device_line *l;

	GROW(dv->v, dv->alloc, dv->nr + 1);
	l = &dv->v[dv->nr++];
	l->device = device;
	l->rank = rank;
	l->key = xstrdup(key);
	l->value = value->s;		/* the line takes the buffer */
	*value = (struct strbuf)STRBUF_INIT;
}

/* Drop the lines from FIRST on: a device that was not read whole. */
static void drop_lines(struct devices *dv, size_t first)
{
	while (dv->nr > first) {
		dv->nr--;
		free(dv->v[dv->nr].key);
		free(dv->v[dv->nr].value);
	}
}

/* One element of the array, an object, read whole. */
static enum json_tok read_device(struct devices *dv, size_t device, struct pos at)
{
	struct json *j = &dv->j;
	size_t first = dv->nr;
	bool is_device = false;
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		char key[160];
		size_t i;
		struct strbuf v = STRBUF_INIT;

		snprintf(key, sizeof(key), "%.*s", (int)(j->len < 150 ? j->len : 150), j->s);
		i = key_index(key);
		t = read_value(dv, i < ARRAY_SIZE(device_keys) ? device_keys[i].format : V_AS_WRITTEN,
			       &v);
		if (!json_failed(t) && v.len) {
			is_device |= i < NR_SHOWN_FIRST;
			add_line(dv, device, i < NR_SHOWN_FIRST ? i : NR_SHOWN_FIRST,
				 i < ARRAY_SIZE(device_keys) ? device_keys[i].key : key, &v);
		}
		strbuf_release(&v);
		if (json_failed(t))
			break;
	}
	if (t == JSON_OBJ_END && !is_device)
		diag_warn(dv->d, &at, KIND_NOT_DEVICE,
			  "element of the device list has no 'Name', 'ComputeCapability' "
			  "or 'TotalMemory'; skipped");
	if (t != JSON_OBJ_END || !is_device)
		drop_lines(dv, first);
	else
		dv->nr_kept++;
	return t;
}

/* The elements of the array, up to its end. */
static enum json_tok read_devices(struct devices *dv)
{
	struct json *j = &dv->j;
	enum json_tok t;
	size_t device = 0;

	while ((t = json_next(j)) != JSON_ARR_END) {
		struct pos at = json_pos(j);

		if (t == JSON_OBJ_BEGIN) {
			t = read_device(dv, device, at);
			if (t != JSON_OBJ_END)
				return t;
		} else {
			if (json_failed(t))
				return t;
			diag_warn(dv->d, &at, KIND_NOT_DEVICE,
				  "element of the device list is not an object; skipped");
			t = json_skip(j, t);
			if (json_failed(t))
				return t;
		}
		device++;
	}
	return t;
}

/* The whole number S starts with when what follows it is END ("28"
 * with END "", "12629049344 bytes (11.8 GiB)" with " bytes"), else -1;
 * also -1 when it does not fit in an int32_t where NARROW.  A value in
 * another form ("80 GB", "28.5") is the file's own, kept in Info only. */
static int64_t whole_number(const char *s, const char *end, bool narrow)
{
	size_t n = strspn(s, "0123456789");
	int64_t v;

	if (!n || strncmp(s + n, end, strlen(end)) || (!*end && s[n]) || !num_int(s, n, &v) ||
	    (narrow && v > INT32_MAX) || v > BOUND_BYTES)
		return -1;
	return v;
}

/* "8.6" into *MAJOR, *MINOR; false for any other form. */
static bool dotted_pair(const char *s, int32_t *major, int32_t *minor)
{
	size_t n = strspn(s, "0123456789");
	int64_t a = -1, b;

	if (s[n] != '.')
		return false;
	b = whole_number(s + n + 1, "", true);
	if (!n || !num_int(s, n, &a) || a > INT32_MAX || b < 0)
		return false;
	*major = (int32_t)a;
	*minor = (int32_t)b;
	return true;
}

/* The model's device of the lines V[START..END) (one GPU): its name,
 * memory, compute capability and the attributes the model keeps, for
 * the panes that describe a device in a line (Overview, Info) rather
 * than by its hundred raw attributes. */
static void add_device(struct devices *dv, size_t start, size_t end)
{
	struct device_info *d = profile_add_device(dv->p, (int32_t)dv->v[start].device);

	for (size_t i = start; i < end; i++) {
		const char *k = dv->v[i].key, *v = dv->v[i].value;

		if (!strcmp(k, "name"))
			d->name = profile_intern(dv->p, v, strlen(v));
		else if (!strcmp(k, "total memory"))
			d->total_memory_bytes = whole_number(v, " bytes", false);
		else if (!strcmp(k, "compute capability"))
			dotted_pair(v, &d->cc_major, &d->cc_minor);
		else if (!strcmp(k, "MULTIPROCESSOR_COUNT"))
			d->num_sms = (int32_t)whole_number(v, "", true);
		else if (!strcmp(k, "MAX_THREADS_PER_MULTIPROCESSOR"))
			d->max_threads_per_sm = (int32_t)whole_number(v, "", true);
		else if (!strcmp(k, "MAX_THREADS_PER_BLOCK"))
			d->max_threads_per_block = (int32_t)whole_number(v, "", true);
		else if (!strcmp(k, "MAX_REGISTERS_PER_MULTIPROCESSOR"))
			d->regs_per_sm = (int32_t)whole_number(v, "", true);
		else if (!strcmp(k, "WARP_SIZE"))
			d->warp_size = (int32_t)whole_number(v, "", true);
		else if (!strcmp(k, "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR"))
			d->shared_mem_per_sm_bytes = whole_number(v, "", false);
	}
}

/* Each device, in the model and as Info lines: those shown first, in
 * device_keys' order, then the others in the file's, under "device N",
 * N its place in the file (Info folds them under the device's line). */
static void emit_lines(struct devices *dv)
{
	struct meta_set ms;

	meta_set_init(&ms, dv->p);
	for (size_t start = 0, end; start < dv->nr; start = end) {
		char section[32];

		for (end = start; end < dv->nr && dv->v[end].device == dv->v[start].device; end++)
			;
		add_device(dv, start, end);
		snprintf(section, sizeof(section), "device %zu", dv->v[start].device);
		for (size_t rank = 0; rank <= NR_SHOWN_FIRST; rank++)
			for (size_t i = start; i < end; i++)
				if (dv->v[i].rank == rank)
					meta_set_put(&ms, section, dv->v[i].key, dv->v[i].value);
	}
	meta_set_release(&ms);
}

static int device_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct devices dv = { .p = p, .d = d };
	enum json_tok t;
	int rc = 0;

	json_init(&dv.j, in, d);
	if (json_expect_open(&dv.j, JSON_ARR_BEGIN, &t))
		t = read_devices(&dv);
	if (t == JSON_ARR_END) {
		json_check_end(&dv.j, "JSON document");
	} else if (json_failed(t)) {
		rc = trt_report_end(&dv.j, t, "device list", dv.nr_kept);
	} else {
		struct pos at = json_pos(&dv.j);

		diag_error(d, &at, "expected a JSON array of trex device properties");
		rc = -1;
	}
	if (rc == 0)
		emit_lines(&dv);
	drop_lines(&dv, 0);
	free(dv.v);
	json_release(&dv.j);
	return rc;
}

/*
 * Whether the first object of the array HEAD opens holds the members
 * Name, ComputeCapability and TotalMemory (at its own level, not inside
 * a value), as far as HEAD goes.
 */
static int device_probe(const char *head, size_t len)
{
	unsigned found = 0;
	int depth = 0;

	if (!trt_opens_with(head, len, '[', '{', ""))
		return 0;
	for (size_t i = trt_skip_ws(head, len, 0) + 1; i < len && found != ALL_FOUND; i++) {
		size_t start, end;

		if (head[i] == '{' || head[i] == '[') {
			depth++;
		} else if (head[i] == '}' || head[i] == ']') {
			if (--depth <= 0)
				break;		/* the end of the first object */
		} else if (head[i] == '"') {
			start = i + 1;
			for (end = start; end < len && head[end] != '"'; end++)
				if (head[end] == '\\')
					end++;
			if (end >= len)
				break;
			i = trt_skip_ws(head, len, end + 1);
			if (depth != 1 || i >= len || head[i] != ':') {
				i--;
				continue;
			}
			for (size_t k = 0; k < NR_SHOWN_FIRST; k++)
				if (end - start == strlen(device_keys[k].json) &&
				    !memcmp(head + start, device_keys[k].json, end - start))
					found |= 1u << k;
		}
	}
	return found == ALL_FOUND ? 90 : 0;
}

const struct parser trex_device_parser = {
	.name = "trex-device",
	.family = "tensorrt",
	.engine_suffixes = (const char *const[]){ ".metadata.json", NULL },
	.summary = "trex (TensorRT engine explorer) <engine>.metadata.json: the GPUs' properties",
	.probe = device_probe,
	.parse = device_parse,
};
