/*
 * verify_collective.c - the sdy collectives (spec section 4.9): the
 * checks they share, then each op's own.
 */
#include "verify/verifier.h"

#include <stdlib.h>
#include <string.h>

/* The operand sharding of a collective, or a fully replicated stand-in. */
typedef struct coll {
	const sl_sharding *out;
	const sl_mesh *mesh;		/* of out */
	const sl_sharding *in;		/* NULL: operand without sharding */
	sl_sharding repl;		/* stand-in for a missing operand sharding */
	const sl_sharding *operand;	/* in, or &repl */
} coll;

static void
coll_fini(coll *c)
{
	free(c->repl.dims);
}

static sl_reduction
reduction_of(const sl_op *op)
{
	sl_attr *a = sli_op_get(op, SLS_reduction_op);
	const char *p = NULL;
	size_t n = 0;

	if (!a)
		return SL_RED_SUM;
	switch (a->kind) {
	case SL_ATTR_INT:
		return a->u.i.v == 1 ? SL_RED_MAX : a->u.i.v == 2 ? SL_RED_MIN : SL_RED_SUM;
	case SL_ATTR_STRING:
		p = a->u.s.p;
		n = a->u.s.n;
		break;
	case SL_ATTR_OPAQUE:
		p = a->u.text.p;
		n = a->u.text.n;
		break;
	default:
		return SL_RED_SUM;
	}
	for (size_t i = 0; i + 3 <= n; i++) {
		if (!memcmp(p + i, "max", 3))
			return SL_RED_MAX;
		if (!memcmp(p + i, "min", 3))
			return SL_RED_MIN;
	}
	return SL_RED_SUM;
}

/* The common checks of every collective (interface verifier). */
static int
verify_collective_common(verifier *v, sl_op *op, coll *c)
{
	const sl_type *t = op->nresults ? op->results[0].type : NULL;
	const sl_mesh *in_mesh;
	bool may_miss = op->kind == SL_OP_SDY_ALL_SLICE ||
	                op->kind == SL_OP_SDY_ALL_REDUCE ||
	                op->kind == SL_OP_SDY_REDUCE_SCATTER;

	memset(c, 0, sizeof *c);
	if (op->noperands != 1 || op->nresults != 1)
		return sli_verify_op_error(v, NULL, "expected one operand and one result");
	c->out = sli_result_sharding(op, 0);
	if (!c->out)
		return sli_verify_op_error(v, NULL, "requires attribute 'out_sharding'");
	c->in = sli_value_sharding_seen(v->m, op->operands[0]);
	if (!c->in && !may_miss)
		return sli_verify_op_error(v, NULL, "collective on operand without sharding");
	if (sli_verify_sharding(v, NULL, c->out, t, op))
		return -1;
	c->mesh = sli_verify_sharding_mesh(v, c->out, op);
	if (c->in && op->kind != SL_OP_SDY_COLLECTIVE_PERMUTE) {
		in_mesh = sli_verify_sharding_mesh(v, c->in, op);
		if (in_mesh && !sli_mesh_equal(in_mesh, c->mesh)) {
			sli_verify_op_error(v, NULL, "result mesh does not match operand mesh");
			v->note.n = 0;
			sli_buf_puts(&v->note, "operand mesh: ");
			sli_verify_put_mesh(v, &v->note, in_mesh);
			sli_verify_emit_note(v, sli_value_loc(op->operands[0]));
			return -1;
		}
	}
	if (c->in && c->in->rank != c->out->rank)
		return sli_verify_op_error(v, NULL, "result sharding has rank %u but operand "
		                           "sharding has rank %u", c->out->rank, c->in->rank);
	c->repl = *c->out;
	c->repl.rank = 0;
	c->repl.dims = NULL;
	if (!c->in) {
		const sl_type *ot = op->operands[0]->type;
		uint32_t rank = ot && ot->kind == SL_TYPE_TENSOR ? ot->rank : 0;

		c->repl.rank = rank;
		c->repl.dims = sli_xcalloc(rank + 1, sizeof *c->repl.dims);
		for (uint32_t d = 0; d < rank; d++)
			c->repl.dims[d].priority = SL_NO_PRIORITY;
		c->repl.replicated.n = 0;
		c->repl.unreduced.n = 0;
		c->repl.reduction = SL_RED_SUM;
	}
	c->operand = c->in ? c->in : &c->repl;
	return 0;
}

