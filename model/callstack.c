// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "callstack.h"
#include "profile.h"
#include "strbuf.h"
#include "strtab.h"
#include "util.h"

static size_t stack_slot(const struct call_stacks *t, const struct call_stack *below,
			 const char *frame)
{
	size_t i = (size_t)hash_u64((uint64_t)(uintptr_t)below * 31 + (uint64_t)(uintptr_t)frame) &
		   (t->alloc - 1);

	while (t->slots[i] && (t->slots[i]->below != below || t->slots[i]->frame != frame))
		i = (i + 1) & (t->alloc - 1);
	return i;
}

static void stacks_grow(struct call_stacks *t)
{
	struct call_stacks bigger = { .alloc = t->alloc ? 2 * t->alloc : 256 };

	bigger.slots = xcalloc(bigger.alloc, sizeof(*bigger.slots));
	for (size_t k = 0; k < t->alloc; k++)
		if (t->slots[k])
			bigger.slots[stack_slot(&bigger, t->slots[k]->below, t->slots[k]->frame)] =
				t->slots[k];
	free(t->slots);
	t->slots = bigger.slots;
	t->alloc = bigger.alloc;
}

void call_stacks_init(struct call_stacks *t, struct arena *arena, struct strtab *names)
{
	memset(t, 0, sizeof(*t));
	t->arena = arena;
	t->names = names;
}

const struct call_stack *call_stack_intern(struct call_stacks *t, const struct call_stack *below,
					   const char *frame)
{
	struct call_stack *s;
	size_t i;

	if (2 * (t->nr + 1) > t->alloc)
		stacks_grow(t);
	i = stack_slot(t, below, frame);
	if (t->slots[i])
		return t->slots[i];
	s = arena_alloc(t->arena, sizeof(*s));
	s->below = below;
	s->frame = frame;
	atomic_init(&s->text, NULL);
	t->nr++;
	return t->slots[i] = s;
}

const struct call_stack *call_stack_parse(struct call_stacks *t, const struct call_stack *below,
					  const char *s, size_t n)
{
	size_t end = n;

	/* The outermost frame is the last: build from there in. */
	for (size_t i = n; i-- > 0;) {
		if (s[i] != ';')
			continue;
		below = call_stack_intern(t, below, strtab_intern(t->names, s + i + 1, end - i - 1));
		end = i;
	}
	return call_stack_intern(t, below, strtab_intern(t->names, s, end));
}

void call_stacks_release(struct call_stacks *t)
{
	for (size_t k = 0; k < t->alloc; k++)
		if (t->slots[k])
			free(atomic_load(&t->slots[k]->text));
	free(t->slots);
	t->slots = NULL;
	t->nr = t->alloc = 0;
}

void call_stack_append_text(const struct call_stack *s, struct strbuf *out)
{
	for (; s; s = s->below) {
		strbuf_addstr(out, s->frame);
		if (s->below)
			strbuf_addch(out, ';');
	}
}

const char *call_stack_text(const struct call_stack *s)
{
	struct call_stack *w = (struct call_stack *)s;	/* the cache only */
	char *text = atomic_load_explicit(&w->text, memory_order_acquire), *none = NULL;
	struct strbuf b = STRBUF_INIT;

	if (text)
		return text;
	call_stack_append_text(s, &b);
	text = b.s ? b.s : xstrdup("");	/* a stack of one empty frame */
	if (!atomic_compare_exchange_strong_explicit(&w->text, &none, text, memory_order_acq_rel,
						     memory_order_acquire)) {
		free(text);	/* another thread made it first */
		text = none;
	}
	return text;
}

/* ---------------------------------------------------------------------
 * Either form of an op's "call_stack" attribute, read byte by byte.
 */

struct text_cursor {
	const struct call_stack *s;	/* ATTR_STACK: the frame being read */
	const char *c;			/* the next byte */
};

static void cursor_init(struct text_cursor *t, const struct attr *a)
{
	if (attr_type(a) == ATTR_STACK) {
		t->s = a->v.stack;
		t->c = t->s ? t->s->frame : "";
	} else {
		t->s = NULL;
		t->c = attr_type(a) == ATTR_STRING && a->v.s ? a->v.s : "";
	}
}

/* The text's next byte; 0 at its end. */
static unsigned char cursor_next(struct text_cursor *t)
{
	if (*t->c)
		return (unsigned char)*t->c++;
	if (t->s && t->s->below) {
		t->s = t->s->below;
		t->c = t->s->frame;
		return ';';
	}
	return 0;
}

void stack_attr_append_text(const struct attr *a, struct strbuf *out)
{
	if (attr_type(a) == ATTR_STACK)
		call_stack_append_text(a->v.stack, out);
	else if (attr_type(a) == ATTR_STRING && a->v.s)
		strbuf_addstr(out, a->v.s);
}

int stack_attr_cmp(const struct attr *a, const struct attr *b)
{
	struct text_cursor x, y;
	unsigned char cx, cy;

	cursor_init(&x, a);
	cursor_init(&y, b);
	do {
		cx = cursor_next(&x);
		cy = cursor_next(&y);
	} while (cx && cx == cy);
	return (cx > cy) - (cx < cy);
}

/* The parts of the string S split at ';', each to FN but the last, which
 * is left in *LAST (the caller decides on it). */
static void split_frame(const char *s, const char **last, size_t *last_n,
			void (*fn)(const char *, size_t, void *), void *ctx)
{
	const char *semi;

	while ((semi = strchr(s, ';'))) {
		fn(s, (size_t)(semi - s), ctx);
		s = semi + 1;
	}
	*last = s;
	*last_n = strlen(s);
}

void stack_attr_frames(const struct attr *a, void (*fn)(const char *s, size_t n, void *ctx),
		       void *ctx)
{
	const char *last = "";
	size_t last_n = 0;

	if (attr_type(a) == ATTR_STRING && a->v.s) {
		split_frame(a->v.s, &last, &last_n, fn, ctx);
	} else if (attr_type(a) == ATTR_STACK) {
		for (const struct call_stack *s = a->v.stack; s; s = s->below) {
			split_frame(s->frame, &last, &last_n, fn, ctx);
			if (s->below)
				fn(last, last_n, ctx);	/* a ';' follows it */
		}
	}
	if (last_n)
		fn(last, last_n, ctx);
}
