/*
 * pad_for_divisibility_ops.c - the ops of -sdy-pad-for-divisibility whose
 * result shape is not their operands' (rules in pad_for_divisibility.c):
 * stablehlo.slice and stablehlo.pad, whose attributes change, and
 * stablehlo.dot_general and stablehlo.convolution, whose paired
 * dimensions are padded alike and whose contracting padding must be zero.
 * Each reads its operands first (sli_pfd_operand looks them up by the
 * input values), then replaces them.
 */
#include "passes/pad_for_divisibility.h"

#include <stdlib.h>
#include <string.h>

#include "ir/access.h"
#include "ir/stablehlo_attrs.h"
#include "passes/passutil.h"

static int64_t
max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* A copy of t's dims (heap; one more slot so rank 0 allocates). */
static int64_t *
dims_copy(const sl_type *t)
{
	int64_t *v = sli_xmalloc(sizeof *v * (t->rank + 1));
	memcpy(v, t->dims, sizeof *v * t->rank);
	return v;
}

static bool
same_dims(const int64_t *a, const sl_type *t)
{
	return !memcmp(a, t->dims, sizeof *a * t->rank);
}

/* Whether the result and the first n operands are static tensors. */
static bool
all_static(sli_pfd *P, const sl_op *op, uint32_t n)
{
	if (op->nresults != 1 || op->noperands < n ||
	    !sli_pfd_static(sli_pfd_val_of(P, &op->results[0])->orig))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!sli_pfd_static(sli_pfd_val_of(P, op->operands[i])->orig))
			return false;
	return true;
}

/* {====== stablehlo.slice and stablehlo.pad ============================== */

/*
 * The three integer lists `names` of op (rank r, dflt where absent) one
 * after another, and r more slots (heap).
 */
static int64_t *
three_lists(sli_pfd *P, const sl_op *op, const char *const *names, int64_t dflt3, uint32_t r)
{
	int64_t *v = sli_xmalloc(sizeof *v * (4 * (size_t)r + 1));
	for (uint32_t k = 0; k < 3; k++)
		sli_pfd_ints(P, op, names[k], r, k == 2 ? dflt3 : 0, v + k * r);
	return v;
}

int
sli_pfd_slice(sli_pfd *P, sl_op *op)
{
	if (!all_static(P, op, 1))
		return sli_pfd_fallback(P, op);
	const sli_pfd_val *e = sli_pfd_val_of(P, &op->results[0]);
	uint32_t r = e->orig->rank;
	static const char *const names[3] = {"start_indices", "limit_indices", "strides"};
	int64_t *v = three_lists(P, op, names, 1, r);
	int64_t *start = v, *limit = v + r, *stride = v + 2 * r, *need = v + 3 * r;
	sli_pfd_arg a = sli_pfd_operand(P, op, 0);
	bool longer = false;
	for (uint32_t d = 0; d < r; d++) {
		if (e->padded->dims[d] > e->orig->dims[d]) {
			limit[d] = start[d] + (e->padded->dims[d] - 1) * stride[d] + 1;
			longer = true;
		}
		need[d] = max64(a.v->type->dims[d], limit[d]);
	}
	sli_pfd_fit(P, op, &a, need);
	op->operands[0] = a.v;
	if (longer)
		sli_op_set_prop(P->m, op, sli_sym(P->m, "limit_indices"),
		                sli_pfd_i64_array(P, limit, r));
	sli_pfd_result(P, op, 0, e->padded->dims, !longer);
	free(v);
	return 0;
}

