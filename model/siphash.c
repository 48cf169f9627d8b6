// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "siphash.h"

struct siphash_key hash_key;

static inline uint64_t rotl(uint64_t x, int b)
{
	return (x << b) | (x >> (64 - b));
}

struct sip {
	uint64_t v0, v1, v2, v3;
};

/* One SipRound: four add-rotate-xor pairs over the four state words. */
static inline void sip_round(struct sip *s)
{
	s->v0 += s->v1;
	s->v1 = rotl(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = rotl(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = rotl(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = rotl(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = rotl(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = rotl(s->v2, 32);
}

static inline void compress(struct sip *s, uint64_t m, int c_rounds)
{
	s->v3 ^= m;
	for (int i = 0; i < c_rounds; i++)
		sip_round(s);
	s->v0 ^= m;
}

/* Little-endian words, as the paper reads the message, whatever the
 * machine's byte order. */
static inline uint64_t load_le(const unsigned char *p, size_t n)
{
	uint64_t w = 0;

	for (size_t i = 0; i < n; i++)
		w |= (uint64_t)p[i] << (8 * i);
	return w;
}

static inline uint64_t sip(const struct siphash_key *key, const void *data, size_t n,
			   int c_rounds, int d_rounds)
{
	/* The initial state: the key xored with "somepseudorandomlygeneratedbytes". */
	struct sip s = {
		key->k0 ^ 0x736f6d6570736575ULL, key->k1 ^ 0x646f72616e646f6dULL,
		key->k0 ^ 0x6c7967656e657261ULL, key->k1 ^ 0x7465646279746573ULL,
	};
	const unsigned char *p = data;
	size_t whole = n & ~(size_t)7;

	for (size_t i = 0; i < whole; i += 8) {
		uint64_t m;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		memcpy(&m, p + i, 8);
#else
		m = load_le(p + i, 8);
#endif
		compress(&s, m, c_rounds);
	}
	/* The last word: the 0..7 bytes left, and the length's low byte on top. */
	compress(&s, load_le(p + whole, n - whole) | (uint64_t)n << 56, c_rounds);
	s.v2 ^= 0xff;
	for (int i = 0; i < d_rounds; i++)
		sip_round(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

uint64_t siphash13(const struct siphash_key *key, const void *s, size_t n)
{
	return sip(key, s, n, 1, 3);
}

uint64_t siphash24(const struct siphash_key *key, const void *s, size_t n)
{
	return sip(key, s, n, 2, 4);
}

static size_t read_urandom(void *buf, size_t n)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return got;
}

void siphash_key_random(struct siphash_key *key)
{
	struct timespec ts;
	ssize_t r;

	do
		r = getrandom(key, sizeof(*key), GRND_NONBLOCK);
	while (r < 0 && errno == EINTR);
	if (r == (ssize_t)sizeof(*key))
		return;
	if (read_urandom(key, sizeof(*key)) == sizeof(*key))
		return;
	/*
	 * No kernel randomness (an old kernel in a bare chroot, seccomp):
	 * what varies between runs.  Guessable by someone on the machine,
	 * but not by whoever wrote the profile days earlier.
	 */
	clock_gettime(CLOCK_REALTIME, &ts);
	key->k0 = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	key->k1 = (uint64_t)ts.tv_nsec << 32 ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)&ts;
	/* Spread those few varying bits over both words. */
	key->k0 = siphash13(key, "proftui", 7);
	key->k1 = siphash13(key, "hash key", 8);
}

/*
 * Before main(), so before any thread exists: the key is written once and
 * only read after, and the hashes need neither a lock nor a once-flag.
 * (A GCC and Clang extension, as are the attributes in util.h.)
 */
__attribute__((constructor)) static void hash_key_init(void)
{
	siphash_key_random(&hash_key);
}
