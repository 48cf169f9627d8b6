/* SPDX-License-Identifier: MIT */
/*
 * kernel_type: which kind of GPU work an event's name says it is --
 * COMMUNICATION, MEMORY, COMPUTATION or OTHER -- by Holistic Trace
 * Analysis's rules (its get_kernel_type(), in that order; the man page,
 * PANES, Kernels, states them).  The bits name the three types the
 * kernel-types breakdown sweeps over (temporal.h); OTHER has none.
 */
#ifndef MODEL_KERNEL_TYPE_H
#define MODEL_KERNEL_TYPE_H

enum kernel_type {
	KTYPE_OTHER = 0,
	KTYPE_COMPUTATION = 1,
	KTYPE_COMMUNICATION = 2,
	KTYPE_MEMORY = 4,
};

/* NAME's type; NULL is OTHER. */
enum kernel_type kernel_type_of(const char *name);
/* "COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER". */
const char *kernel_type_name(enum kernel_type t);

#endif
