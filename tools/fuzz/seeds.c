// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine target's seed recorder: whole conversations with the
 * fuzz build of the engine (engine.c, pass-through crypto, seeded
 * randomness), played by a scripted client that reads the server's
 * flights and answers them, one file per conversation: the two
 * configuration bytes and every byte the client sent.
 *
 *   fuzz-seeds OUTDIR [CLIENTHELLO...]
 *
 * Its own ClientHellos cover both versions, every suite and group,
 * HelloRetryRequest, tickets and resumption in either version, and
 * the hand-backs; ClientHellos captured from real clients (capture.py)
 * are answered the same way.  Each conversation must end as planned,
 * else the recorder fails: a seed that no longer completes would hide
 * the states behind it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ktls_hs/p256.h>

#include "engine.h"
#include "fuzz.h"

#define SEED_MAX	(64 * 1024)
#define TAG_LEN		16

struct buf {
	u8 d[SEED_MAX];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > sizeof(b->d))
		abort();
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void put8(struct buf *b, unsigned int v)
{
	u8 c = v;

	put(b, &c, 1);
}

static void put16(struct buf *b, unsigned int v)
{
	put8(b, v >> 8);
	put8(b, v);
}

static void put24(struct buf *b, unsigned int v)
{
	put8(b, v >> 16);
	put16(b, v);
}

/* Back-patch a length of @bytes bytes in front of what followed @at. */
static void patch(struct buf *b, size_t at, unsigned int bytes)
{
	size_t len = b->n - at - bytes;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		b->d[at + i] = len >> (8 * (bytes - 1 - i));
}

/* ----------------------------------------------------- the client */

struct hello {
	u16 legacy_version;
	u16 versions[2];
	unsigned int nr_versions;
	u16 suites[4];
	unsigned int nr_suites;
	u16 groups[2];
	unsigned int nr_groups;
	u16 shares[2];
	unsigned int nr_shares;
	const char *sni;
	const char *alpn;	/* wire format */
	bool ems;
	bool early_data;
	bool ticket_ext;
	const u8 *ticket;
	size_t ticket_len;
	u8 sid_len;
	u8 psk_mode;		/* 0: no psk_key_exchange_modes */
	const u8 *cookie;
	size_t cookie_len;
	/* pre_shared_key, last */
	const u8 *psk_id;
	size_t psk_id_len;
	u32 psk_age;
	unsigned int binder_len;
};

static void share(struct buf *b, u16 group)
{
	u8 priv[KTLS_P256_SCALAR_LEN], pub[KTLS_P256_POINT_LEN];

	put16(b, group);
	if (group == 0x001d) {
		put16(b, 32);
		memset(pub, 0x42, 32);
		put(b, pub, 32);
		return;
	}
	memset(priv, 0x07, sizeof(priv));
	if (ktls_p256_public_key(pub, priv))
		abort();
	put16(b, sizeof(pub));
	put(b, pub, sizeof(pub));
}

