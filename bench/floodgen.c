// SPDX-License-Identifier: MIT
/*
 * floodgen: a Kineto trace of N events whose names (or correlation ids)
 * are crafted against the old, unkeyed hashes (tests/unit/flood.h), or
 * random ones of the same shape for comparison.  For bench/hashflood.sh;
 * the unit tests craft the same input in-process.
 *
 *	floodgen names|ids crafted|random N >trace.json
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/unit/flood.h"

static uint64_t rng_state = 0x853c49e6748fea9bULL;

/* splitmix64: only needs to look random, and be the same every run. */
static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* NAME as a JSON string: bytes below 0x20, quote and backslash escaped. */
static void put_name(const char *name)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p < 0x20 || *p == '"' || *p == '\\')
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static void random_name(char out[17])
{
	/* The crafted names' alphabet: 0x40..0x7f, then 0x01..0x7f. */
	for (int i = 0; i < 8; i++)
		out[i] = (char)(64 + rng() % 64);
	for (int i = 8; i < 16; i++)
		out[i] = (char)(1 + rng() % 127);
	out[16] = '\0';
}

int main(int argc, char **argv)
{
	struct flood f;
	uint64_t next_id = 0;
	bool is_names, is_crafted;
	long n;

	if (argc != 4 || (strcmp(argv[1], "names") && strcmp(argv[1], "ids")) ||
	    (strcmp(argv[2], "crafted") && strcmp(argv[2], "random")) || (n = atol(argv[3])) <= 0) {
		fputs("usage: floodgen names|ids crafted|random N >trace.json\n", stderr);
		return 1;
	}
	is_names = !strcmp(argv[1], "names");
	is_crafted = !strcmp(argv[2], "crafted");
	flood_init(&f, true);
	puts("{\"schemaVersion\": 1, \"traceEvents\": [");
	for (long i = 0; i < n; i++) {
		const char *sep = i + 1 < n ? "," : "";

		if (is_names) {
			char name[17];

			if (is_crafted)
				flood_name(&f, name);
			else
				random_name(name);
			printf("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": ");
			put_name(name);
			printf(", \"pid\": 1, \"tid\": 1, \"ts\": %ld, \"dur\": 1}%s\n", 2 * i, sep);
		} else {
			int64_t id = is_crafted ? flood_id(&next_id) : (int64_t)(rng() >> 1);

			printf("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
			       "\"pid\": 1, \"tid\": 1, \"ts\": %ld, \"dur\": 1, "
			       "\"args\": {\"correlation\": %lld}},\n",
			       4 * i, (long long)id);
			printf("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
			       "\"pid\": 0, \"tid\": 7, \"ts\": %ld, \"dur\": 2, "
			       "\"args\": {\"correlation\": %lld}}%s\n",
			       4 * i + 1, (long long)id, sep);
		}
	}
	puts("]}");
	return 0;
}
