/* SPDX-License-Identifier: MIT */
/*
 * summary: a compact, versioned text file of one profile's aggregated
 * tables, made where the trace is (`proftui --summary -o R.summary T`,
 * one per rank, run by the cluster's own scheduler) and opened many at a
 * time (`proftui *.summary`) where the traces would not fit.  It holds
 * every table a pane shows except the call tree and the timeline: the
 * op and kernel rows (per step, so a step still narrows them), the steps
 * and their categories, the Distributed figures (each step's overlap,
 * every collective call with its kernel ranges), the devices, the
 * distributed info, the metadata and the warnings.  Opened, it is a
 * profile whose panes print what the trace's print, number for number.
 *
 * The format, version 4 (proftui-summary(5) documents it for readers):
 * UTF-8 text, one record per line, fields separated by a tab; text
 * fields have backslash, tab, newline and other control bytes escaped as
 * \\, \t, \n, \r and \xNN; times are integer nanoseconds; a name, when a
 * record has one, is its last field.  The first line is
 * "proftui-summary<TAB>4"; the last line is "end".  Version 3 lacks the
 * analyses (the Rank analyses pane's row of its rank is empty), version 2
 * the input shapes too (its op records sum the shapes of a name), version
 * 1 the cut record too; all are still read.  Records, in this order:
 *
 *   source  PATH                     the trace it summarises
 *   format  NAME                     the parser that read it
 *   cut     WHERE                    the trace was cut: its load stopped
 *                                    at WHERE (-k), the tables hold what
 *                                    came before (version 2 on)
 *   flags   DEVICE TIMELINE          has device time, has start times (0/1)
 *   dist    PRESENT RANK WORLD BACKEND
 *   device  ID MEM CCMAJ CCMIN SMS THR/SM THR/BLK REGS/SM WARP SMEM/SM NAME
 *   meta    SECTION KEY VALUE
 *   warning COUNT TEXT
 *   cats    N NAME...                step categories
 *   step    START END TOTAL CAT... NAME   (a category is -1 where none)
 *   stepattr KEY TYPE VALUE          of the step before (TYPE i, n, d, s)
 *   name    TEXT                     the names rows refer to, numbered from 0
 *   op      AT KIND FLAGS CALLS HOSTSELF HOSTTOTAL DEVSELF DEVTOTAL MIN MAX NAMENR
 *   kernel  AT FLAGS CALLS DEVSELF DEVTOTAL MIN MAX BLOCKS/SM OCCUPANCY NAMENR
 *   attr    KEY TYPE VALUE           of the op or kernel before (an op of
 *                                    a Kineto trace: its tensor-core sums,
 *                                    aggregate.h's ATTR_FILE_TC_*; an op
 *                                    record of several rows: their
 *                                    shapes, ATTR_FILE_INPUT_SHAPES)
 *   overlap STEP COMPUTATION OVERLAP COMMUNICATION OTHER
 *   comm    HAS_COMMUNICATION
 *   call    STEP BYTES START END N S1 E1 ... SN EN NAMENR
 *   temporal EVENTS KERNEL IDLE COMPUTE NONCOMPUTE CAPPED
 *                                    the temporal breakdown (version 4 on:
 *                                    this and the records below are the
 *                                    analyses, model/rank_analysis.h;
 *                                    none, or all of temporal, ktypes,
 *                                    idle, launch and its launchdists)
 *   ktypes  C1 ... C7                the time of each kernel-type class,
 *                                    by its bits (temporal.h)
 *   idle    STREAMS HOST KERNEL OTHER  the idle totals over the streams
 *   launch  COUNT SHORT RUNTIME DELAY  the launches and their classes
 *                                    (launch_stats.h)
 *   launchdist FIGURE COUNT TOTAL CAPPED MEAN STD MIN P50 P90 P99 MAX
 *                                    a figure's distribution, one record
 *                                    per figure in launch_stats.h's order
 *                                    (cpu_duration, gpu_duration,
 *                                    launch_delay); the statistics "%.17g"
 *                                    (they read back bit-exact), "-" where
 *                                    none (NaN)
 *   iter    N START END              the span of ProfilerStep#N's events
 *                                    (straggler.h), by N
 *   nccl    STREAM N START DUR NAMENR  an ncclKernel of step N > 0
 *   end
 *
 * An op or kernel record is the sum of the trace's nodes of one name (an
 * op's: and one input shape) that started in one step, in the order the
 * trace's walk first met each (name, shape, step); AT is "sN" (the start of step N) or "-" (a time after the
 * last step, for the nodes of no step): summed over the steps they are
 * the trace's rows, in its order, and within one step they are the
 * step's.  A kernel record carries its kernels' duration-weighted blocks
 * per SM and occupancy ("-" where none had them), so the Kernels pane's
 * means come out the trace's.  Where steps overlap (or a profile has no
 * times) each row of the trace is a record of its own, AT its start.
 */
#ifndef MODEL_SUMMARY_H
#define MODEL_SUMMARY_H

#include "profile.h"
#include "strbuf.h"

#define SUMMARY_MAGIC "proftui-summary"
/* Version 2 added the cut record, version 3 the input shapes, version 4
 * the analyses. */
#define SUMMARY_VERSION 4
#define SUMMARY_VERSION_CUT 2
#define SUMMARY_VERSION_SHAPES 3
#define SUMMARY_VERSION_ANALYSES 4

/* The warning of a summary whose row sums stopped at SUM_CAP (bounds.h). */
#define SUMMARY_CAPPED "summary rows whose sums reached the cap (2.3e18 ns, 73 years) and stopped there"

/* Append P's summary (the format above) to OUT. */
void summary_write(const struct profile *p, struct strbuf *out);

/* Append S escaped for a summary field (the reader's summary_unescape()
 * undoes it). */
void summary_escape(struct strbuf *out, const char *s);
/* Undo summary_escape() on S[0..N) in place; returns the new length, or
 * -1 for a bad escape (a lone backslash, a bad \x). */
long summary_unescape(char *s, size_t n);

#endif
