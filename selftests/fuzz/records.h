/* SPDX-License-Identifier: GPL-2.0 */
/*
 * records.h - event records for the fuzz targets that read records (the
 * filter evaluator, hist trigger evaluation): plausible values, strings
 * and locators, corrupt locators, char * "addresses" that can or cannot
 * be read (schemas.h), and records cut short. Each record is in a malloc()
 * buffer of exactly its length, so ASan sees any read past it.
 */
#ifndef _KHIST_FUZZ_RECORDS_H
#define _KHIST_FUZZ_RECORDS_H

#include "schemas.h"

#define FZ_REC_MAX 512

static u64 fz_rng;

static inline u32 fz_rnd(u32 n)
{
	fz_rng = fz_rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return n ? (u32)(fz_rng >> 33) % n : 0;
}

static inline u64 fz_fnv(const u8 *p, size_t n)
{
	u64 h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

struct fz_rec {
	u8 *p;
	unsigned int len;
};

/* Record number @k for @sc (odd @k: random bytes, k % 4 == 3: cut short). */
static inline void fz_gen_record(const struct khist_event_schema *sc,
				 struct fz_rec *r, unsigned int k)
{
	unsigned int fixed = sc->rec_size, len, i, dyn;
	u8 buf[FZ_REC_MAX];
	u32 loc;

	memset(buf, 0, sizeof(buf));
	len = fixed + 200;
	for (i = 0; i < len; i++)
		buf[i] = k & 1 ? fz_rnd(256) : "ab*?[]\\ 0129"[fz_rnd(12)];
	dyn = fixed;
	for (i = 0; i < sc->nr_fields; i++) {
		const struct khist_field_desc *d = &sc->fields[i];
		u32 n = fz_rnd(d->kind == KHIST_FK_STACKTRACE ? 160 : 24);

		switch (d->kind) {
		case KHIST_FK_INT:
			if (fz_rnd(2))
				memset(buf + d->offset, 0, d->size);
			if (fz_rnd(3) == 0)
				buf[d->offset] = fz_rnd(8);
			break;
		case KHIST_FK_STRING:
			buf[d->offset + fz_rnd(d->size)] = '\0';
			break;
		case KHIST_FK_DYNSTRING:
		case KHIST_FK_RELSTRING:
		case KHIST_FK_DYNARRAY:
		case KHIST_FK_STACKTRACE:
		case KHIST_FK_CPUMASK:
			/* Mostly valid, sometimes past the end or unterminated. */
			if (dyn + n > len)
				n = len - dyn;
			if (n && fz_rnd(4))
				buf[dyn + n - 1] = '\0';
			loc = n << 16;
			if (d->kind == KHIST_FK_RELSTRING)
				loc |= (dyn - d->offset - 4) & 0xffff;
			else
				loc |= dyn;
			if (fz_rnd(6) == 0)
				loc = (u32)fz_rnd(0x7fffffff) * 2 + fz_rnd(2);
			memcpy(buf + d->offset, &loc, 4);
			dyn += n;
			break;
		case KHIST_FK_PTRSTRING: {
			u64 a = fz_rnd(4) ? fz_rnd(FZ_NR_STRS) : fz_rng;

			memcpy(buf + d->offset, &a, 8);
			break;
		}
		default:
			break;
		}
	}
	/* Sometimes cut short, down to nothing. */
	if (k % 4 == 3)
		len = fz_rnd(len + 1);
	r->len = len;
	r->p = malloc(len ? len : 1);
	memcpy(r->p, buf, len);
}

#endif /* _KHIST_FUZZ_RECORDS_H */
