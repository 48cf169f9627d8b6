/* SPDX-License-Identifier: MIT */
/*
 * rocprof: what ROCm's profilers write as CSV (doc/formats/rocprof.md).
 * rocprof (v1, v2) and rocprofv3 write one file per table, every field
 * quoted or bare, a header line first: kernel and HIP API statistics
 * ("Name","Calls","TotalDurationNs",...), kernel traces (v1's
 * results.csv, v3's *_kernel_trace.csv) and HIP API traces (v3's
 * *_hip_api_trace.csv).  The two parsers of the family share the CSV
 * reader here.
 */
#ifndef PARSERS_ROCPROF_H
#define PARSERS_ROCPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../diag.h"
#include "../text.h"

/* The most columns a line may have: rocprofv3's widest table has 23. */
#define ROCPROF_MAX_COLS 64
/* The longest field: a kernel name of C++ templates runs to a few KB. */
#define ROCPROF_MAX_FIELD (64 * 1024)

/*
 * Split LINE (LEN bytes, modified: a quoted field's "" becomes ") into
 * its comma-separated fields, quoted or not; each field's col is its
 * byte column in the line, 0-based, where its text begins.  Returns how
 * many (at most ROCPROF_MAX_COLS), or -1 with *WHY and *AT_COL (0-based)
 * set: a quote left open, text after a closing quote, a field longer than
 * ROCPROF_MAX_FIELD, more than ROCPROF_MAX_COLS fields.
 */
int rocprof_split(char *line, size_t len, struct field *out, const char **why, size_t *at_col);

/* rocprof_split() on LINE past its first SKIP bytes (a BOM), reporting a
 * broken line as LINENO:COL: error; the fields, or -1. */
int rocprof_fields(struct diag *d, char *line, size_t len, size_t skip, uint64_t lineno,
		   struct field *out);

/* Where the header starts in the head of a file: past a UTF-8 BOM. */
size_t rocprof_bom(const char *s, size_t len);

/* The index of the column titled NAME among the NR header fields, or -1. */
int rocprof_col(const struct field *hdr, int nr, const char *name);

/*
 * Split the first line of HEAD (LEN bytes, possibly cut short) into its
 * header fields, quoted (rocprof, rocprofv3) or not (rocprofv2's file
 * plugin), copying it into BUF (CAP bytes); -1 when it is no complete
 * CSV line.
 */
int rocprof_probe_header(const char *head, size_t len, char *buf, size_t cap,
			 struct field *out);

#endif