/* Removes gathering axes from the end of dim axes (gather semantics). */
static int
gather_dim(verifier *v, const sl_axis_list *dim, const sl_axis_ref *axes,
           size_t n, uint32_t d, const sl_mesh *mesh, const char *what,
           sli_axis_vec *out)
{
	out->n = 0;
	for (uint32_t i = 0; i < dim->n; i++)
		SL_VEC_PUSH(*out, dim->v[i]);
	for (size_t i = n; i-- > 0;) {
		sl_axis_ref last, prefix;

		if (out->n == 0 || !sli_axis_suffix_of(&axes[i], &out->v[out->n - 1], mesh)) {
			sli_buf *b = sli_verify_op_msg(v, NULL);

			sli_buf_printf(b, "can't apply %s axis ", what);
			sli_verify_put_axis(v, b, &axes[i]);
			sli_buf_printf(b, " to operand sharding on dimension %u", d);
			return sli_verify_emit(v);
		}
		last = out->v[--out->n];
		if (sli_axis_prefix_without_overlap(&last, &axes[i], &prefix))
			SL_VEC_PUSH(*out, prefix);
	}
	return 0;
}

/* Appends slicing axes to dim axes, merging sub-axes (slice semantics). */
static void
slice_dim(const sl_axis_list *dim, const sl_axis_ref *axes, size_t n,
          const sl_mesh *mesh, sli_axis_vec *out)
{
	out->n = 0;
	for (uint32_t i = 0; i < dim->n; i++)
		SL_VEC_PUSH(*out, dim->v[i]);
	for (size_t i = 0; i < n; i++)
		sli_axis_vec_add_or_merge(out, &axes[i], mesh);
}

static int
expect_dim(verifier *v, const coll *c, uint32_t d, const sli_axis_vec *want)
{
	const sl_axis_list *got = &c->out->dims[d].axes;
	sli_buf *b;

	if (sli_axis_list_equal(want->v, want->n, got->v, got->n))
		return 0;
	b = sli_verify_op_msg(v, NULL);
	sli_buf_puts(b, "result sharding doesn't match expected sharding ");
	sli_verify_put_axis_array(v, b, want->v, want->n);
	sli_buf_printf(b, " on dimension %u", d);
	return sli_verify_emit(v);
}

/* all_gather, all_slice, reduce_scatter, sharded_to_unreduced. */
static int
verify_per_dim(verifier *v, const coll *c, const sl_attr *lists,
               bool gather, const char *what)
{
	axis_seen seen = {{0}, {0}};
	sli_axis_vec want = {0};
	int rc = 0;

	for (uint32_t i = 0; i < lists->u.lists.n && rc == 0; i++)
		rc = sli_verify_check_axis_list(v, NULL, lists->u.lists.v[i].v,
		                                lists->u.lists.v[i].n, c->mesh, &seen);
	if (rc == 0 && c->out->rank != lists->u.lists.n)
		rc = sli_verify_op_error(v, NULL, "result sharding has rank %u but collective "
		                         "axes has rank %u", c->out->rank, lists->u.lists.n);
	for (uint32_t d = 0; rc == 0 && d < lists->u.lists.n && d < c->operand->rank; d++) {
		const sl_axis_list *l = &lists->u.lists.v[d];

		if (gather)
			rc = gather_dim(v, &c->operand->dims[d].axes, l->v, l->n, d,
			                c->mesh, what, &want);
		else
			slice_dim(&c->operand->dims[d].axes, l->v, l->n, c->mesh, &want);
		if (rc == 0)
			rc = expect_dim(v, c, d, &want);
	}
	sli_verify_seen_fini(&seen);
	SL_VEC_FREE(want);
	return rc;
}

/* The per-dimension axis lists of a collective (reported when missing). */
static const sl_attr *
lists_attr(verifier *v, sl_op *op, sl_sym name)
{
	const sl_attr *a = sli_verify_find_kind(op, name, SL_ATTR_AXIS_REF_LISTS);

	if (!a)
		sli_verify_op_error(v, NULL, "requires attribute '%s'", sli_verify_sym(v, name));
	return a;
}

