/* SPDX-License-Identifier: MIT */
/*
 * gunzip: streaming gzip decompression for input.c, through ISA-L's igzip
 * where the build found it (about three times zlib's speed: a gzipped
 * trace loads almost as fast as a plain one), else through zlib.  Both are
 * built in when ISA-L is: PROFTUI_GUNZIP=zlib picks zlib at run time, so
 * the tests run the same files through both.
 *
 * One gzip member at a time: at a member's end gunzip_run() says so, and
 * the caller decides whether another follows (gunzip_reset()).
 */
#ifndef PARSERS_GUNZIP_H
#define PARSERS_GUNZIP_H

#include <stddef.h>

enum gunzip_status {
	GUNZIP_MORE,		/* the output is full or the input used up */
	GUNZIP_MEMBER_END,	/* a gzip member ended, checksum checked */
	GUNZIP_ERROR,		/* corrupt data; *ERR says why */
};

struct gunzip;

/* A new decompressor (caller frees with gunzip_free()). */
struct gunzip *gunzip_new(void);
void gunzip_free(struct gunzip *g);
/* Start the next member afresh. */
void gunzip_reset(struct gunzip *g);
/*
 * Inflate from *IN (*IN_LEN bytes) into *OUT (*OUT_LEN bytes of room),
 * advancing all four by what was used and made.  On GUNZIP_ERROR, *ERR is
 * a static message.
 */
enum gunzip_status gunzip_run(struct gunzip *g, const unsigned char **in, size_t *in_len,
			      char **out, size_t *out_len, const char **err);
/* "isa-l" or "zlib 1.2.13": what gunzip_new() uses, for --version. */
const char *gunzip_backend(void);

#endif
