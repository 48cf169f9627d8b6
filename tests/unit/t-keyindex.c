// SPDX-License-Identifier: MIT
/* model/keyindex.c: keys to indices, through growth, with any key. */
#include "model/keyindex.h"
#include "test.h"

static void test_put_get(void)
{
	struct key_index t = { 0 };
	bool ok = true;

	CHECK_EQ(key_index_get(&t, 7), KEY_INDEX_NONE);	/* zeroed: empty */
	for (uint64_t k = 0; k < 10000; k++)
		key_index_put(&t, k * 0x10001, (size_t)k);
	key_index_put(&t, UINT64_MAX, 42);
	CHECK_EQ(t.nr, 10001);
	for (uint64_t k = 0; k < 10000 && ok; k++)
		ok = key_index_get(&t, k * 0x10001) == (size_t)k;
	CHECK(ok);
	CHECK_EQ(key_index_get(&t, UINT64_MAX), 42);
	CHECK_EQ(key_index_get(&t, 3), KEY_INDEX_NONE);
	/* A put on a key there replaces its index. */
	key_index_put(&t, 0, 99);
	CHECK_EQ(key_index_get(&t, 0), 99);
	CHECK_EQ(t.nr, 10001);
	key_index_release(&t);
	CHECK_EQ(key_index_get(&t, 0), KEY_INDEX_NONE);
}

const struct test tests[] = {
	{ "keys map to their indices through growth, any key", test_put_get },
	{ 0 },
};
