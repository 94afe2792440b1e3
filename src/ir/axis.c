/*
 * axis.c - the axis-ref algebra (spec/dialect-and-verifier.md 2.3).
 * A sub-axis "a":(p)s of axis a (size A) is the s-sized slice of a viewed
 * as [p, s, A/(p*s)]; it covers the half-open range [p, p*s) of pre-sizes.
 * A full axis covers [1, A).  Every function here is exact integer
 * arithmetic on those ranges, written after Shardy's AxisRefAttr.
 */
#include "ir/axis.h"
#include "util/checked.h"

#include <stdlib.h>
#include <string.h>

int
sli_mesh_axis_index(const sl_mesh *mesh, sl_sym name)
{
	if (!mesh)
		return -1;
	for (uint32_t i = 0; i < mesh->naxes; i++)
		if (mesh->axes[i].name == name)
			return (int)i;
	return -1;
}

int64_t
sli_mesh_axis_size(const sl_mesh *mesh, sl_sym name)
{
	int i = sli_mesh_axis_index(mesh, name);

	return i < 0 ? -1 : mesh->axes[i].size;
}

int64_t
sli_mesh_total_size(const sl_mesh *mesh)
{
	int64_t total = 1;

	for (uint32_t i = 0; i < mesh->naxes; i++)
		total = sli_mul_i64_sat(total, mesh->axes[i].size);
	return total;
}

bool
sli_mesh_is_maximal(const sl_mesh *mesh)
{
	return mesh->naxes == 0 && mesh->nids == 1;
}

bool
sli_mesh_is_empty(const sl_mesh *mesh)
{
	return mesh->naxes == 0 && mesh->nids == 0;
}

int64_t
sli_axis_size(const sl_axis_ref *r, const sl_mesh *mesh)
{
	return r->sub ? r->size : sli_mesh_axis_size(mesh, r->name);
}

int64_t
sli_axis_next(const sl_axis_ref *r, const sl_mesh *mesh)
{
	return r->sub ? sli_mul_i64_sat(r->pre, r->size) : sli_mesh_axis_size(mesh, r->name);
}

bool
sli_axis_equal(const sl_axis_ref *a, const sl_axis_ref *b)
{
	if (a->name != b->name || a->sub != b->sub)
		return false;
	return !a->sub || (a->pre == b->pre && a->size == b->size);
}

bool
sli_axis_contains(const sl_axis_ref *x, const sl_axis_ref *y)
{
	if (x->name != y->name)
		return false;
	if (!x->sub)
		return true;
	if (!y->sub)
		return false;
	return x->pre <= y->pre &&
	       sli_mul_i64_sat(x->pre, x->size) >= sli_mul_i64_sat(y->pre, y->size);
}

bool
sli_axis_prefix_of(const sl_axis_ref *x, const sl_axis_ref *y)
{
	return sli_axis_contains(y, x) && sli_axis_pre(x) == sli_axis_pre(y);
}

bool
sli_axis_suffix_of(const sl_axis_ref *x, const sl_axis_ref *y,
                   const sl_mesh *mesh)
{
	return sli_axis_contains(y, x) &&
	       sli_axis_next(x, mesh) == sli_axis_next(y, mesh);
}

bool
sli_axis_overlaps(const sl_axis_ref *x, const sl_axis_ref *y)
{
	if (x->name != y->name)
		return false;
	if (!x->sub || !y->sub)
		return true;
	return x->pre < sli_mul_i64_sat(y->pre, y->size) &&
	       y->pre < sli_mul_i64_sat(x->pre, x->size);
}

/* Sub-axes [minpre, minnext) and [maxpre, maxnext) fit one layout. */
static bool
subs_coexist(int64_t minpre, int64_t maxpre, int64_t minnext, int64_t maxnext)
{
	if (minpre < 1 || minnext < 1)
		return false;
	if (minnext > maxpre)
		return minnext % maxpre == 0 && maxpre % minpre == 0 &&
		       maxnext % minnext == 0;
	return maxpre % minnext == 0;
}

