/*
 * projection.c - sharding projection both ways (spec/propagation.md 2.3,
 * 2.4).  Non-minor-most factors take gcd-sized pieces of the dimension's
 * axes; a coprime remainder becomes overflow and closes the next factor;
 * the minor-most factor takes whatever is left.  Back-projection stops at
 * the first factor that is not fully sharded and re-merges sub-axes.
 */
#include "propagation/projection.h"

#include <string.h>

void
sli_axes_push(sli_arena *a, sli_axes *v, sl_axis_ref r)
{
	if (v->n >= v->cap) {	/* cap 0 with n > 0: borrowed axes, copied on write */
		uint32_t cap = v->n >= 2 ? v->n * 2 : 4;
		sl_axis_ref *nv = sli_arena_alloc(a, sizeof *nv * cap);
		if (v->n)
			memcpy(nv, v->v, sizeof *nv * v->n);
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->n++] = r;
}

void
sli_axes_add_or_merge(sli_arena *a, const sl_mesh *mesh, sli_axes *v, sl_axis_ref r)
{
	if (v->n && sli_axis_can_merge(&v->v[v->n - 1], &r)) {
		if (!v->cap)	/* borrowed: copy before writing */
			sli_axes_set(a, v, v->v, v->n);
		v->v[v->n - 1] = sli_axis_merge(&v->v[v->n - 1], &r, mesh);
		return;
	}
	sli_axes_push(a, v, r);
}

void
sli_axes_set(sli_arena *a, sli_axes *v, const sl_axis_ref *src, uint32_t n)
{
	if (n > v->cap) {
		v->v = sli_arena_alloc(a, sizeof *v->v * n);
		v->cap = n;
	}
	if (n)
		memmove(v->v, src, sizeof *src * n);
	v->n = n;
}

sl_axis_ref
sli_axis_piece(sl_sym name, int64_t pre, int64_t size, const sl_mesh *mesh)
{
	if (pre == 1 && size == sli_mesh_axis_size(mesh, name))
		return sli_axis_full(name);
	return sli_axis_sub(name, pre, size);
}

int
sli_axes_prefix_status(const sl_axis_ref *a, uint32_t na, const sl_axis_ref *b,
                       uint32_t nb)
{
	if (na == nb && sli_axis_list_equal(a, na, b, nb))
		return SLI_EQUAL;
	if (na == 0)
		return nb ? SLI_STRICT_PREFIX : SLI_EQUAL;
	if (na > nb)
		return SLI_NOT_A_PREFIX;
	for (uint32_t i = 0; i + 1 < na; i++)
		if (!sli_axis_equal(&a[i], &b[i]))
			return SLI_NOT_A_PREFIX;
	if (!sli_axis_prefix_of(&a[na - 1], &b[na - 1]))
		return SLI_NOT_A_PREFIX;
	return SLI_STRICT_PREFIX;
}

void
sli_proj_init(sli_proj *p, sli_arena *a, const sl_mesh *mesh, const int64_t *fsizes,
              uint32_t nfactors, uint32_t nops, uint32_t nres)
{
	p->arena = a;
	p->mesh = mesh;
	p->fsizes = fsizes;
	p->nfactors = nfactors;
	p->nops = nops;
	p->nres = nres;
	uint32_t nt = nops + nres, nf = nfactors ? nfactors : 1;
	p->t = SL_NEWN(a, sli_tproj, nt);
	sli_fsh *f = SL_NEWN(a, sli_fsh, (size_t)nt * nf);
	for (uint32_t i = 0; i < nt; i++)
		p->t[i].f = f + (size_t)i * nf;
}

/* The remaining piece of the dimension's axis being distributed. */
typedef struct cursor {
	const sl_axis_ref *axes;
	uint32_t n, i;
	sl_sym name;
	int64_t pre, size;
} cursor;

static void
cursor_load(cursor *c, const sl_mesh *mesh)
{
	if (c->i >= c->n)
		return;
	const sl_axis_ref *r = &c->axes[c->i];
	c->name = r->name;
	c->pre = sli_axis_pre(r);
	c->size = sli_axis_size(r, mesh);
}