static int
verify_all_to_all(verifier *v, sl_op *op, const coll *c)
{
	const sl_attr *a = sli_verify_find_kind(op, SLS_params, SL_ATTR_ALL_TO_ALL_PARAMS);
	const sl_type *t = op->results[0].type;
	int64_t rank = t && t->kind == SL_TYPE_TENSOR ? t->rank : 0;
	bool *seen_dims = sli_xcalloc(rank + 1, sizeof *seen_dims);
	axis_seen seen = {{0}, {0}};
	sli_axis_vec want = {0};
	int64_t prev = -1;
	int rc = 0;

	if (!a || a->u.a2a.n == 0)
		rc = sli_verify_op_error(v, NULL, "parameter list is empty");
	for (uint32_t i = 0; rc == 0 && i < a->u.a2a.n; i++) {
		const sl_a2a_param *p = &a->u.a2a.v[i];
		int64_t dims[2] = {p->src, p->tgt};

		rc = sli_verify_check_axis_list(v, NULL, p->axes.v, p->axes.n, c->mesh, &seen);
		for (int k = 0; rc == 0 && k < 2; k++)
			if (dims[k] < 0 || dims[k] >= rank)
				rc = sli_verify_op_error(v, NULL, "%s dimension %lld is out of range "
				                         "[0, %lld)", k ? "target" : "source",
				              (long long)dims[k], (long long)rank);
		for (int k = 0; rc == 0 && k < 2; k++) {
			if (seen_dims[dims[k]])
				rc = sli_verify_op_error(v, NULL, "overlapping source/target dimensions "
				                         "in all-to-all params: %lld", (long long)dims[k]);
			seen_dims[dims[k]] = true;
		}
		if (rc == 0 && prev >= p->src)
			rc = sli_verify_op_error(v, NULL, "source dimensions are not sorted in "
			                         "ascending order: %lld appears after %lld",
			                         (long long)p->src, (long long)prev);
		prev = p->src;
	}
	for (uint32_t i = 0; rc == 0 && i < a->u.a2a.n; i++) {
		const sl_a2a_param *p = &a->u.a2a.v[i];

		if (p->src >= c->operand->rank || p->tgt >= c->operand->rank ||
		    p->src >= c->out->rank || p->tgt >= c->out->rank)
			break;
		rc = gather_dim(v, &c->operand->dims[p->src].axes, p->axes.v,
		                p->axes.n, p->src, c->mesh, "all-to-all", &want);
		if (rc == 0)
			rc = expect_dim(v, c, p->src, &want);
		if (rc == 0) {
			slice_dim(&c->operand->dims[p->tgt].axes, p->axes.v, p->axes.n,
			          c->mesh, &want);
			rc = expect_dim(v, c, p->tgt, &want);
		}
	}
	for (uint32_t d = 0; rc == 0 && d < c->operand->rank && d < c->out->rank; d++) {
		if (d < rank && seen_dims[d])
			continue;
		slice_dim(&c->operand->dims[d].axes, NULL, 0, c->mesh, &want);
		rc = expect_dim(v, c, d, &want);
	}
	free(seen_dims);
	sli_verify_seen_fini(&seen);
	SL_VEC_FREE(want);
	return rc;
}

static int
verify_collective_permute(verifier *v, sl_op *op, const coll *c)
{
	const sl_mesh *in_mesh = sli_verify_sharding_mesh(v, c->operand, op);
	const char *bad = NULL;

	if (!in_mesh || !c->mesh)
		return 0;
	if (in_mesh->naxes != c->mesh->naxes) {
		bad = "result mesh has different axes than operand mesh";
	} else {
		for (uint32_t i = 0; i < in_mesh->naxes; i++)
			if (in_mesh->axes[i].name != c->mesh->axes[i].name ||
			    in_mesh->axes[i].size != c->mesh->axes[i].size)
				bad = "result mesh has different axes than operand mesh";
	}
	if (!bad && !sli_verify_same_mesh_ref(c->operand, c->out)) {
		bool same_ids = in_mesh->nids == c->mesh->nids &&
		                (!in_mesh->ids) == (!c->mesh->ids);

		for (uint32_t i = 0; same_ids && in_mesh->ids && i < in_mesh->nids; i++)
			same_ids = in_mesh->ids[i] == c->mesh->ids[i];
		if (same_ids)
			bad = "result mesh name is different but same device ids as operand";
	}
	if (bad) {
		sli_verify_op_error(v, NULL, "%s", bad);
		v->note.n = 0;
		sli_buf_puts(&v->note, "operand mesh: ");
		sli_verify_put_mesh(v, &v->note, in_mesh);
		sli_verify_emit_note(v, sli_value_loc(op->operands[0]));
		return -1;
	}
	for (uint32_t d = 0; d < c->operand->rank && d < c->out->rank; d++) {
		const sl_axis_list *in = &c->operand->dims[d].axes;
		const sl_axis_list *out = &c->out->dims[d].axes;
		int64_t insz, outsz;

		if (sli_axis_list_equal(in->v, in->n, out->v, out->n))
			continue;
		insz = sli_axis_list_size(in->v, in->n, c->mesh);
		outsz = sli_axis_list_size(out->v, out->n, c->mesh);
		if (insz != outsz)
			return sli_verify_op_error(v, NULL, "sharded size of result doesn't match "
			                           "operand on dimension %u: %lld != %lld", d,
			                           (long long)outsz, (long long)insz);
	}
	return 0;
}

