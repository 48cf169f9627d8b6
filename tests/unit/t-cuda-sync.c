/* SPDX-License-Identifier: MIT */
/*
 * Kineto's cuda_sync events (parsers/kineto): kept in the profile's side
 * table (profile.h, struct cuda_sync) with their kind, device, stream,
 * times, the stream a wait-event waits on and the runtime call of their
 * correlation; never as nodes, and still counted as not used in Info.
 */
#include <stdlib.h>

#include "model/profile.h"
#include "parsers/load.h"
#include "test.h"

static const char trace[] =
	"{\"traceEvents\": [\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1,"
	" \"tid\": 1, \"ts\": 10, \"dur\": 5, \"args\": {\"correlation\": 7}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": 20,"
	" \"dur\": 30, \"args\": {\"correlation\": 7, \"device\": 0, \"stream\": 7}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaStreamSynchronize\", \"pid\": 1,"
	" \"tid\": 1, \"ts\": 16, \"dur\": 40, \"args\": {\"correlation\": 8}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Stream Sync\", \"pid\": 0, \"tid\": 7,"
	" \"ts\": 17, \"dur\": 38, \"args\": {\"correlation\": 8, \"device\": 0, \"stream\": 7}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Context Sync\", \"pid\": 0, \"tid\": 7,"
	" \"ts\": 60, \"dur\": 2, \"args\": {\"correlation\": 99, \"device\": 1,"
	" \"stream\": 4294967295}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Stream Wait Event\", \"pid\": 0,"
	" \"tid\": 20, \"ts\": 70.5, \"dur\": 0, \"args\": {\"device\": 0, \"stream\": 20,"
	" \"wait_on_stream\": 7, \"wait_on_cuda_event_record_corr_id\": 7}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Stream Sync\", \"pid\": 0, \"tid\": 7,"
	" \"ts\": \"x\", \"dur\": 1}\n"
	"]}\n";

/* Count the nodes named as a cuda_sync event. */
static bool count_syncs(struct node *n, void *ctx)
{
	const char *name = node_name(n);

	if (name && (strstr(name, " Sync") || strstr(name, "Wait Event")))
		(*(size_t *)ctx)++;
	return true;
}

static void t_side_table(void)
{
	const char *path = test_write("cuda-sync.json", trace, sizeof(trace) - 1);
	const char *paths[1] = { path };
	struct load_options lo = { 0 };
	struct profile p;
	const struct cuda_sync *s;
	const struct node *rt;
	size_t nodes = 0;

	profile_init(&p, path);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	/* The one with a bad ts is left out, silently, as before. */
	CHECK_EQ(p.nr_cuda_syncs, 3);
	if (p.nr_cuda_syncs != 3)
		goto out;
	s = &p.cuda_syncs[0];
	CHECK_EQ(s->kind, CUDA_SYNC_STREAM);
	CHECK_EQ(s->device, 0);
	CHECK_EQ(s->stream, 7);
	CHECK_EQ(s->start_ns, 17000);
	CHECK_EQ(s->dur_ns, 38000);
	CHECK_EQ(s->wait_stream, -1);
	CHECK_EQ(s->wait_corr, -1);
	rt = node_by_handle(&p, s->runtime);
	CHECK(rt != NULL);
	if (rt)
		CHECK_STR(node_name(rt), "cudaStreamSynchronize");
	s = &p.cuda_syncs[1];
	CHECK_EQ(s->kind, CUDA_SYNC_CONTEXT);
	CHECK_EQ(s->device, 1);
	CHECK_EQ(s->stream, -1);	/* 2^32 - 1: none */
	CHECK_EQ(s->runtime, 0);	/* no runtime call of correlation 99 */
	s = &p.cuda_syncs[2];
	CHECK_EQ(s->kind, CUDA_SYNC_WAIT_EVENT);
	CHECK_EQ(s->start_ns, 70500);
	CHECK_EQ(s->dur_ns, 0);
	CHECK_EQ(s->stream, 20);
	CHECK_EQ(s->wait_stream, 7);
	CHECK_EQ(s->wait_corr, 7);
	CHECK_EQ(s->runtime, 0);
out:
	/* No node of them. */
	node_walk(p.root, count_syncs, &nodes);
	CHECK_EQ(nodes, 0);
	profile_release(&p);
}

/* The table of a load in chunks (parsed on more threads) and linked on
 * two threads is the plain load's. */
static void t_chunks(void)
{
	static const char *const chunks[] = { "64", "97", "211", "512" };
	const char *path = test_write("cuda-sync.json", trace, sizeof(trace) - 1);
	const char *paths[1] = { path };
	struct load_options lo = { 0 };
	struct profile plain, p;

	unsetenv("PROFTUI_PARSE_CHUNK");
	profile_init(&plain, path);
	CHECK(profile_load(&plain, paths, 1, &lo) == 0);
	CHECK_EQ(plain.nr_cuda_syncs, 3);
	for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
		setenv("PROFTUI_PARSE_CHUNK", chunks[i], 1);
		setenv("PROFTUI_LINK_THREADS", "2", 1);
		profile_init(&p, path);
		CHECK(profile_load(&p, paths, 1, &lo) == 0);
		CHECK_EQ(p.nr_cuda_syncs, plain.nr_cuda_syncs);
		for (size_t k = 0; k < p.nr_cuda_syncs && k < plain.nr_cuda_syncs; k++) {
			const struct cuda_sync *a = &p.cuda_syncs[k], *b = &plain.cuda_syncs[k];
			const struct node *ra = node_by_handle(&p, a->runtime);
			const struct node *rb = node_by_handle(&plain, b->runtime);

			CHECK_EQ(a->kind, b->kind);
			CHECK_EQ(a->start_ns, b->start_ns);
			CHECK_EQ(a->dur_ns, b->dur_ns);
			CHECK_EQ(a->device, b->device);
			CHECK_EQ(a->stream, b->stream);
			CHECK_EQ(a->wait_stream, b->wait_stream);
			CHECK_EQ(a->wait_corr, b->wait_corr);
			CHECK_EQ(!ra, !rb);
			if (ra && rb)
				CHECK_EQ(ra->start_ns, rb->start_ns);
		}
		profile_release(&p);
	}
	unsetenv("PROFTUI_PARSE_CHUNK");
	unsetenv("PROFTUI_LINK_THREADS");
	profile_release(&plain);
}

const struct test tests[] = {
	{ "cuda_sync events: the side table", t_side_table },
	{ "cuda_sync events: chunked and threaded loads", t_chunks },
	{ 0 },
};
