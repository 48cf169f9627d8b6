// SPDX-License-Identifier: MIT
#include <curses.h>
#include <stdbool.h>
#include <string.h>

#include "../view/format.h"
#include "keymap.h"
#include "lineedit.h"

void lineedit_start(struct lineedit *le, const char *text)
{
	size_t n = strlen(text);

	if (n >= sizeof(le->text)) {
		n = sizeof(le->text) - 1;
		/* Not in the middle of a character. */
		while (n > 0 && (text[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(le->text, text, n);
	le->text[n] = '\0';
	le->len = le->cur = n;
}

/* False when S does not fit: the text stays as it was. */
static bool insert(struct lineedit *le, const char *s, size_t n)
{
	if (le->len + n >= sizeof(le->text))
		return false;
	memmove(le->text + le->cur + n, le->text + le->cur, le->len - le->cur + 1);
	memcpy(le->text + le->cur, s, n);
	le->len += n;
	le->cur += n;
	return true;
}

/* The start of the UTF-8 character before / after the one at POS. */
static size_t prev_char(const char *s, size_t pos)
{
	while (pos > 0 && (s[--pos] & 0xc0) == 0x80)
		;
	return pos;
}

static size_t next_char(const char *s, size_t len, size_t pos)
{
	if (pos < len)
		pos++;
	while (pos < len && (s[pos] & 0xc0) == 0x80)
		pos++;
	return pos;
}

static enum lineedit_result delete(struct lineedit *le, size_t from, size_t to)
{
	if (from >= to)
		return LINEEDIT_MOVED;
	memmove(le->text + from, le->text + to, le->len - to + 1);
	le->len -= to - from;
	le->cur = from;
	return LINEEDIT_CHANGED;
}

static enum lineedit_result move_to(struct lineedit *le, size_t pos)
{
	le->cur = pos;
	return LINEEDIT_MOVED;
}

/* C-w: the word before the cursor, and the blanks after it. */
static size_t word_start(const struct lineedit *le)
{
	size_t from = le->cur;

	while (from > 0 && le->text[from - 1] == ' ')
		from--;
	while (from > 0 && le->text[from - 1] != ' ')
		from--;
	return from;
}

enum lineedit_result lineedit_key(struct lineedit *le, int key)
{
	switch (key) {
	case '\n':
		return LINEEDIT_ACCEPT;
	case 27:
	case 7:		/* C-g */
		return LINEEDIT_CANCEL;
	case KEY_FN(KEY_LEFT):
	case 2:		/* C-b */
		return move_to(le, prev_char(le->text, le->cur));
	case KEY_FN(KEY_RIGHT):
	case 6:		/* C-f */
		return move_to(le, next_char(le->text, le->len, le->cur));
	case KEY_FN(KEY_HOME):
	case 1:		/* C-a */
		return move_to(le, 0);
	case KEY_FN(KEY_END):
	case 5:		/* C-e */
		return move_to(le, le->len);
	case KEY_FN(KEY_BACKSPACE):
		return delete(le, prev_char(le->text, le->cur), le->cur);
	case KEY_FN(KEY_DC):
	case 4:		/* C-d */
		return delete(le, le->cur, next_char(le->text, le->len, le->cur));
	case 21:	/* C-u: the whole line */
		return delete(le, 0, le->len);
	case 23:	/* C-w */
		return delete(le, word_start(le), le->cur);
	default:
		if (key >= ' ' && key < 0x110000 && key != 0x7f && !(key >= 0xd800 && key < 0xe000)) {
			char u[4];

			if (!insert(le, u, u8_encode((uint32_t)key, u)))
				return LINEEDIT_FULL;
			return LINEEDIT_CHANGED;
		}
		return LINEEDIT_IGNORED;
	}
}
