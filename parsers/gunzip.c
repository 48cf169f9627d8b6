// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "../model/util.h"
#include "gunzip.h"

struct gunzip {
	int use_isal;
	z_stream z;
#ifdef HAVE_ISAL
	struct inflate_state *isal;
#endif
};

static int want_isal(void)
{
#ifdef HAVE_ISAL
	const char *e = getenv("PROFTUI_GUNZIP");

	return !e || strcmp(e, "zlib");
#else
	return 0;
#endif
}

const char *gunzip_backend(void)
{
	static char buf[64];

	if (want_isal())
		return "isa-l igzip";
	snprintf(buf, sizeof(buf), "zlib %s", zlibVersion());
	return buf;
}

struct gunzip *gunzip_new(void)
{
	struct gunzip *g = xcalloc(1, sizeof(*g));

	g->use_isal = want_isal();
#ifdef HAVE_ISAL
	if (g->use_isal) {
		g->isal = xmalloc(sizeof(*g->isal));
		gunzip_reset(g);
		return g;
	}
#endif
	/* 16 + MAX_WBITS: a gzip wrapper, its checksum checked. */
	if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK)
		die("out of memory");
	return g;
}

void gunzip_free(struct gunzip *g)
{
	if (!g)
		return;
#ifdef HAVE_ISAL
	free(g->isal);
#endif
	if (!g->use_isal)
		inflateEnd(&g->z);
	free(g);
}

void gunzip_reset(struct gunzip *g)
{
#ifdef HAVE_ISAL
	if (g->use_isal) {
		isal_inflate_init(g->isal);
		g->isal->crc_flag = ISAL_GZIP;
		return;
	}
#endif
	inflateReset(&g->z);
}

#ifdef HAVE_ISAL
static enum gunzip_status run_isal(struct gunzip *g, const unsigned char **in, size_t *in_len,
				   char **out, size_t *out_len, const char **err)
{
	struct inflate_state *s = g->isal;
	int rc;

	s->next_in = (uint8_t *)*in;
	s->avail_in = (uint32_t)(*in_len > UINT32_MAX ? UINT32_MAX : *in_len);
	s->next_out = (uint8_t *)*out;
	s->avail_out = (uint32_t)(*out_len > UINT32_MAX ? UINT32_MAX : *out_len);
	rc = isal_inflate(s);
	*in_len -= (size_t)(s->next_in - *in);
	*in = s->next_in;
	*out_len -= (size_t)((char *)s->next_out - *out);
	*out = (char *)s->next_out;
	if (rc < 0) {
		*err = rc == ISAL_INCORRECT_CHECKSUM ? "incorrect data check" :
		       rc == ISAL_INVALID_WRAPPER ? "incorrect header check" :
						    "invalid compressed data";
		return GUNZIP_ERROR;
	}
	return s->block_state == ISAL_BLOCK_FINISH ? GUNZIP_MEMBER_END : GUNZIP_MORE;
}
#endif

enum gunzip_status gunzip_run(struct gunzip *g, const unsigned char **in, size_t *in_len,
			      char **out, size_t *out_len, const char **err)
{
	z_stream *z = &g->z;
	int rc;

#ifdef HAVE_ISAL
	if (g->use_isal)
		return run_isal(g, in, in_len, out, out_len, err);
#endif
	z->next_in = (unsigned char *)*in;
	z->avail_in = (uInt)(*in_len > UINT32_MAX ? UINT32_MAX : *in_len);
	z->next_out = (unsigned char *)*out;
	z->avail_out = (uInt)(*out_len > UINT32_MAX ? UINT32_MAX : *out_len);
	rc = inflate(z, Z_NO_FLUSH);
	*in_len -= (size_t)(z->next_in - *in);
	*in = z->next_in;
	*out_len -= (size_t)((char *)z->next_out - *out);
	*out = (char *)z->next_out;
	if (rc == Z_STREAM_END)
		return GUNZIP_MEMBER_END;
	if (rc != Z_OK && rc != Z_BUF_ERROR) {
		*err = z->msg ? z->msg : "corrupt gzip data";
		return GUNZIP_ERROR;
	}
	return GUNZIP_MORE;
}