static sl_axis_ref
cursor_ref(const cursor *c, const sl_mesh *mesh)
{
	return sli_axis_piece(c->name, c->pre, c->size, mesh);
}

static void
cursor_rest(sli_proj *p, cursor *c, sli_axes *out)
{
	if (c->i >= c->n)
		return;
	sli_axes_add_or_merge(p->arena, p->mesh, out, cursor_ref(c, p->mesh));
	for (uint32_t j = c->i + 1; j < c->n; j++)
		sli_axes_add_or_merge(p->arena, p->mesh, out, c->axes[j]);
	c->i = c->n;
}

/* Spec 2.3: one dimension of tensor t with mapping dm and sharding d. */
static void
project_dim(sli_proj *p, sli_tproj *t, const sl_dim_mapping *dm,
            const sl_dim_sharding *d)
{
	cursor c = {d ? d->axes.v : NULL, d ? d->axes.n : 0, 0, 0, 0, 0};
	bool closed = d && !d->open;
	if (dm->n == 1 && c.n) {
		/*
		 * One factor takes the whole dimension: full axes are its axes
		 * as written (none merge), borrowed until someone writes.
		 */
		bool full = true;
		for (uint32_t i = 0; i < c.n && full; i++)
			full = !c.axes[i].sub;
		if (full) {
			sli_fsh *fs = &t->f[dm->factors[0]];
			fs->present = true;
			fs->closed = closed;
			fs->minor_most = true;
			fs->axes.v = (sl_axis_ref *)c.axes;
			fs->axes.n = c.n;
			fs->axes.cap = 0;
			return;
		}
	}
	bool overflow_seen = false;
	cursor_load(&c, p->mesh);
	for (uint32_t k = 0; k < dm->n; k++) {
		uint32_t f = dm->factors[k];
		sli_fsh *fs = &t->f[f];
		fs->present = true;
		fs->closed = closed;
		fs->minor_most = k + 1 == dm->n;
		if (overflow_seen) {
			/* Quirk A1: the factor after an overflow is closed and
			 * empty, the ones after it get no entry at all. */
			fs->closed = true;
			return;
		}
		if (fs->minor_most) {
			cursor_rest(p, &c, &fs->axes);
			return;
		}
		int64_t rem = p->fsizes[f];
		while (c.i < c.n) {
			if (c.size == 1) {
				sli_axes_push(p->arena, &fs->axes, cursor_ref(&c, p->mesh));
				c.i++;
				cursor_load(&c, p->mesh);
				continue;
			}
			int64_t g = llabs(sli_gcd64(rem, c.size));
			if (g <= 1)
				break;
			if (c.size > g) {
				sli_axes_push(p->arena, &fs->axes,
				              sli_axis_piece(c.name, c.pre, g, p->mesh));
				c.pre *= g;
				c.size /= g;
				rem /= g;
			} else {
				sli_axes_push(p->arena, &fs->axes, cursor_ref(&c, p->mesh));
				rem /= c.size;
				c.i++;
				cursor_load(&c, p->mesh);
			}
		}
		if (rem > 1 && c.i < c.n) {
			cursor_rest(p, &c, &fs->overflow);
			overflow_seen = true;
		}
	}
}

void
sli_proj_tensor(sli_proj *p, uint32_t ti, const sl_tensor_mapping *map,
                const sl_sharding *s)
{
	sli_tproj *t = &p->t[ti];
	t->map = map;
	if (s) {
		t->replicated = s->replicated;
		t->unreduced = s->unreduced;
		t->reduction = s->reduction;
	}
	for (uint32_t d = 0; d < map->rank; d++)
		project_dim(p, t, &map->dims[d], s && d < s->rank ? &s->dims[d] : NULL);
}

