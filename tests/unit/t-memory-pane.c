// SPDX-License-Identifier: MIT
/*
 * The Memory pane's drill-downs keep to the device the pane shows: Enter
 * on an op lists that op's allocations on the row's device, v every
 * allocation of the device shown -- on a trace of our own,
 * tests/golden/memory/cpu-gpu.json, whose aten::to allocates on the CPU
 * (64 bytes, freed) and on GPU0 (2 KB and 4 KB), and whose aten::cat
 * allocates on both too.
 */
#include "test.h"
#include "view/pane.h"

#define FIX "tests/golden/memory/cpu-gpu.json"

static char msg[4096];

/* The Device column of every row of PANE, blank-separated, into BUF. */
static void devices(const struct pane *pane, char *buf, size_t size)
{
	int col = pane_column(pane, "device");
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; col >= 0 && i < pane->nr_view && n < size; i++) {
		struct cell c = pane_cell(pane, pane_row(pane, i), (size_t)col);

		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : "",
				      c.type == CELL_TEXT ? c.v.s : "?");
	}
}

/* Enter on OP in MEM: the events pane it opens, or NULL. */
static struct pane *drill(const struct pane *mem, const char *op, struct pane_scope *scope)
{
	enum pane_id to;

	if (!pane_seek((struct pane *)mem, op))
		return NULL;
	to = pane_drill_target(mem, scope);
	return to != PANE_NONE ? pane_new(pane_types[to], mem->prof, scope) : NULL;
}

static void test_drill_keeps_to_device(void)
{
	struct profile p;
	struct pane *mem, *ev;
	struct pane_scope scope;
	struct pane_request req;
	char got[256];

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	mem = pane_new(pane_types[PANE_MEMORY], &p, NULL);
	CHECK_STR(mem->title, "Memory of GPU0");
	ev = drill(mem, "aten::to", &scope);
	CHECK(ev != NULL);
	if (ev) {
		devices(ev, got, sizeof(got));
		CHECK_STR(got, "GPU0 GPU0");
		pane_free(ev);
	}
	memset(&req, 0, sizeof(req));
	CHECK(pane_handle(mem, ACT_DEVICE_NEXT, &req));
	CHECK_STR(mem->title, "Memory of CPU");
	ev = drill(mem, "aten::to", &scope);
	CHECK(ev != NULL);
	if (ev) {
		devices(ev, got, sizeof(got));
		CHECK_STR(got, "CPU");
		CHECK_STR(ev->title, "aten::to \xe2\x80\xba memory events of CPU");
		pane_free(ev);
	}
	/* v: every allocation of the CPU, none of GPU0's. */
	memset(&req, 0, sizeof(req));
	CHECK(pane_handle(mem, ACT_TOGGLE_VIEW, &req));
	CHECK(req.open && req.open_pane == PANE_MEMORY_EVENTS);
	if (req.open) {
		ev = pane_new(pane_types[req.open_pane], &p, &req.open_scope);
		devices(ev, got, sizeof(got));
		CHECK_STR(got, "CPU CPU");
		pane_free(ev);
	}
	pane_free(mem);
	profile_release(&p);
}

/* --print memory-events: no Memory pane under it, every device's. */
static void test_print_lists_every_device(void)
{
	struct profile p;
	struct pane *ev;
	char got[256];

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	ev = pane_new(pane_types[PANE_MEMORY_EVENTS], &p, NULL);
	devices(ev, got, sizeof(got));
	CHECK_STR(got, "CPU GPU0 GPU0 GPU0 CPU");
	pane_free(ev);
	profile_release(&p);
}

const struct test tests[] = {
	{ "a device's drill-downs list that device's memory events only",
	  test_drill_keeps_to_device },
	{ "printed, the memory events of every device", test_print_lists_every_device },
	{ 0 },
};
