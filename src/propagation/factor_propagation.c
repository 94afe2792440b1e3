/*
 * factor_propagation.c - basic and aggressive factor propagation
 * (spec/propagation.md sections 3 and 4).  Basic propagation computes one
 * candidate list per factor, capped by every tensor that has the factor,
 * and processes factors in index order; aggressive propagation checks
 * closedness, replication and divisibility per receiving tensor and
 * resolves cross-factor conflicts by source-tensor size.  Both work on the
 * live projection: later factors see the expansions of earlier ones.
 */
#include "propagation/factor_propagation.h"
#include "util/checked.h"

#include <string.h>

static uint32_t
ntensors(const sli_proj *p)
{
	return p->nops + p->nres;
}

/* ====================================================================
 * Step 1: compatible major axes (spec 3.2)
 * ==================================================================== */

/* Merges the axes `nw` of one more tensor into acc; returns canExpand. */
static bool
merge_axes(const sli_proj *p, sli_axes *acc, const sli_axes *nw, bool can_expand)
{
	uint32_t i = 0;
	uint32_t nold = acc->n;
	while (i < nold && i < nw->n) {
		sl_axis_ref o = acc->v[i], n = nw->v[i];
		if (o.name != n.name) {
			acc->n = i;
			return false;
		}
		if (sli_axis_equal(&o, &n)) {
			i++;
			continue;
		}
		if (sli_axis_prefix_of(&n, &o)) {
			if (i + 1 < nw->n) {
				acc->v[i] = n;
				acc->n = i + 1;
				return false;
			}
			i++;
			continue;
		}
		if (sli_axis_prefix_of(&o, &n)) {
			if (!can_expand || i + 1 < nold) {
				acc->n = i + 1;
				return false;
			}
			acc->v[i] = n;
			i++;
			continue;
		}
		acc->n = i;
		return false;
	}
	if (can_expand)
		for (; i < nw->n; i++)
			sli_axes_push(p->arena, acc, nw->v[i]);
	return can_expand;
}

void
sli_compatible_axes(const sli_proj *p, uint32_t f, int dir, sli_axes *out)
{
	out->n = 0;
	if (dir == SL_DIR_NONE)
		return;
	bool back = dir == SL_DIR_BACKWARD;
	bool can_expand = true;
	for (int pass = 0; pass < 2; pass++) {
		bool results = back ? pass == 0 : pass == 1;
		uint32_t lo = results ? p->nops : 0;
		uint32_t hi = results ? ntensors(p) : p->nops;
		if (pass == 1 && dir != SL_DIR_BOTH)
			can_expand = false;
		for (uint32_t t = lo; t < hi; t++) {
			const sli_fsh *fs = &p->t[t].f[f];
			if (fs->present)
				can_expand = merge_axes(p, out, &fs->axes, can_expand);
		}
	}
}

/* ====================================================================
 * Step 2: conflicts (spec 3.3)
 * ==================================================================== */

/* Steps 3-7 of compatiblePrefix for tensor t, which has factor f. */
static bool
within_factor(const sli_proj *p, const sli_tproj *t, uint32_t f, sl_axis_ref c,
              int64_t prev, sl_axis_ref *out)
{
	const sli_fsh *fs = &t->f[f];
	for (uint32_t i = 0; i < t->replicated.n; i++)
		if (!sli_axis_prefix_without_overlap(&c, &t->replicated.v[i], &c))
			return false;
	for (uint32_t i = 0; i < t->unreduced.n; i++)
		if (!sli_axis_prefix_without_overlap(&c, &t->unreduced.v[i], &c))
			return false;
	for (uint32_t i = 0; i < fs->axes.n; i++)
		if (sli_axis_contains(&fs->axes.v[i], &c)) {
			*out = c;
			return true;
		}
	if (!fs->closed && !fs->overflow.n) {
		if (fs->minor_most) {
			*out = c;
			return true;
		}
		int64_t fsize = p->fsizes[f];
		if (prev > 0 && fsize % prev == 0) {
			int64_t csize = sli_axis_size(&c, p->mesh);
			int64_t g = llabs(sli_gcd64(fsize / prev, csize));
			if (g == csize) {
				*out = c;
				return true;
			}
			if (g > 1) {
				*out = sli_axis_piece(c.name, sli_axis_pre(&c), g, p->mesh);
				return true;
			}
		}
	}
	if (fs->axes.n && sli_axis_prefix_of(&fs->axes.v[fs->axes.n - 1], &c)) {
		*out = fs->axes.v[fs->axes.n - 1];
		return true;
	}
	return false;
}

