// SPDX-License-Identifier: MIT
/*
 * What the loop (ui.c) and the painter (draw.c) both read of their shared
 * state (ui_int.h), in a file of its own so that the two call each other
 * one way only: ui.c calls draw.c, both call this.
 */
#include <stdio.h>

#include "ui_int.h"

struct pane *ui_pane(const struct ui *ui)
{
	if (ui->help)
		return ui->help;
	return ui->stack[ui->tab][ui->depth[ui->tab] - 1];
}

const char *ui_glyph(const struct ui *ui, const char *utf8, const char *ascii)
{
	return ui->utf8 ? utf8 : ascii;
}

void ui_path(const struct ui *ui, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s", ui->stack[ui->tab][0]->title);

	for (int d = 1; d < ui->depth[ui->tab] && n < size; d++)
		n += (size_t)snprintf(buf + n, size - n, " %s %s", ui_glyph(ui, "\xe2\x80\xba", ">"),
				      ui->stack[ui->tab][d]->title);
	if (ui->help && n < size)
		snprintf(buf + n, size - n, " %s help", ui_glyph(ui, "\xe2\x80\xba", ">"));
}
