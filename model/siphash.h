/* SPDX-License-Identifier: MIT */
/*
 * siphash: keyed hashing, so that a profile cannot be crafted to make the
 * hash tables that load it slow (issue 9).  SipHash (Aumasson and
 * Bernstein, 2012) is a pseudo-random function of a 128-bit key: without
 * the key, which names collide cannot be predicted.  The name table uses
 * SipHash-1-3 (one round per word, three at the end: what Python and Rust
 * settled on for hash tables); hash_u64() in util.h, for integer and
 * pointer keys, is a cheaper keyed mix of the same key.
 *
 * hash_key is drawn from the kernel (getrandom(2), else /dev/urandom, else
 * the time, pid and an address) once per process, before main() and so
 * before any thread: afterwards it is only read.
 */
#ifndef MODEL_SIPHASH_H
#define MODEL_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

struct siphash_key {
	uint64_t k0, k1;
};

/* The process's key; every table starts from it. */
extern struct siphash_key hash_key;

/* A fresh random key (for a table that wants its own; see strtab.c). */
void siphash_key_random(struct siphash_key *key);

/* SipHash-1-3 of the N bytes at S under KEY. */
uint64_t siphash13(const struct siphash_key *key, const void *s, size_t n);
/* SipHash-2-4, the paper's own variant: here so the tests can check the
 * shared code against the paper's test vector. */
uint64_t siphash24(const struct siphash_key *key, const void *s, size_t n);

#endif