/* Step 1 of compatiblePrefix: the axes tensor t uses for other factors. */
static bool
across_factors(const sli_proj *p, const sli_tproj *t, uint32_t f, sl_axis_ref c,
               sl_axis_ref *out)
{
	for (uint32_t g = 0; g < p->nfactors; g++) {
		const sli_fsh *gs = &t->f[g];
		if (g == f || !gs->present)
			continue;
		for (uint32_t i = 0; i < gs->overflow.n; i++)
			if (!sli_axis_prefix_without_overlap(&c, &gs->overflow.v[i], &c))
				return false;
		for (uint32_t i = 0; i < gs->axes.n; i++)
			if (!sli_axis_prefix_without_overlap(&c, &gs->axes.v[i], &c))
				return false;
	}
	*out = c;
	return true;
}

enum { CHECK_BOTH, CHECK_WITHIN, CHECK_ACROSS };

/* compatiblePrefix against one tensor (or all with t == NULL). */
static bool
prefix_for(const sli_proj *p, const sli_tproj *t, uint32_t f, int mode,
           sl_axis_ref c, int64_t prev, sl_axis_ref *out)
{
	if (!t) {
		for (uint32_t i = 0; i < ntensors(p); i++)
			if (!prefix_for(p, &p->t[i], f, CHECK_BOTH, c, prev, &c))
				return false;
		*out = c;
		return true;
	}
	if (mode != CHECK_WITHIN && !across_factors(p, t, f, c, &c))
		return false;
	if (mode != CHECK_ACROSS && t->f[f].present && !within_factor(p, t, f, c, prev, &c))
		return false;
	*out = c;
	return true;
}

/* Cuts L at the first conflict (spec 3.3). */
static void
truncate_axes(const sli_proj *p, const sli_tproj *t, uint32_t f, int mode,
              bool conservative, sli_axes *L)
{
	int64_t prev = 1;
	for (uint32_t i = 0; i < L->n; i++) {
		sl_axis_ref c;
		if (!prefix_for(p, t, f, mode, L->v[i], prev, &c) ||
		    (conservative && c.sub)) {
			L->n = i;
			return;
		}
		if (!sli_axis_equal(&c, &L->v[i])) {
			L->v[i] = c;
			L->n = i + 1;
			return;
		}
		prev = sli_mul_i64_sat(prev, sli_axis_size(&c, p->mesh));
	}
}

static bool
expand(sli_proj *p, sli_fsh *fs, const sli_axes *L)
{
	if (sli_axes_prefix_status(fs->axes.v, fs->axes.n, L->v, L->n) != SLI_STRICT_PREFIX)
		return false;
	sli_axes_set(p->arena, &fs->axes, L->v, L->n);
	return true;
}

/* ====================================================================
 * Basic propagation (spec 3.4)
 * ==================================================================== */

void
sli_propagate_basic(sli_proj *p, const uint8_t *dirs, bool conservative, bool *upd)
{
	sli_axes L = {0};
	memset(upd, 0, sizeof *upd * ntensors(p));
	for (uint32_t f = 0; f < p->nfactors; f++) {
		sli_compatible_axes(p, f, dirs[f], &L);
		if (!L.n)
			continue;
		truncate_axes(p, NULL, f, CHECK_BOTH, conservative, &L);
		if (!L.n)
			continue;
		for (uint32_t t = 0; t < ntensors(p); t++) {
			sli_fsh *fs = &p->t[t].f[f];
			if (fs->present && expand(p, fs, &L))
				upd[t] = true;
		}
	}
}

/* ====================================================================
 * Aggressive propagation (spec 4.1)
 * ==================================================================== */

typedef struct fkey {
	uint32_t f;
	int64_t src_size, shard_size, src_index;
} fkey;

static bool
key_less(const fkey *a, const fkey *b)
{
	if (a->src_size != b->src_size)
		return a->src_size > b->src_size;
	if (a->shard_size != b->shard_size)
		return a->shard_size > b->shard_size;
	if (a->src_index != b->src_index)
		return a->src_index < b->src_index;
	return a->f < b->f;
}