static void client_hello(struct buf *out, const struct hello *h)
{
	struct buf *b = calloc(1, sizeof(*b));
	u8 random[32], sid[32];
	size_t at, ext;
	unsigned int i;

	memset(random, 0xc1, sizeof(random));
	memset(sid, 0x5d, sizeof(sid));
	put8(b, 1);
	at = b->n;
	put24(b, 0);
	put16(b, h->legacy_version ?: 0x0303);
	put(b, random, 32);
	put8(b, h->sid_len);
	put(b, sid, h->sid_len);
	put16(b, 2 * h->nr_suites);
	for (i = 0; i < h->nr_suites; i++)
		put16(b, h->suites[i]);
	put8(b, 1);
	put8(b, 0);
	ext = b->n;
	put16(b, 0);

	if (h->sni) {
		put16(b, 0x0000);
		put16(b, strlen(h->sni) + 5);
		put16(b, strlen(h->sni) + 3);
		put8(b, 0);
		put16(b, strlen(h->sni));
		put(b, h->sni, strlen(h->sni));
	}
	put16(b, 0x000a);
	put16(b, 2 + 2 * h->nr_groups);
	put16(b, 2 * h->nr_groups);
	for (i = 0; i < h->nr_groups; i++)
		put16(b, h->groups[i]);
	put16(b, 0x000b);
	put16(b, 2);
	put8(b, 1);
	put8(b, 0);
	put16(b, 0x000d);
	put16(b, 8);
	put16(b, 6);
	put16(b, 0x0403);
	put16(b, 0x0804);
	put16(b, 0x0503);
	if (h->alpn) {
		put16(b, 0x0010);
		put16(b, strlen(h->alpn) + 2);
		put16(b, strlen(h->alpn));
		put(b, h->alpn, strlen(h->alpn));
	}
	if (h->ems) {
		put16(b, 0x0017);
		put16(b, 0);
	}
	if (h->early_data) {
		put16(b, 0x002a);
		put16(b, 0);
	}
	if (h->ticket_ext) {
		put16(b, 0x0023);
		put16(b, h->ticket_len);
		put(b, h->ticket, h->ticket_len);
	}
	if (h->nr_versions) {
		put16(b, 0x002b);
		put16(b, 1 + 2 * h->nr_versions);
		put8(b, 2 * h->nr_versions);
		for (i = 0; i < h->nr_versions; i++)
			put16(b, h->versions[i]);
	}
	if (h->cookie) {
		put16(b, 0x002c);
		put16(b, h->cookie_len + 2);
		put16(b, h->cookie_len);
		put(b, h->cookie, h->cookie_len);
	}
	if (h->psk_mode) {
		put16(b, 0x002d);
		put16(b, 2);
		put8(b, 1);
		put8(b, h->psk_mode - 1);
	}
	if (h->nr_shares || (h->nr_versions && !h->psk_mode)) {
		size_t ks;

		put16(b, 0x0033);
		ks = b->n;
		put16(b, 0);
		put16(b, 0);
		for (i = 0; i < h->nr_shares; i++)
			share(b, h->shares[i]);
		patch(b, ks + 2, 2);
		patch(b, ks, 2);
	}
	if (h->psk_id) {
		u8 binder[48] = {};
		size_t p;

		put16(b, 0x0029);
		p = b->n;
		put16(b, 0);
		put16(b, h->psk_id_len + 6);
		put16(b, h->psk_id_len);
		put(b, h->psk_id, h->psk_id_len);
		put8(b, h->psk_age >> 24);
		put8(b, h->psk_age >> 16);
		put8(b, h->psk_age >> 8);
		put8(b, h->psk_age);
		/* Any binder: the pass-through build accepts it. */
		put16(b, h->binder_len + 1);
		put8(b, h->binder_len);
		put(b, binder, h->binder_len);
		patch(b, p, 2);
	}
	patch(b, ext, 2);
	patch(b, at, 3);

	put8(out, 22);
	put16(out, 0x0301);
	put16(out, b->n);
	put(out, b->d, b->n);
	free(b);
}

/* What the client learnt of the server's flights so far. */
struct seen {
	struct buf raw;		/* server bytes not parsed yet */
	bool sh, hrr, done;
	u16 version, suite, group;
	u8 cookie[512];
	size_t cookie_len;
	u8 ticket[2048];
	size_t ticket_len;
	u32 age_add;
	bool ccs;
};

static void on_output(void *ctx, const u8 *p, size_t n)
{
	put(&((struct seen *)ctx)->raw, p, n);
}

static const u8 hrr_random[32] = {
	0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02,
	0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e,
	0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
};

