/* SPDX-License-Identifier: MIT */
/*
 * kernel_type: HTA's three patterns, matched by hand (model/ has no
 * regular expressions).  HTA applies them with Python's re.match, which
 * anchors at the name's start and whose "." stops at a newline: so
 * "contains X" below means "X occurs before the name's first newline".
 */
#include <stdbool.h>
#include <string.h>

#include "kernel_type.h"

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Whether NEEDLE occurs in S before S's first newline ("^.*NEEDLE"). */
static bool in_first_line(const char *s, const char *needle)
{
	size_t line = strcspn(s, "\n");
	const char *p = strstr(s, needle);

	return p && (size_t)(p - s) + strlen(needle) <= line;
}

/* "cuda.*LaunchKernel" at the start. */
static bool is_cuda_launch(const char *s)
{
	return starts(s, "cuda") && in_first_line(s + 4, "LaunchKernel");
}

static bool is_communication(const char *s)
{
	return starts(s, "nccl") || starts(s, "hip") || starts(s, "hccl") ||
	       in_first_line(s, "ncclKernel");
}

static bool is_memory(const char *s)
{
	/* MEMORY_COPY_*: rocprofv3's copies (parsers/rocprof), which no
	 * HTA trace names so. */
	return starts(s, "Memcpy") || starts(s, "Memset") || starts(s, "hipMemcpy") ||
	       starts(s, "hipMemset") || starts(s, "dma") || starts(s, "MEMORY_COPY_");
}

/* HTA's pattern of names that are not computation. */
static bool is_not_computation(const char *s)
{
	static const char *const prefixes[] = {
		"nccl", "Stream Wait Event", "runFunction", "hip", "job_exe", "packet",
		"pe_exe", "cpum_exe_subgraph", "hccl", "collective_subgraph_execution",
	};
	static const char *const anywhere[] = { "Memcpy", "Memset", "dma", "Sync" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(s, prefixes[i]))
			return true;
	for (size_t i = 0; i < sizeof(anywhere) / sizeof(anywhere[0]); i++)
		if (in_first_line(s, anywhere[i]))
			return true;
	return is_cuda_launch(s);
}

enum kernel_type kernel_type_of(const char *name)
{
	if (!name)
		return KTYPE_OTHER;
	if (is_communication(name))
		return KTYPE_COMMUNICATION;
	if (is_memory(name))
		return KTYPE_MEMORY;
	if (!is_not_computation(name))
		return KTYPE_COMPUTATION;
	return KTYPE_OTHER;
}

const char *kernel_type_name(enum kernel_type t)
{
	switch (t) {
	case KTYPE_COMPUTATION:
		return "COMPUTATION";
	case KTYPE_COMMUNICATION:
		return "COMMUNICATION";
	case KTYPE_MEMORY:
		return "MEMORY";
	case KTYPE_OTHER:
		break;
	}
	return "OTHER";
}
