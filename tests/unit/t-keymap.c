// SPDX-License-Identifier: MIT
/* Key files: parsing, overriding, bad lines reported with their place. */
#include <curses.h>

#include "test.h"
#include "tui/keymap.h"

static void test_builtin_is_clean(void)
{
	struct keymap km;

	keymap_init(&km);
	CHECK_EQ(keymap_parse(&km, "<builtin>", keymap_default), 0);
	CHECK_EQ(keymap_parse(&km, "<builtin vi>", keymap_vi), 0);
	CHECK_EQ(keymap_parse(&km, "<builtin emacs>", keymap_emacs), 0);
	CHECK(km.messages == NULL);
	keymap_release(&km);
}

static void test_lookup_and_sections(void)
{
	struct keymap km;

	keymap_init(&km);
	keymap_parse(&km, "<builtin>", keymap_default);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, 's'), ACT_SORT_DEVICE_SELF);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, KEY_FN(KEY_RIGHT)), ACT_DRILL);
	/* The tree's own binding wins over the global one. */
	CHECK_EQ(keymap_lookup(&km, KS_TREE, KEY_FN(KEY_RIGHT)), ACT_UNFOLD);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, '\\'), ACT_FILTER);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, KEY_FN(KEY_F(4))), ACT_FILTER);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, '%'), ACT_NONE);
	keymap_release(&km);
}

static void test_user_overrides(void)
{
	struct keymap km;
	char keys[128];

	keymap_init(&km);
	keymap_parse(&km, "<builtin>", keymap_default);
	CHECK_EQ(keymap_parse(&km, "keys", "# mine\nbind global x sort-calls\n"
				  "bind global q none\nbind tree <C-o> toggle-fold\n"), 0);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, 'x'), ACT_SORT_CALLS);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, 'q'), ACT_NONE);
	CHECK_EQ(keymap_lookup(&km, KS_TREE, 15), ACT_TOGGLE_FOLD);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, 'c'), ACT_SORT_CALLS);
	keymap_keys_of(&km, KS_OPS, ACT_SORT_CALLS, keys, sizeof(keys));
	CHECK_STR(keys, "c x");
	keymap_release(&km);
}

static void test_bad_lines(void)
{
	struct keymap km;

	keymap_init(&km);
	CHECK_EQ(keymap_parse(&km, "keys", "bind global x folde\n\nbind nowhere x quit\n"
				  "bind global <Nope> quit\nunbind x\nbind global x\n"
				  "bind global y quit\n"), 5);
	CHECK(km.messages && strstr(km.messages, "keys:1: unknown action 'folde'"));
	CHECK(strstr(km.messages, "keys:3: unknown section 'nowhere'"));
	CHECK(strstr(km.messages, "keys:4: unknown key '<Nope>'"));
	CHECK(strstr(km.messages, "keys:5: unknown command 'unbind'"));
	CHECK(strstr(km.messages, "keys:6: expected 'bind SECTION KEY ACTION'"));
	/* Loading went on after the bad lines. */
	CHECK_EQ(keymap_lookup(&km, KS_OPS, 'y'), ACT_QUIT);
	keymap_release(&km);
}

static void test_key_names(void)
{
	char b[32];

	CHECK_EQ(keymap_key_parse("<C-l>"), 12);
	CHECK_EQ(keymap_key_parse("<F1>"), KEY_FN(KEY_F(1)));
	CHECK_EQ(keymap_key_parse("<Bslash>"), '\\');
	CHECK_EQ(keymap_key_parse("\xc3\xa9"), 0xe9);
	CHECK_EQ(keymap_key_parse("ab"), -1);
	CHECK_STR(keymap_key_name(KEY_FN(KEY_F(12)), b, sizeof(b)), "<F12>");
	CHECK_STR(keymap_key_name('\n', b, sizeof(b)), "<Enter>");
	CHECK_STR(keymap_key_name(0xe9, b, sizeof(b)), "\xc3\xa9");
}

/* Issue 32's done-when: the keys file can rebind every action, the new
 * ones included, in every section: a test over the whole list, so an
 * action added later is covered without a line here. */
static void test_every_action_rebinds(void)
{
	struct keymap km;
	char line[160], keys[128];

	keymap_init(&km);
	keymap_parse(&km, "<builtin>", keymap_default);
	for (int a = ACT_NONE + 1; a < NR_ACTIONS; a++) {
		for (int s = 0; s < NR_KEYMAP_SECTIONS; s++) {
			snprintf(line, sizeof(line), "bind %s <C-t> %s\n",
				 section_name((enum keymap_section)s), action_name((enum action)a));
			CHECK_EQ(keymap_parse(&km, "keys", line), 0);
			CHECK_EQ(keymap_lookup(&km, (enum keymap_section)s, 20), (enum action)a);
			keymap_keys_of(&km, (enum keymap_section)s, (enum action)a, keys, sizeof(keys));
			CHECK(strstr(keys, "<C-t>") != NULL);
		}
	}
	CHECK(km.messages == NULL);
	/* And a default key given away leaves the action on its other keys. */
	CHECK_EQ(keymap_parse(&km, "keys", "bind global f none\n"), 0);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, 'f'), ACT_NONE);
	CHECK_EQ(keymap_lookup(&km, KS_OPS, KEY_FN(KEY_F(3))), ACT_SEARCH);
	keymap_release(&km);
}

const struct test tests[] = {
	{ "the built-in key files parse without a complaint", test_builtin_is_clean },
	{ "a pane's binding wins over a global one", test_lookup_and_sections },
	{ "a user's file overrides single bindings", test_user_overrides },
	{ "bad lines are reported with FILE:LINE and loading goes on", test_bad_lines },
	{ "key names parse and print", test_key_names },
	{ "the keys file can rebind every action, in every section", test_every_action_rebinds },
	{ 0 },
};