static u32 be(const u8 *p, unsigned int n)
{
	u32 v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

static void server_hello(struct seen *s, const u8 *m, size_t len)
{
	size_t off = 2 + 32, end;

	s->version = be(m, 2);
	s->hrr = !memcmp(m + 2, hrr_random, 32);
	s->sh = !s->hrr;
	off += 1 + m[off];
	s->suite = be(m + off, 2);
	off += 3;
	end = off + 2 + be(m + off, 2);
	for (off += 2; off + 4 <= end; off += 4 + be(m + off + 2, 2)) {
		u16 type = be(m + off, 2);
		const u8 *d = m + off + 4;

		if (type == 0x002b) {
			s->version = be(d, 2);
		} else if (type == 0x0033) {
			s->group = be(d, 2);
		} else if (type == 0x002c) {
			s->cookie_len = be(d, 2);
			memcpy(s->cookie, d + 2, s->cookie_len);
		}
	}
}

static void handshake(struct seen *s, const u8 *p, size_t len)
{
	while (len >= 4) {
		size_t mlen = be(p + 1, 3);

		if (p[0] == 2)
			server_hello(s, p + 4, mlen);
		else if (p[0] == 12)
			s->group = be(p + 4 + 1, 2);	/* named_curve */
		else if (p[0] == 4 && s->version == 0x0304) {
			s->age_add = be(p + 8, 4);
			s->ticket_len = be(p + 12 + 1 + p[12], 2);
			memcpy(s->ticket, p + 12 + 1 + p[12] + 2, s->ticket_len);
		} else if (p[0] == 4) {
			s->ticket_len = be(p + 8, 2);
			memcpy(s->ticket, p + 10, s->ticket_len);
		} else if (p[0] == 20) {
			s->done = true;
		}
		p += 4 + mlen;
		len -= 4 + mlen;
	}
}

/* Read the server's records; protected ones are plaintext here. */
static void read_server(struct seen *s)
{
	const u8 *p = s->raw.d;
	size_t left = s->raw.n;

	while (left >= 5 && left >= 5 + be(p + 3, 2)) {
		size_t len = be(p + 3, 2);

		unsigned int nonce = s->suite == 0xcca9 ? 0 : 8;

		if (p[0] == 20) {
			s->ccs = true;
		} else if (p[0] == 22 && (!s->ccs || s->version == 0x0304)) {
			handshake(s, p + 5, len);
		} else if (p[0] == 22 && s->version == 0x0303) {
			handshake(s, p + 5 + nonce, len - nonce - TAG_LEN);
		} else if (p[0] == 23 && len > TAG_LEN) {
			size_t n = len - TAG_LEN;

			while (n && !p[5 + n - 1])
				n--;
			if (n && p[5 + n - 1] == 22)
				handshake(s, p + 5, n - 1);
		}
		p += 5 + len;
		left -= 5 + len;
	}
	memmove(s->raw.d, p, left);
	s->raw.n = left;
}

static unsigned int hash_len(u16 suite)
{
	return suite == 0x1302 || suite == 0xc02c ? 48 : 32;
}

static void ccs(struct buf *b)
{
	static const u8 rec[] = { 20, 3, 3, 0, 1, 1 };

	put(b, rec, sizeof(rec));
}

/* The client's Finished, "encrypted" as the pass-through build does. */
static void finished(struct buf *b, const struct seen *s)
{
	u8 zero[48] = {};

	if (s->version == 0x0304) {
		unsigned int n = hash_len(s->suite);

		put8(b, 23);
		put16(b, 0x0303);
		put16(b, 4 + n + 1 + TAG_LEN);
		put8(b, 20);
		put24(b, n);
		put(b, zero, n);
		put8(b, 22);
	} else {
		unsigned int nonce = s->suite == 0xcca9 ? 0 : 8;

		put8(b, 22);
		put16(b, 0x0303);
		put16(b, nonce + 16 + TAG_LEN);
		put(b, zero, nonce);
		put8(b, 20);
		put24(b, 12);
		put(b, zero, 12);
	}
	put(b, zero, TAG_LEN);
}

static void client_key_exchange(struct buf *b, const struct seen *s)
{
	struct buf *m = calloc(1, sizeof(*m));

	share(m, s->group);
	/* The share less its group and 16-bit length, under an 8-bit one. */
	put8(b, 22);
	put16(b, 0x0303);
	put16(b, 4 + 1 + m->n - 4);
	put8(b, 16);
	put24(b, 1 + m->n - 4);
	put8(b, m->n - 4);
	put(b, m->d + 4, m->n - 4);
	free(m);
}

enum expect { EXPECT_DONE, EXPECT_FAILED, EXPECT_HANDED_BACK, EXPECT_ANY };

static int failures;

struct conv {
	struct fuzz_engine fe;
	struct buf sent;
	struct seen seen;
};

static void send(struct conv *c, const struct buf *b)
{
	put(&c->sent, b->d, b->n);
	fuzz_engine_feed(&c->fe, b->d, b->n, on_output, &c->seen);
	read_server(&c->seen);
}

/*
 * Play one conversation from @first (a ClientHello record) and, for a
 * HelloRetryRequest, @h again with the share asked for; save it.
 */
static void play(const char *dir, const char *name, u8 cfg0, u8 cfg1,
		 const struct buf *first, struct hello *h, enum expect want,
		 struct seen *out)
{
	static const char * const status[] = { "running", "done", "failed", "handed back" };
	struct conv *c = calloc(1, sizeof(*c));
	struct buf *b = calloc(1, sizeof(*b));
	u8 cfg[FUZZ_CFG_LEN] = { cfg0, cfg1 };
	enum ktls_hs_status st;
	char path[4096];
	bool resumed;
	FILE *f;

	if (fuzz_engine_init(&c->fe, cfg))
		abort();
	put(&c->sent, cfg, sizeof(cfg));
	send(c, first);
	if (c->seen.hrr && h) {
		h->shares[0] = c->seen.group;
		h->nr_shares = 1;
		if (c->seen.cookie_len) {
			h->cookie = c->seen.cookie;
			h->cookie_len = c->seen.cookie_len;
		}
		client_hello(b, h);
		send(c, b);
		b->n = 0;
	}
	if (c->seen.sh && c->seen.version == 0x0304) {
		ccs(b);
		finished(b, &c->seen);
	} else if (c->seen.sh && c->seen.done) {
		/* TLS 1.2 resumption: the server finished first. */
		ccs(b);
		finished(b, &c->seen);
	} else if (c->seen.sh) {
		client_key_exchange(b, &c->seen);
		ccs(b);
		finished(b, &c->seen);
	}
	if (b->n)
		send(c, b);

	st = ktls_hs_status(c->fe.hs);
	if ((want == EXPECT_DONE && st != KTLS_HS_DONE) ||
	    (want == EXPECT_FAILED && st != KTLS_HS_FAILED) ||
	    (want == EXPECT_HANDED_BACK && st != KTLS_HS_HANDED_BACK)) {
		fprintf(stderr, "seeds: %s: ended %s (alert %u)\n", name,
			status[st], ktls_hs_alert(c->fe.hs));
		failures++;
	}
	if (out)
		*out = c->seen;
	resumed = st == KTLS_HS_DONE && ktls_hs_session(c->fe.hs)->resumed;
	fuzz_engine_end(&c->fe);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(c->sent.d, 1, c->sent.n, f) != c->sent.n || fclose(f))
		abort();
	printf("seeds: %s: %zu bytes, %s%s%s, group 0x%04x\n", name,
	       c->sent.n, status[st],
	       c->seen.hrr ? " after HelloRetryRequest" : "",
	       resumed ? ", resumed" : "", c->seen.group);
	free(b);
	free(c);
}