sl_sharding *
sli_proj_back(sli_arena *arena, const sli_proj *p, uint32_t ti, sl_sym name,
              sl_mesh *inline_mesh)
{
	const sli_tproj *t = &p->t[ti];
	sl_sharding *s = SL_NEW(arena, sl_sharding);
	s->mesh_name = name;
	s->mesh = name ? NULL : inline_mesh;
	s->rank = t->map->rank;
	s->dims = SL_NEWN(arena, sl_dim_sharding, s->rank ? s->rank : 1);
	s->replicated = t->replicated;
	s->unreduced = t->unreduced;
	s->reduction = t->reduction;
	sli_axes axes = {0};
	for (uint32_t d = 0; d < t->map->rank; d++) {
		const sl_dim_mapping *dm = &t->map->dims[d];
		bool closed = false;
		axes.n = 0;
		for (uint32_t k = 0; k < dm->n; k++) {
			const sli_fsh *fs = &t->f[dm->factors[k]];
			closed |= fs->closed;
			for (uint32_t j = 0; j < fs->axes.n; j++) {
				if (j == 0)
					sli_axes_add_or_merge(p->arena, p->mesh, &axes, fs->axes.v[j]);
				else
					sli_axes_push(p->arena, &axes, fs->axes.v[j]);
			}
			if (fs->overflow.n) {
				for (uint32_t j = 0; j < fs->overflow.n; j++) {
					if (j == 0)
						sli_axes_add_or_merge(p->arena, p->mesh, &axes,
						                      fs->overflow.v[j]);
					else
						sli_axes_push(p->arena, &axes, fs->overflow.v[j]);
				}
				break;
			}
			if (sli_axis_list_size(fs->axes.v, fs->axes.n, p->mesh) <
			    p->fsizes[dm->factors[k]])
				break;
		}
		sl_dim_sharding *ds = &s->dims[d];
		ds->open = !closed;
		ds->priority = SL_NO_PRIORITY;
		ds->axes.n = axes.n;
		ds->axes.v = axes.n ? sli_arena_dup(arena, axes.v, sizeof *axes.v * axes.n)
		                    : NULL;
	}
	return s;
}

static void
copy_axes(sli_arena *a, sli_axes *dst, const sli_axes *src)
{
	dst->v = NULL;
	dst->n = dst->cap = 0;
	if (src->n)
		sli_axes_set(a, dst, src->v, src->n);
}

void
sli_proj_copy(sli_proj *dst, const sli_proj *src)
{
	*dst = *src;
	uint32_t nt = src->nops + src->nres;
	dst->t = SL_NEWN(src->arena, sli_tproj, nt);
	for (uint32_t i = 0; i < nt; i++) {
		dst->t[i] = src->t[i];
		dst->t[i].f = SL_NEWN(src->arena, sli_fsh, src->nfactors ? src->nfactors : 1);
		for (uint32_t f = 0; f < src->nfactors; f++) {
			dst->t[i].f[f] = src->t[i].f[f];
			copy_axes(src->arena, &dst->t[i].f[f].axes, &src->t[i].f[f].axes);
			copy_axes(src->arena, &dst->t[i].f[f].overflow, &src->t[i].f[f].overflow);
		}
	}
}

void
sli_rule_identity(sli_arena *a, const sl_type *type, uint32_t nops, uint32_t nres,
                  sl_rule *out)
{
	uint32_t rank = type->kind == SL_TYPE_TENSOR && !type->unranked ? type->rank : 0;
	memset(out, 0, sizeof *out);
	out->nfactors = rank;
	out->factor_sizes = SL_NEWN(a, int64_t, rank ? rank : 1);
	sl_tensor_mapping tm;
	tm.rank = rank;
	tm.dims = SL_NEWN(a, sl_dim_mapping, rank ? rank : 1);
	uint32_t *idx = SL_NEWN(a, uint32_t, rank ? rank : 1);
	for (uint32_t d = 0; d < rank; d++) {
		out->factor_sizes[d] = type->dims[d];
		idx[d] = d;
		tm.dims[d].factors = &idx[d];
		tm.dims[d].n = 1;
	}
	out->noperands = nops;
	out->nresults = nres;
	out->operands = SL_NEWN(a, sl_tensor_mapping, nops ? nops : 1);
	out->results = SL_NEWN(a, sl_tensor_mapping, nres ? nres : 1);
	for (uint32_t i = 0; i < nops; i++)
		out->operands[i] = tm;
	for (uint32_t i = 0; i < nres; i++)
		out->results[i] = tm;
}