/* The pre-size and next pre-size bounds of two sub-axes. */
static void
bounds(const sl_axis_ref *x, const sl_axis_ref *y, int64_t *minpre,
       int64_t *maxpre, int64_t *minnext, int64_t *maxnext)
{
	int64_t xn = sli_mul_i64_sat(x->pre, x->size), yn = sli_mul_i64_sat(y->pre, y->size);

	*minpre = x->pre < y->pre ? x->pre : y->pre;
	*maxpre = x->pre < y->pre ? y->pre : x->pre;
	*minnext = xn < yn ? xn : yn;
	*maxnext = xn < yn ? yn : xn;
}

bool
sli_axis_can_coexist(const sl_axis_ref *x, const sl_axis_ref *y)
{
	int64_t minpre, maxpre, minnext, maxnext;

	if (x->name != y->name || !x->sub || !y->sub)
		return true;
	bounds(x, y, &minpre, &maxpre, &minnext, &maxnext);
	return subs_coexist(minpre, maxpre, minnext, maxnext);
}

bool
sli_axis_overlap(const sl_axis_ref *x, const sl_axis_ref *y, sl_axis_ref *out)
{
	int64_t minpre, maxpre, minnext, maxnext;

	if (x->name != y->name)
		return false;
	if (!x->sub) {
		*out = *y;
		return true;
	}
	if (!y->sub) {
		*out = *x;
		return true;
	}
	bounds(x, y, &minpre, &maxpre, &minnext, &maxnext);
	if (minnext <= maxpre || !subs_coexist(minpre, maxpre, minnext, maxnext))
		return false;
	*out = sli_axis_sub(x->name, maxpre, minnext / maxpre);
	return true;
}

bool
sli_axis_prefix_without_overlap(const sl_axis_ref *x, const sl_axis_ref *y,
                                sl_axis_ref *out)
{
	int64_t xpre = sli_axis_pre(x), ypre = sli_axis_pre(y);

	if (!sli_axis_can_coexist(x, y))
		return false;
	if (!sli_axis_overlaps(x, y)) {
		*out = *x;
		return true;
	}
	if (xpre >= ypre || xpre < 1)
		return false;
	*out = sli_axis_sub(x->name, xpre, ypre / xpre);
	return true;
}

bool
sli_axis_suffix_without_overlap(const sl_axis_ref *x, const sl_axis_ref *y,
                                const sl_mesh *mesh, sl_axis_ref *out)
{
	int64_t xnext, ynext;

	if (!sli_axis_can_coexist(x, y))
		return false;
	if (!sli_axis_overlaps(x, y)) {
		*out = *x;
		return true;
	}
	xnext = sli_axis_next(x, mesh);
	ynext = sli_axis_next(y, mesh);
	if (xnext <= ynext || ynext < 1)
		return false;
	*out = sli_axis_sub(x->name, ynext, xnext / ynext);
	return true;
}

bool
sli_axis_can_merge(const sl_axis_ref *x, const sl_axis_ref *y)
{
	int64_t next;

	return x->name == y->name && x->sub && y->sub &&
	       sli_mul_i64_ok(x->pre, x->size, &next) && next == y->pre;
}

sl_axis_ref
sli_axis_merge(const sl_axis_ref *x, const sl_axis_ref *y, const sl_mesh *mesh)
{
	int64_t size = sli_mul_i64_sat(x->size, y->size);

	if (x->pre == 1 && sli_mesh_axis_size(mesh, x->name) == size)
		return sli_axis_full(x->name);
	return sli_axis_sub(x->name, x->pre, size);
}

/* Compares the texts of two names as byte strings. */
static int
name_cmp(const sl_context *ctx, sl_sym a, sl_sym b)
{
	uint32_t la, lb;
	int c;

	if (a == b)
		return 0;
	la = sli_sym_len(ctx, a);
	lb = sli_sym_len(ctx, b);
	c = memcmp(sl_sym_str(ctx, a), sl_sym_str(ctx, b), la < lb ? la : lb);
	if (c)
		return c;
	return la < lb ? -1 : la > lb;
}

/* The order of two refs of the same name. */
static bool
same_name_less(const sl_axis_ref *x, const sl_axis_ref *y)
{
	if (!x->sub)
		return y->sub && y->pre > 1;
	if (!y->sub)
		return x->pre == 1;
	if (x->pre != y->pre)
		return x->pre < y->pre;
	return x->size < y->size;
}

bool
sli_axis_less(const sl_context *ctx, const sl_axis_ref *x, const sl_axis_ref *y)
{
	if (x->name != y->name)
		return name_cmp(ctx, x->name, y->name) < 0;
	return same_name_less(x, y);
}

