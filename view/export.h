/* SPDX-License-Identifier: MIT */
/*
 * export: a pane as text -- aligned plain text, CSV, TSV, JSON or Markdown.
 * `--print` and the TUI's `e` both come here, so a pane exports exactly as
 * it is shown: its sort, filter, step and drill path, every row of it.
 *
 * The JSON shape is a contract scripts rely on: an array of objects, one
 * per row, keyed by the columns' JSON keys (times in microseconds with up
 * to three decimals: "device_self_us"), tree rows with "depth".  CSV and
 * TSV use the same keys as their header.  Summary rows (the Steps pane's
 * average) go only to the formats people read (txt, md).
 */
#ifndef TUI_EXPORT_H
#define TUI_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pane.h"

enum export_format { EXPORT_TXT, EXPORT_CSV, EXPORT_TSV, EXPORT_JSON, EXPORT_MD };

/* "txt", "csv", "tsv", "json", "md" (also "text", "markdown"). */
bool export_format_parse(const char *name, enum export_format *out);
/* The format a path's extension names; txt when it names none. */
enum export_format export_format_of_path(const char *path);
const char *export_format_name(enum export_format f);
/* The format of the export path PATH: its extension's, txt when it has
 * none; false (and ERR says why, listing the known ones) for an
 * extension no format has -- ".xlsx" is not written as text. */
bool export_path_format(const char *path, enum export_format *fmt, char *err, size_t err_size);
/* PATH with a leading "~" or "~/" made $HOME (into BUF), as a shell
 * would; PATH itself otherwise. */
const char *export_expand_home(const char *path, char *buf, size_t size);

/*
 * One line that says what the pane holds: "Operators of FILE, sorted by Dev
 * self (descending), filter 'conv', step 5: 12 of 340 rows".  LABEL names
 * the profile; LIMIT is the --limit (0: none).  Escaped, whole, on the
 * heap: free() it.
 */
char *export_caption(const struct pane *pane, const char *label, size_t limit);

/*
 * Write the first LIMIT rows of PANE's view (0: all) to OUT in FMT, with
 * CAPTION (may be NULL) heading the txt and md forms.  Returns the number
 * of rows written, or -1 when writing failed (errno says why).
 */
/*
 * S as a JSON string, escaped as every JSON export escapes it: the text
 * itself, with controls, C1 controls and invisible format characters as
 * \u escapes and bytes that are not UTF-8 as U+FFFD (a pane's own JSON,
 * the Overview's, writes its strings with it too).
 */
void export_json_string(FILE *out, const char *s);
long export_pane(const struct pane *pane, FILE *out, enum export_format fmt, size_t limit,
		 const char *caption);
/*
 * The same into PATH, through outfile_write() (outfile.h): a device or a
 * FIFO written in place, a symbolic link written through, a file
 * replaced whole, never half-written.  Returns the rows written, or -1
 * with ERR (ERR_SIZE bytes) set to "PATH: reason".
 */
long export_to_path(const struct pane *pane, const char *path, enum export_format fmt,
		    size_t limit, const char *caption, char *err, size_t err_size);

/* Write names short (--print --short-names; NULL: in full, the default)
 * in every export after this call.  SN must outlive them. */
struct shortnames;
void export_set_short_names(const struct shortnames *sn);

/*
 * Cut names so that a txt or md line takes at most WIDTH cells (--width;
 * 0: whole names, the default), ending a cut name with "\u2026" ("..." when
 * ASCII).  Only the name column is cut, and to no fewer than 16 cells: a
 * line whose other cells pass WIDTH stays longer.  CSV, TSV and JSON are
 * always whole.
 */
void export_set_width(size_t width, bool ascii);

#endif
