/* SPDX-License-Identifier: MIT */
/*
 * outfile: the one way proftui writes to a path the user named -- a
 * pane's export (--print -o, the TUI's export prompt) and a summary
 * (--summary -o).  What is already at the path decides how:
 *
 *  - a device or a FIFO (/dev/stdout, /dev/full, a named pipe) is
 *    written in place, as the shell's '>' would; never replaced by a
 *    file, which, as root, would turn /dev/full into one;
 *  - a symbolic link is followed, and the file it ends at is written (the
 *    link stays); a link someone else owns in a sticky shared directory
 *    is refused, as the kernel's protected_symlinks would;
 *  - a regular file (or none) is replaced whole, never half-written: the
 *    output goes to a temporary file beside it, renamed over it once
 *    complete, with the old file's mode;
 *  - a file we may write in a directory we may not (no temporary file can
 *    be made there) is written in place, with the guarantees that
 *    write_in_place() in outfile.c states.
 */
#ifndef TUI_OUTFILE_H
#define TUI_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* Write the output to OUT; returns a count of the caller's (rows; >= 0),
 * or -1 when writing failed (errno says why). */
typedef long outfile_fill(FILE *out, void *ctx);

/*
 * Write what FILL(out, CTX) writes (it is called once) to PATH, as
 * above.  Returns what FILL returned, or -1 with ERR (ERR_SIZE bytes)
 * set to "PATH: reason".
 */
long outfile_write(const char *path, outfile_fill *fill, void *ctx, char *err, size_t err_size);

#endif