/* Any ref of l overlaps r. */
static bool
any_overlap(const sl_axis_ref *l, size_t n, const sl_axis_ref *r)
{
	for (size_t i = 0; i < n; i++)
		if (sli_axis_overlaps(&l[i], r))
			return true;
	return false;
}

/* r overlaps an axis of a dimension of s (or, with repl, a replicated one). */
static bool
overlaps_dims(const sl_sharding *s, const sl_axis_ref *r, bool repl)
{
	for (uint32_t d = 0; d < s->rank; d++)
		if (any_overlap(s->dims[d].axes.v, s->dims[d].axes.n, r))
			return true;
	return repl && any_overlap(s->replicated.v, s->replicated.n, r);
}

static int
verify_all_reduce(verifier *v, sl_op *op, const coll *c)
{
	const sl_attr *a = sli_verify_find_kind(op, SLS_reduction_axes, SL_ATTR_AXIS_REF_LIST);
	sl_axis_list axes = a ? a->u.axes : (sl_axis_list){NULL, 0};
	axis_seen seen = {{0}, {0}};
	bool equiv = sli_verify_fully_replicated(c->operand) && sli_verify_fully_replicated(c->out);
	sli_buf *b;
	int rc;

	if (!equiv && sli_verify_same_mesh_ref(c->operand, c->out) &&
	    c->operand->rank == c->out->rank) {
		equiv = true;
		for (uint32_t d = 0; d < c->out->rank; d++)
			if (!sli_axis_list_equal(c->operand->dims[d].axes.v,
			                         c->operand->dims[d].axes.n,
			                         c->out->dims[d].axes.v,
			                         c->out->dims[d].axes.n))
				equiv = false;
	}
	if (!equiv)
		return sli_verify_op_error(v, NULL, "operand and result shardings are not "
		                           "equivalent");
	rc = sli_verify_check_sorted_axis_list(v, NULL, "reduction", axes.v, axes.n, c->mesh,
	                                       &seen);
	sli_verify_seen_fini(&seen);
	if (rc)
		return -1;
	for (uint32_t i = 0; i < axes.n; i++) {
		const char *what = NULL;

		if (overlaps_dims(c->operand, &axes.v[i], true))
			what = "operand dimension sharding or replicated axes";
		else if (any_overlap(c->out->unreduced.v, c->out->unreduced.n, &axes.v[i]))
			what = "result unreduced axes";
		if (!what)
			continue;
		b = sli_verify_op_msg(v, NULL);
		sli_buf_puts(b, "reduction axis ");
		sli_verify_put_axis(v, b, &axes.v[i]);
		sli_buf_printf(b, " overlaps with %s", what);
		return sli_verify_emit(v);
	}
	return sli_verify_check_unreduced(v, c->operand, op, c->out, op, SLI_VERIFY_NO_OP,
	                                  (int)reduction_of(op));
}

/* The expected out unreduced axes: sortAndMerge(operand unreduced + axes). */
static int
expect_unreduced(verifier *v, const coll *c, const sl_axis_ref *axes,
                 size_t n, const char *msg)
{
	sli_axis_vec want = {0};
	bool ok;

	for (uint32_t i = 0; i < c->operand->unreduced.n; i++)
		SL_VEC_PUSH(want, c->operand->unreduced.v[i]);
	for (size_t i = 0; i < n; i++)
		SL_VEC_PUSH(want, axes[i]);
	sli_axis_vec_sort_and_merge(v->ctx, c->mesh, &want);
	ok = sli_axis_list_equal(want.v, want.n, c->out->unreduced.v,
	                         c->out->unreduced.n);
	SL_VEC_FREE(want);
	return ok ? 0 : sli_verify_op_error(v, NULL, "%s", msg);
}

static int
verify_sharded_to_unreduced(verifier *v, sl_op *op, const coll *c)
{
	const sl_attr *a = lists_attr(v, op, SLS_axes);
	sli_axis_vec all = {0};
	int rc;

	if (!a)
		return -1;
	if (c->out->reduction != SL_RED_SUM)
		return sli_verify_op_error(v, NULL, "out_sharding reduction_op must be SUM");
	if (verify_per_dim(v, c, a, true, "shard-to-unreduce"))
		return -1;
	for (uint32_t d = 0; d < a->u.lists.n; d++)
		for (uint32_t i = 0; i < a->u.lists.v[d].n; i++)
			SL_VEC_PUSH(all, a->u.lists.v[d].v[i]);
	rc = expect_unreduced(v, c, all.v, all.n, "out_unreduced_axes should be "
	                      "in_unreduced_axes + sharded_to_unreduced_axes");
	SL_VEC_FREE(all);
	return rc;
}