int
sli_pfd_pad(sli_pfd *P, sl_op *op)
{
	if (!all_static(P, op, 2))
		return sli_pfd_fallback(P, op);
	const sli_pfd_val *e = sli_pfd_val_of(P, &op->results[0]);
	uint32_t r = e->orig->rank;
	static const char *const names[3] = {"edge_padding_low", "edge_padding_high",
	                                     "interior_padding"};
	int64_t *v = three_lists(P, op, names, 0, r);
	int64_t *low = v, *high = v + r, *in = v + 2 * r;
	bool *want = sli_xcalloc(r + 1, sizeof *want);
	sli_pfd_arg a = sli_pfd_operand(P, op, 0), fill = sli_pfd_operand(P, op, 1);
	/* Interior padding would interleave the operand's padding with its
	 * data: it must hold the pad value first. */
	for (uint32_t d = 0; d < r; d++)
		want[d] = in[d] > 0;
	sli_pfd_enforce(P, op, &a, want, fill.v);
	for (uint32_t d = 0; d < r; d++) {
		int64_t s = a.v->type->dims[d];
		high[d] = e->padded->dims[d] - low[d] - s - (s > 0 ? (s - 1) * in[d] : 0);
	}
	op->operands[0] = a.v;
	op->operands[1] = fill.v;
	sli_op_set_prop(P->m, op, sli_sym(P->m, "edge_padding_high"), sli_pfd_i64_array(P, high, r));
	sli_pfd_result(P, op, 0, e->padded->dims, e->padded == e->orig);
	free(want);
	free(v);
	return 0;
}

/* }======================================================================= */

/* {====== stablehlo.dot_general =========================================== */

static bool
in_list(const sl_dim_list *l, int64_t d)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i] == d)
			return true;
	return false;
}

/* Pads each free dim of one operand and its result dim (from *k on) alike. */
static void
pair_free(int64_t *need, uint32_t rank, const sl_dim_list *batch,
          const sl_dim_list *contract, int64_t *t, uint32_t *k)
{
	for (uint32_t d = 0; d < rank; d++)
		if (!in_list(batch, d) && !in_list(contract, d)) {
			need[d] = t[*k] = max64(need[d], t[*k]);
			(*k)++;
		}
}

/* Fits operand a to need, then zeroes its padding along its contracting dims. */
static void
prepare(sli_pfd *P, sl_op *op, sli_pfd_arg *a, const int64_t *need,
        const sl_dim_list *contract)
{
	uint32_t r = a->orig->rank;
	bool *want = sli_xcalloc(r + 1, sizeof *want);
	sli_pfd_fit(P, op, a, need);
	for (uint32_t i = 0; i < contract->n; i++)
		if (contract->v[i] >= 0 && contract->v[i] < r)
			want[contract->v[i]] = true;
	sli_pfd_enforce(P, op, a, want, NULL);
	free(want);
}

static bool
dims_in_range(const sl_dim_list *l, uint32_t rank)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i] < 0 || l->v[i] >= rank)
			return false;
	return true;
}

/* A dot_general of dimension numbers dd (NULL: op cannot be padded). */
static int
dot(sli_pfd *P, sl_op *op, const sl_dot_dims *dd)
{
	if (!dd || !all_static(P, op, 2))
		return sli_pfd_fallback(P, op);
	const sl_dim_list *lb = &dd->lists[SL_DOT_LHS_BATCH], *rb = &dd->lists[SL_DOT_RHS_BATCH];
	const sl_dim_list *lc = &dd->lists[SL_DOT_LHS_CONTRACT], *rc = &dd->lists[SL_DOT_RHS_CONTRACT];
	const sli_pfd_val *e = sli_pfd_val_of(P, &op->results[0]);
	sli_pfd_arg l = sli_pfd_operand(P, op, 0), r = sli_pfd_operand(P, op, 1);
	uint32_t lr = l.orig->rank, rr = r.orig->rank;
	if (lb->n != rb->n || lc->n != rc->n || !dims_in_range(lb, lr) || !dims_in_range(lc, lr) ||
	    !dims_in_range(rb, rr) || !dims_in_range(rc, rr) ||
	    e->orig->rank != lr + rr - lb->n - 2 * lc->n)
		return sli_pfd_fallback(P, op);
	int64_t *nl = dims_copy(l.v->type), *nr = dims_copy(r.v->type), *t = dims_copy(e->padded);
	for (uint32_t i = 0; i < lc->n; i++)
		nl[lc->v[i]] = nr[rc->v[i]] = max64(nl[lc->v[i]], nr[rc->v[i]]);
	uint32_t k = 0;
	for (; k < lb->n; k++)
		nl[lb->v[k]] = nr[rb->v[k]] = t[k] =
			max64(max64(nl[lb->v[k]], nr[rb->v[k]]), t[k]);
	pair_free(nl, lr, lb, lc, t, &k);
	pair_free(nr, rr, rb, rc, t, &k);
	prepare(P, op, &l, nl, lc);
	prepare(P, op, &r, nr, rc);
	op->operands[0] = l.v;
	op->operands[1] = r.v;
	sli_pfd_result(P, op, 0, t, same_dims(t, e->orig));
	free(nl);
	free(nr);
	free(t);
	return 0;
}

