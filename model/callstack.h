/* SPDX-License-Identifier: MIT */
/*
 * Python call stacks (with_stack), shared by prefix.
 *
 * A stack is a node of a prefix tree: its innermost frame and the stack
 * it was called from.  Every stack of a profile is interned once by that
 * pair, so N nested frames cost N nodes however many ops run at each
 * depth, and equal stacks are equal pointers.  The text -- frames
 * innermost first, ';' between them, as old traces' "Call stack" -- is
 * made only when something shows it: a 50,000-frame recursion would
 * otherwise hold 50,000 texts of growing length.
 */
#ifndef MODEL_CALLSTACK_H
#define MODEL_CALLSTACK_H

#include <stdatomic.h>
#include <stddef.h>

struct arena;
struct strbuf;
struct strtab;
struct attr;

struct call_stack {
	const struct call_stack *below;	/* the caller's stack; NULL: none */
	const char *frame;		/* interned */
	/* call_stack_text()'s, made on first use (heap; panes may ask
	   from two threads, so it is set once, atomically). */
	_Atomic(char *) text;
};

/* A profile's stacks by (below, frame): the interning table.  It is
 * given the arena its stacks are carved from and the names their frames
 * are interned in (call_stacks_init()), so that it needs nothing else of
 * the profile that holds it (profile.h: p->stacks). */
struct call_stacks {
	struct call_stack **slots;
	size_t nr, alloc;
	struct arena *arena;
	struct strtab *names;
};

/* An empty table whose stacks live in ARENA, their frames in NAMES. */
void call_stacks_init(struct call_stacks *t, struct arena *arena, struct strtab *names);
/* The stack of frame FRAME (interned in T's names) called from BELOW
 * (NULL: the outermost frame): T's one node for the pair. */
const struct call_stack *call_stack_intern(struct call_stacks *t, const struct call_stack *below,
					   const char *frame);
/* The stack of the text S (N bytes, frames innermost first, ';' between
 * them) called from BELOW.  A stack holds no ';' in a frame: equal
 * texts are one stack, whether a file wrote them whole or frame by
 * frame. */
const struct call_stack *call_stack_parse(struct call_stacks *t, const struct call_stack *below,
					  const char *s, size_t n);
/* Free the texts made and the table. */
void call_stacks_release(struct call_stacks *t);

/* S's text, appended to OUT (no table, nothing kept). */
void call_stack_append_text(const struct call_stack *s, struct strbuf *out);
/* S's text, made once and kept until the profile is released. */
const char *call_stack_text(const struct call_stack *s);

/*
 * What an op's "call_stack" attribute holds: a stack (ATTR_STACK, a
 * trace's) or its text (ATTR_STRING, as a summary stores it).  These
 * read either form.
 */
/* The text, appended to OUT. */
void stack_attr_append_text(const struct attr *a, struct strbuf *out);
/* strcmp() of the two texts, without making them. */
int stack_attr_cmp(const struct attr *a, const struct attr *b);
/* Each frame the text lists, innermost first: the text split at ';',
 * less a last part that is empty. */
void stack_attr_frames(const struct attr *a, void (*fn)(const char *s, size_t n, void *ctx),
		       void *ctx);

#endif
