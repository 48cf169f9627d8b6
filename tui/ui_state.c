// SPDX-License-Identifier: MIT
/*
 * What the loop (ui.c) and the painter (draw.c) both read of their shared
 * state (ui_int.h), in a file of its own so that the two call each other
 * one way only: ui.c calls draw.c, both call this.
 */
#include <stdio.h>

#include "../model/strbuf.h"
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

char *ui_path(const struct ui *ui)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_addstr(&b, ui->stack[ui->tab][0]->title);
	for (int d = 1; d < ui->depth[ui->tab]; d++)
		strbuf_addf(&b, " %s %s", ui_glyph(ui, "\xe2\x80\xba", ">"),
			    ui->stack[ui->tab][d]->title);
	if (ui->help)
		strbuf_addf(&b, " %s help", ui_glyph(ui, "\xe2\x80\xba", ">"));
	return b.s;
}