int
sli_pfd_dot_general(sli_pfd *P, sl_op *op)
{
	return dot(P, op, sli_attr_get_dot_dims(sli_op_get(op, sli_sym(P->m,
	                                                               "dot_dimension_numbers"))));
}

/* stablehlo.dot: the lhs's last dimension contracts with the rhs's first. */
int
sli_pfd_dot(sli_pfd *P, sl_op *op)
{
	if (op->noperands != 2)
		return sli_pfd_fallback(P, op);
	const sl_type *l = sli_pfd_val_of(P, op->operands[0])->orig;
	int64_t lc = l->rank ? (int64_t)l->rank - 1 : 0, rc = 0;
	sl_dot_dims dd = {{{NULL, 0}, {NULL, 0}, {&lc, 1}, {&rc, 1}}};
	return dot(P, op, &dd);
}

/* }======================================================================= */

/* {====== stablehlo.convolution =========================================== */

/* The window of a convolution, per spatial dimension. */
typedef struct window {
	int64_t *stride, *pad, *ldil, *rdil;	/* pad: low, high pairs */
} window;

/* Output size of one spatial dimension (StableHLO's shape function). */
static int64_t
conv_out(const window *w, uint32_t j, int64_t in, int64_t k)
{
	int64_t din = in > 0 ? (in - 1) * w->ldil[j] + 1 : 0;
	din += w->pad[2 * j] + w->pad[2 * j + 1];
	int64_t dk = k > 0 ? (k - 1) * w->rdil[j] + 1 : 0;
	if (din < dk || w->stride[j] <= 0)
		return 0;
	return (din - dk) / w->stride[j] + 1;
}

static int64_t
group_count(sli_pfd *P, const sl_op *op, const char *name)
{
	int64_t v = 1;
	sli_pfd_ints(P, op, name, 1, 1, &v);
	return v;
}

static bool
conv_dims_ok(const sl_conv_dims *c, const sl_type *in, const sl_type *k, const sl_type *out)
{
	const sl_type *t[SL_CONV_NGROUPS] = {in, k, out};
	if (!c->known || c->spatial[SL_CONV_KERNEL].n != c->spatial[SL_CONV_INPUT].n ||
	    c->spatial[SL_CONV_OUTPUT].n != c->spatial[SL_CONV_INPUT].n)
		return false;
	for (int g = 0; g < SL_CONV_NGROUPS; g++) {
		if (c->first[g] < 0 || c->first[g] >= t[g]->rank ||
		    c->second[g] < 0 || c->second[g] >= t[g]->rank)
			return false;
		for (uint32_t j = 0; j < c->spatial[g].n; j++)
			if (c->spatial[g].v[j] < 0 || c->spatial[g].v[j] >= t[g]->rank)
				return false;
	}
	return true;
}

/*
 * The sizes the convolution needs: features and batch paired with the
 * result's, input spatial dims grown until the output reaches the padded
 * result.  -1 with an error where it cannot be padded.
 */
