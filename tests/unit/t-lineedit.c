// SPDX-License-Identifier: MIT
/* The bar's line editor at its end: a key that does not fit is said, not
 * passed off as a change (a paste of 1 MB would refilter per key). */
#include <curses.h>

#include "test.h"
#include "tui/keymap.h"
#include "tui/lineedit.h"

static void test_full_line(void)
{
	struct lineedit le;

	lineedit_start(&le, "");
	for (int i = 0; i < LINEEDIT_MAX - 1; i++)
		CHECK_EQ(lineedit_key(&le, 'a'), LINEEDIT_CHANGED);
	CHECK_EQ(le.len, LINEEDIT_MAX - 1);
	CHECK_EQ(lineedit_key(&le, 'b'), LINEEDIT_FULL);
	CHECK_EQ(le.len, LINEEDIT_MAX - 1);
	CHECK(!strchr(le.text, 'b'));
	/* Room for one byte is no room for a two-byte character. */
	CHECK_EQ(lineedit_key(&le, KEY_FN(KEY_BACKSPACE)), LINEEDIT_CHANGED);
	CHECK_EQ(lineedit_key(&le, 0xe9), LINEEDIT_FULL);
	CHECK_EQ(le.len, LINEEDIT_MAX - 2);
	CHECK_EQ(lineedit_key(&le, 'c'), LINEEDIT_CHANGED);
	CHECK_EQ(le.text[LINEEDIT_MAX - 2], 'c');
}

const struct test tests[] = {
	{ "a key past the end of the line", test_full_line },
	{ 0 },
};