bool
sli_axis_mesh_less(const sl_context *ctx, const sl_mesh *mesh,
                   const sl_axis_ref *x, const sl_axis_ref *y)
{
	int ix, iy;

	if (x->name == y->name)
		return same_name_less(x, y);
	ix = sli_mesh_axis_index(mesh, x->name);
	iy = sli_mesh_axis_index(mesh, y->name);
	if (ix >= 0 && iy >= 0)
		return ix < iy;
	if (ix >= 0 || iy >= 0)
		return ix >= 0;
	return name_cmp(ctx, x->name, y->name) < 0;
}

bool
sli_axis_is_mesh_sorted(const sl_context *ctx, const sl_mesh *mesh,
                        const sl_axis_ref *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (sli_axis_mesh_less(ctx, mesh, &v[i], &v[i - 1]))
			return false;
	return true;
}

void
sli_axis_mesh_sort(const sl_context *ctx, const sl_mesh *mesh,
                   sl_axis_ref *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		sl_axis_ref r = v[i];
		size_t j = i;

		while (j > 0 && sli_axis_mesh_less(ctx, mesh, &r, &v[j - 1])) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = r;
	}
}

bool
sli_axis_list_equal(const sl_axis_ref *a, size_t na, const sl_axis_ref *b,
                    size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!sli_axis_equal(&a[i], &b[i]))
			return false;
	return true;
}

int64_t
sli_axis_list_size(const sl_axis_ref *v, size_t n, const sl_mesh *mesh)
{
	int64_t size = 1;

	for (size_t i = 0; i < n; i++)
		size = sli_mul_i64_sat(size, sli_axis_size(&v[i], mesh));
	return size;
}

void
sli_axis_vec_add_or_merge(sli_axis_vec *vec, const sl_axis_ref *r,
                          const sl_mesh *mesh)
{
	if (vec->n > 0 && sli_axis_can_merge(&vec->v[vec->n - 1], r)) {
		vec->v[vec->n - 1] = sli_axis_merge(&vec->v[vec->n - 1], r, mesh);
		return;
	}
	SL_VEC_PUSH(*vec, *r);
}

void
sli_axis_vec_sort_and_merge(const sl_context *ctx, const sl_mesh *mesh,
                            sli_axis_vec *vec)
{
	size_t n = 0;

	sli_axis_mesh_sort(ctx, mesh, vec->v, vec->n);
	for (size_t i = 0; i < vec->n; i++) {
		if (n > 0 && sli_axis_can_merge(&vec->v[n - 1], &vec->v[i]))
			vec->v[n - 1] = sli_axis_merge(&vec->v[n - 1], &vec->v[i], mesh);
		else
			vec->v[n++] = vec->v[i];
	}
	vec->n = n;
}

void
sli_axis_set_diff(const sl_context *ctx, const sl_mesh *mesh,
                  const sl_axis_ref *a, size_t na,
                  const sl_axis_ref *b, size_t nb, sli_axis_vec *out)
{
	sl_axis_ref *sorted;

	if (nb == 0) {
		for (size_t i = 0; i < na; i++)
			SL_VEC_PUSH(*out, a[i]);
		return;
	}
	sorted = sli_xmalloc(nb * sizeof *sorted);
	memcpy(sorted, b, nb * sizeof *sorted);
	for (size_t i = 1; i < nb; i++) {
		sl_axis_ref r = sorted[i];
		size_t j = i;

		while (j > 0 && sli_axis_less(ctx, &r, &sorted[j - 1])) {
			sorted[j] = sorted[j - 1];
			j--;
		}
		sorted[j] = r;
	}
	for (size_t i = 0; i < na; i++) {
		sl_axis_ref cur = a[i], piece;

		for (;;) {
			size_t k = 0;

			while (k < nb && !sli_axis_overlaps(&cur, &sorted[k]))
				k++;
			if (k == nb) {
				SL_VEC_PUSH(*out, cur);
				break;
			}
			if (sli_axis_prefix_without_overlap(&cur, &sorted[k], &piece))
				SL_VEC_PUSH(*out, piece);
			if (!sli_axis_suffix_without_overlap(&cur, &sorted[k], mesh,
			                                     &piece))
				break;
			cur = piece;
		}
	}
	free(sorted);
}