static void play_hello(const char *dir, const char *name, u8 cfg0, u8 cfg1,
		       struct hello *h, enum expect want, struct seen *out)
{
	struct buf *b = calloc(1, sizeof(*b));

	client_hello(b, h);
	play(dir, name, cfg0, cfg1, b, h, want, out);
	free(b);
}

#define V13	0x01
#define V12	0x02
#define TICKETS	FUZZ_CFG_TICKETS

static struct hello hello13(u16 suite, u16 group)
{
	struct hello h = {
		.versions = { 0x0304 }, .nr_versions = 1,
		.suites = { suite }, .nr_suites = 1,
		.groups = { group }, .nr_groups = 1,
		.shares = { group }, .nr_shares = 1,
		.sni = "a.example", .sid_len = 32, .psk_mode = 2,
	};
	return h;
}

static struct hello hello12(u16 suite, u16 group)
{
	struct hello h = {
		.suites = { suite, 0x00ff }, .nr_suites = 2,
		/* An ECDSA certificate needs P-256 listed (RFC 8422 5.1.1). */
		.groups = { group, 0x0017 }, .nr_groups = 2,
		.sni = "a.example", .ems = true, .ticket_ext = true,
	};
	return h;
}

static void own_seeds(const char *dir)
{
	struct seen t13, t13_384, t12;
	struct hello h;

	h = hello13(0x1301, 0x001d);
	h.alpn = "\x02h2\x08http/1.1";
	play_hello(dir, "own-13-aes128-x25519-alpn-ticket", V13 | TICKETS |
		   FUZZ_CFG_ALPN, 0, &h, EXPECT_DONE, &t13);
	h = hello13(0x1302, 0x0017);
	play_hello(dir, "own-13-aes256-p256-ticket", V13 | TICKETS, 0, &h,
		   EXPECT_DONE, &t13_384);
	h = hello13(0x1303, 0x001d);
	h.sni = "b.example";
	play_hello(dir, "own-13-chacha-second-identity", V13,
		   FUZZ_CFG_TWO_IDS, &h, EXPECT_DONE, NULL);
	/* Only a P-256 share, X25519 listed: the server asks again. */
	h = hello13(0x1301, 0x0017);
	h.groups[1] = 0x001d;
	h.nr_groups = 2;
	play_hello(dir, "own-13-hrr", V13, FUZZ_CFG_NO_P256, &h, EXPECT_DONE,
		   NULL);
	h = hello13(0x1301, 0x001d);
	h.nr_versions = 2;
	h.versions[1] = 0x0303;
	h.suites[1] = 0xc02b;
	h.nr_suites = 2;
	h.ems = true;
	play_hello(dir, "own-13-or-12", 0, 0, &h, EXPECT_DONE, NULL);

	if (!t13.ticket_len) {
		fprintf(stderr, "seeds: no TLS 1.3 ticket\n");
		failures++;
	} else {
		h = hello13(0x1301, 0x001d);
		h.psk_id = t13.ticket;
		h.psk_id_len = t13.ticket_len;
		h.psk_age = t13.age_add;
		h.binder_len = 32;
		play_hello(dir, "own-13-resume-psk-dhe", V13 | TICKETS, 0, &h,
			   EXPECT_DONE, NULL);
		/* 0-RTT offered: refused, and its records to be skipped. */
		h.early_data = true;
		play_hello(dir, "own-13-resume-early-data", V13 | TICKETS, 0, &h,
			   EXPECT_DONE, NULL);
		h.early_data = false;
		h.psk_mode = 1;
		h.nr_shares = 0;
		play_hello(dir, "own-13-resume-psk-ke", V13 | TICKETS, 0, &h,
			   EXPECT_ANY, NULL);
	}
	if (t13_384.ticket_len) {
		h = hello13(0x1302, 0x0017);
		h.psk_id = t13_384.ticket;
		h.psk_id_len = t13_384.ticket_len;
		h.psk_age = t13_384.age_add;
		h.binder_len = 48;
		play_hello(dir, "own-13-resume-sha384", V13 | TICKETS, 0, &h,
			   EXPECT_DONE, NULL);
	}

	h = hello12(0xc02b, 0x001d);
	play_hello(dir, "own-12-aes128-x25519-ticket", V12 | TICKETS, 0, &h,
		   EXPECT_DONE, &t12);
	h = hello12(0xc02c, 0x0017);
	play_hello(dir, "own-12-aes256-p256", V12, 0, &h, EXPECT_DONE, NULL);
	h = hello12(0xcca9, 0x001d);
	h.ems = false;
	play_hello(dir, "own-12-chacha-no-ems", V12 | FUZZ_CFG_EMS_OPTIONAL, 0,
		   &h, EXPECT_DONE, NULL);
	if (!t12.ticket_len) {
		fprintf(stderr, "seeds: no TLS 1.2 ticket\n");
		failures++;
	} else {
		h = hello12(0xc02b, 0x001d);
		h.ticket = t12.ticket;
		h.ticket_len = t12.ticket_len;
		h.sid_len = 32;
		play_hello(dir, "own-12-resume-ticket", V12 | TICKETS, 0, &h,
			   EXPECT_DONE, NULL);
	}

	/* What the configuration lacks, handed back to userspace. */
	h = hello12(0xc02b, 0x001d);
	play_hello(dir, "own-fallback-12-to-13-only", V13 | FUZZ_CFG_FALLBACK,
		   0, &h, EXPECT_HANDED_BACK, NULL);
	h = hello13(0x1301, 0x001d);
	h.sni = "z.example";
	play_hello(dir, "own-sni-fallback", V13 | FUZZ_CFG_FALLBACK |
		   KTLS_HS_SNI_FALLBACK << FUZZ_CFG_SNI_SHIFT, 0, &h,
		   EXPECT_HANDED_BACK, NULL);
	play_hello(dir, "own-sni-reject", V13 |
		   KTLS_HS_SNI_REJECT << FUZZ_CFG_SNI_SHIFT, 0, &h,
		   EXPECT_FAILED, NULL);
}

/* A captured ClientHello, answered under the usual configurations. */
static void captured(const char *dir, const char *path)
{
	static const u8 cfgs[][2] = {
		{ 0, 0 }, { TICKETS | FUZZ_CFG_ALPN, 0 },
		{ V12 | TICKETS | FUZZ_CFG_EMS_OPTIONAL, 0 },
	};
	struct buf *b = calloc(1, sizeof(*b));
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char name[256];
	unsigned int i;
	FILE *f;

	f = fopen(path, "rb");
	if (!f)
		abort();
	b->n = fread(b->d, 1, sizeof(b->d), f);
	fclose(f);
	for (i = 0; i < ARRAY_SIZE(cfgs); i++) {
		snprintf(name, sizeof(name), "client-%s-%u", base, i);
		play(dir, name, cfgs[i][0], cfgs[i][1], b, NULL, EXPECT_ANY,
		     NULL);
	}
	free(b);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s OUTDIR [CLIENTHELLO...]\n", argv[0]);
		return 2;
	}
	own_seeds(argv[1]);
	for (i = 2; i < argc; i++)
		captured(argv[1], argv[i]);
	return failures ? 1 : 0;
}
