// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "canvas.h"
#include "format.h"

void canvas_reset(struct canvas *c, int rows, int cols)
{
	size_t n = (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0);

	if (n > c->alloc) {
		free(c->cells);
		c->cells = xmalloc(n * sizeof(*c->cells));
		c->alloc = n;
	}
	c->rows = rows > 0 ? rows : 0;
	c->cols = cols > 0 ? cols : 0;
	for (size_t i = 0; i < n; i++) {
		c->cells[i].ch[0] = ' ';
		c->cells[i].ch[1] = '\0';
		c->cells[i].attr = CA_PLAIN;
	}
}

void canvas_release(struct canvas *c)
{
	free(c->cells);
	memset(c, 0, sizeof(*c));
}

static bool inside(const struct canvas *c, int y, int x)
{
	return y >= 0 && y < c->rows && x >= 0 && x < c->cols;
}

int canvas_text(struct canvas *c, int y, int x, const char *s, int width, uint8_t attr)
{
	static struct strbuf esc;
	const char *ell = c->ascii ? "~" : "\xe2\x80\xa6";
	size_t len = strlen(s), used = 0, fit;
	int col = 0;

	if (width <= 0 || y < 0 || y >= c->rows)
		return 0;
	if (x + width > c->cols)
		width = c->cols - x;
	if (width <= 0)
		return 0;
	if (fmt_needs_escape(s, len) || c->ascii) {
		strbuf_reset(&esc);
		strbuf_grow(&esc, 4 * len + 1);
		esc.len = fmt_escape(s, len, c->ascii, esc.s, esc.cap);
		s = esc.s;
		len = esc.len;
	}
	fit = u8_width(s, len) <= (size_t)width ? len : u8_fit(s, len, (size_t)width - 1, &used);
	for (size_t i = 0; i < fit;) {
		uint32_t cp;
		size_t n = u8_decode(s + i, fit - i, &cp);
		int w = u8_cp_width(cp);

		if (w == 0 && col > 0 && x + col - 1 >= 0) {
			/* A combining mark joins the character before it. */
			struct canvas_cell *prev = canvas_at(c, y, x + col - 1);
			size_t have = strlen(prev->ch);

			if (have + n < sizeof(prev->ch)) {
				memcpy(prev->ch + have, s + i, n);
				prev->ch[have + n] = '\0';
			}
		} else if (w > 0 && inside(c, y, x + col) && n < sizeof(c->cells[0].ch)) {
			struct canvas_cell *cell = canvas_at(c, y, x + col);

			memcpy(cell->ch, s + i, n);
			cell->ch[n] = '\0';
			cell->attr = attr;
			if (w == 2 && inside(c, y, x + col + 1)) {
				canvas_at(c, y, x + col + 1)->ch[0] = '\0';
				canvas_at(c, y, x + col + 1)->attr = attr;
			}
			col += w;
		}
		i += n;
	}
	if (fit < len && inside(c, y, x + col)) {
		struct canvas_cell *cell = canvas_at(c, y, x + col);

		strcpy(cell->ch, ell);
		cell->attr = attr;
		col++;
	}
	return col;
}

void canvas_fill(struct canvas *c, int y, int x, int width, const char *ch, uint8_t attr)
{
	for (int i = 0; i < width; i++) {
		struct canvas_cell *cell;

		if (!inside(c, y, x + i))
			continue;
		cell = canvas_at(c, y, x + i);
		snprintf(cell->ch, sizeof(cell->ch), "%s", ch);
		cell->attr = attr;
	}
}

void canvas_paint(struct canvas *c, int y, int x, int width, uint8_t attr)
{
	for (int i = 0; i < width; i++)
		if (inside(c, y, x + i))
			canvas_at(c, y, x + i)->attr = attr;
}

size_t canvas_line(const struct canvas *c, int y, char *buf, size_t size)
{
	size_t n = 0;

	if (!size)
		return 0;
	buf[0] = '\0';
	if (y < 0 || y >= c->rows)
		return 0;
	for (int x = 0; x < c->cols; x++) {
		const char *ch = c->cells[(size_t)y * (size_t)c->cols + (size_t)x].ch;
		size_t k = strlen(ch);

		if (n + k + 1 > size)
			break;
		memcpy(buf + n, ch, k);
		n += k;
	}
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return n;
}