/* The axes factor f of tensor t may grow to, against t's live state. */
static void
candidate_for(const sli_proj *p, uint32_t ti, uint32_t f, const sli_axes *C,
              bool conservative, sli_axes *A)
{
	const sli_tproj *t = &p->t[ti];
	A->n = 0;
	/*
	 * A is C cut short, its last axis perhaps cut to a prefix of itself:
	 * it cannot strictly extend axes longer than C, or C itself.
	 */
	const sli_axes *have = &t->f[f].axes;
	if (!t->f[f].present || have->n > C->n ||
	    (have->n == C->n && sli_axis_list_equal(have->v, have->n, C->v, C->n)))
		return;
	sli_axes_set(p->arena, A, C->v, C->n);
	truncate_axes(p, t, f, CHECK_WITHIN, conservative, A);
	const sli_fsh *fs = &t->f[f];
	if (sli_axes_prefix_status(fs->axes.v, fs->axes.n, A->v, A->n) != SLI_STRICT_PREFIX) {
		A->n = 0;
		return;
	}
	truncate_axes(p, t, f, CHECK_ACROSS, conservative, A);
}

void
sli_propagate_aggressive(sli_proj *p, const uint8_t *dirs, bool conservative,
                         bool elementwise, bool *upd)
{
	uint32_t nf = p->nfactors, nt = ntensors(p);
	memset(upd, 0, sizeof *upd * nt);
	if (!nf)
		return;
	sli_axes *C = SL_NEWN(p->arena, sli_axes, nf);
	bool any = false;
	for (uint32_t f = 0; f < nf; f++) {
		sli_compatible_axes(p, f, dirs[f], &C[f]);
		any |= C[f].n > 0;
	}
	if (!any)
		return;

	fkey *keys = SL_NEWN(p->arena, fkey, nf);
	for (uint32_t f = 0; f < nf; f++) {
		keys[f].f = f;
		keys[f].src_size = -1;
		keys[f].src_index = -1;
	}
	for (uint32_t t = 0; t < nt; t++) {
		const sli_tproj *tp = &p->t[t];
		int64_t tsize = 1;
		for (uint32_t g = 0; g < nf; g++)
			if (tp->f[g].present)
				tsize = sli_mul_i64_sat(tsize, p->fsizes[g]);
		for (uint32_t g = 0; g < nf; g++) {
			if (!tp->f[g].present || !C[g].n)
				continue;
			if (sli_axes_prefix_status(C[g].v, C[g].n, tp->f[g].axes.v,
			                           tp->f[g].axes.n) == SLI_NOT_A_PREFIX)
				continue;
			if (tsize > keys[g].src_size) {
				keys[g].src_size = tsize;
				keys[g].src_index = t;
			}
		}
	}
	for (uint32_t f = 0; f < nf; f++)
		keys[f].shard_size = elementwise ? sli_axis_list_size(C[f].v, C[f].n, p->mesh) : 0;
	for (uint32_t i = 1; i < nf; i++) {
		fkey k = keys[i];
		uint32_t j = i;
		while (j > 0 && key_less(&k, &keys[j - 1])) {
			keys[j] = keys[j - 1];
			j--;
		}
		keys[j] = k;
	}

	sli_axes A = {0};
	for (uint32_t r = p->nops; r < nt; r++) {
		for (uint32_t k = 0; k < nf; k++) {
			uint32_t f = keys[k].f;
			if (!C[f].n)
				continue;
			candidate_for(p, r, f, &C[f], conservative, &A);
			if (A.n && expand(p, &p->t[r].f[f], &A))
				upd[r] = true;
		}
	}
	for (uint32_t o = 0; o < p->nops; o++) {
		for (uint32_t k = 0; k < nf; k++) {
			uint32_t f = keys[k].f;
			if (!C[f].n)
				continue;
			candidate_for(p, o, f, &C[f], conservative, &A);
			if (!A.n)
				continue;
			if (elementwise) {
				for (uint32_t r = p->nops; r < nt; r++) {
					const sli_fsh *rs = &p->t[r].f[f];
					if (rs->present &&
					    sli_axes_prefix_status(rs->axes.v, rs->axes.n, A.v, A.n) ==
					    SLI_STRICT_PREFIX)
						sli_axes_set(p->arena, &A, rs->axes.v, rs->axes.n);
				}
			}
			if (expand(p, &p->t[o].f[f], &A))
				upd[o] = true;
		}
	}
}