static int
conv_need(sli_pfd *P, const sl_op *op, const sl_conv_dims *c, const window *w,
          const sli_pfd_arg *l, const sli_pfd_arg *k, const sl_type *ro,
          int64_t *nl, int64_t *nk, int64_t *t)
{
	int64_t ib = c->first[SL_CONV_INPUT], ifd = c->second[SL_CONV_INPUT];
	int64_t ki = c->first[SL_CONV_KERNEL], ko = c->second[SL_CONV_KERNEL];
	int64_t ob = c->first[SL_CONV_OUTPUT], of = c->second[SL_CONV_OUTPUT];
	/* Groups split features and batch: padding would shift the groups. */
	if (group_count(P, op, "feature_group_count") != 1 ||
	    group_count(P, op, "batch_group_count") != 1) {
		if (nl[ifd] != l->orig->dims[ifd] || nl[ib] != l->orig->dims[ib] ||
		    nk[ki] != k->orig->dims[ki] || nk[ko] != k->orig->dims[ko] ||
		    t[ob] != ro->dims[ob] || t[of] != ro->dims[of])
			return -1;
	} else {
		nl[ifd] = nk[ki] = max64(nl[ifd], nk[ki]);
		nl[ib] = t[ob] = max64(nl[ib], t[ob]);
		nk[ko] = t[of] = max64(nk[ko], t[of]);
	}
	for (uint32_t j = 0; j < c->spatial[SL_CONV_INPUT].n; j++) {
		int64_t is = c->spatial[SL_CONV_INPUT].v[j], os = c->spatial[SL_CONV_OUTPUT].v[j];
		int64_t ks = c->spatial[SL_CONV_KERNEL].v[j];
		if (nk[ks] != k->orig->dims[ks])
			return -1;
		int64_t out = conv_out(w, j, nl[is], nk[ks]);
		/* The output grows by one every stride * lhs_dilation inputs. */
		for (int64_t guard = 0; out < t[os] && guard < 1 << 20; guard++)
			out = conv_out(w, j, ++nl[is], nk[ks]);
		if (out < t[os])
			return -1;
		t[os] = out;
	}
	return 0;
}

int
sli_pfd_convolution(sli_pfd *P, sl_op *op)
{
	const sl_conv_dims *c =
		sli_attr_get_conv_dims(sli_op_get(op, sli_sym(P->m, "dimension_numbers")));
	if (!c || !all_static(P, op, 2))
		return sli_pfd_fallback(P, op);
	const sli_pfd_val *e = sli_pfd_val_of(P, &op->results[0]);
	sli_pfd_arg l = sli_pfd_operand(P, op, 0), k = sli_pfd_operand(P, op, 1);
	if (!conv_dims_ok(c, l.orig, k.orig, e->orig))
		return sli_pfd_fallback(P, op);
	uint32_t ns = (uint32_t)c->spatial[SL_CONV_INPUT].n;
	int64_t *wv = sli_xmalloc(sizeof *wv * (5 * (size_t)ns + 1));
	window w = {wv, wv + ns, wv + 3 * ns, wv + 4 * ns};
	sli_pfd_ints(P, op, "window_strides", ns, 1, w.stride);
	sli_pfd_ints(P, op, "padding", 2 * ns, 0, w.pad);
	sli_pfd_ints(P, op, "lhs_dilation", ns, 1, w.ldil);
	sli_pfd_ints(P, op, "rhs_dilation", ns, 1, w.rdil);
	int64_t *nl = dims_copy(l.v->type), *nk = dims_copy(k.v->type), *t = dims_copy(e->padded);
	int rc = conv_need(P, op, c, &w, &l, &k, e->orig, nl, nk, t);
	if (rc) {
		sli_error(P->m->ctx, op->loc, "cannot pad 'stablehlo.convolution': a kernel "
		          "spatial or grouped dimension has a non-divisible sharding");
	} else {
		sl_dim_list in_c = {NULL, 0}, k_c = {(int64_t *)&c->first[SL_CONV_KERNEL], 1};
		int64_t *lc = sli_xmalloc(sizeof *lc * (ns + 1));
		lc[0] = c->second[SL_CONV_INPUT];
		memcpy(lc + 1, c->spatial[SL_CONV_INPUT].v, sizeof *lc * ns);
		in_c.v = lc;
		in_c.n = ns + 1;
		prepare(P, op, &l, nl, &in_c);
		prepare(P, op, &k, nk, &k_c);
		op->operands[0] = l.v;
		op->operands[1] = k.v;
		sli_pfd_result(P, op, 0, t, same_dims(t, e->orig));
		free(lc);
	}
	free(nl);
	free(nk);
	free(t);
	free(wv);
	return rc;
}

/* }======================================================================= */