static bool
dim_sharding_equal(const sl_dim_sharding *a, const sl_dim_sharding *b)
{
	return a->open == b->open && a->priority == b->priority &&
	       sli_axis_list_equal(a->axes.v, a->axes.n, b->axes.v, b->axes.n);
}

static int
verify_replicated_to_unreduced(verifier *v, sl_op *op, const coll *c)
{
	const sl_attr *a = sli_verify_find_kind(op, SLS_axes, SL_ATTR_AXIS_REF_LIST);
	sl_axis_list axes = a ? a->u.axes : (sl_axis_list){NULL, 0};
	axis_seen seen = {{0}, {0}};
	bool same = c->operand->rank == c->out->rank;
	int rc;

	if (c->out->reduction != SL_RED_SUM)
		return sli_verify_op_error(v, NULL, "out_sharding reduction_op must be SUM");
	for (uint32_t d = 0; same && d < c->out->rank; d++)
		same = dim_sharding_equal(&c->operand->dims[d], &c->out->dims[d]);
	if (!same)
		return sli_verify_op_error(v, NULL, "input and output must share the same "
		                           "dimension shardings");
	if (axes.n == 0)
		return sli_verify_op_error(v, NULL, "r2u axes must not be empty");
	rc = sli_verify_check_sorted_axis_list(v, NULL, "r2u", axes.v, axes.n, c->mesh, &seen);
	sli_verify_seen_fini(&seen);
	if (rc)
		return -1;
	for (uint32_t i = 0; i < axes.n; i++) {
		const char *what = NULL;
		sli_buf *b;

		if (overlaps_dims(c->operand, &axes.v[i], false))
			what = "operand dimension sharding";
		else if (any_overlap(c->operand->unreduced.v, c->operand->unreduced.n,
		                     &axes.v[i]))
			what = "operand unreduced axes";
		if (!what)
			continue;
		b = sli_verify_op_msg(v, NULL);
		sli_buf_puts(b, "r2u axis ");
		sli_verify_put_axis(v, b, &axes.v[i]);
		sli_buf_printf(b, " overlaps with %s", what);
		return sli_verify_emit(v);
	}
	return expect_unreduced(v, c, axes.v, axes.n, "out_unreduced_axes should "
	                        "be in_unreduced_axes + r2u_axes");
}

int
sli_verify_collective(verifier *v, sl_op *op)
{
	const sl_attr *lists;
	coll c;
	int rc;

	if (verify_collective_common(v, op, &c)) {
		coll_fini(&c);
		return -1;
	}
	switch (op->kind) {
	case SL_OP_SDY_ALL_GATHER:
		lists = lists_attr(v, op, SLS_gathering_axes);
		rc = lists ? verify_per_dim(v, &c, lists, true, "gathering") : -1;
		break;
	case SL_OP_SDY_ALL_SLICE:
		lists = lists_attr(v, op, SLS_slicing_axes);
		rc = lists ? verify_per_dim(v, &c, lists, false, "slicing") : -1;
		break;
	case SL_OP_SDY_REDUCE_SCATTER:
		lists = lists_attr(v, op, SLS_scatter_axes);
		rc = lists ? sli_verify_check_unreduced(v, c.operand, op, c.out, op, SLI_VERIFY_NO_OP,
		                                        (int)reduction_of(op)) : -1;
		if (rc == 0)
			rc = verify_per_dim(v, &c, lists, false, "slicing");
		break;
	case SL_OP_SDY_ALL_TO_ALL:
		rc = verify_all_to_all(v, op, &c);
		break;
	case SL_OP_SDY_COLLECTIVE_PERMUTE:
		rc = verify_collective_permute(v, op, &c);
		break;
	case SL_OP_SDY_ALL_REDUCE:
		rc = verify_all_reduce(v, op, &c);
		break;
	case SL_OP_SDY_SHARDED_TO_UNREDUCED:
		rc = verify_sharded_to_unreduced(v, op, &c);
		break;
	case SL_OP_SDY_REPLICATED_TO_UNREDUCED:
		rc = verify_replicated_to_unreduced(v, op, &c);
		break;
	default:
		rc = 0;
	}
	coll_fini(&c);
	return rc;
}
