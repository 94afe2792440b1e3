/*
 * verify.c - checks every invariant of the sdy dialect (spec/dialect-and-
 * verifier.md section 4, spec/sharding-rules.md section 3) and the MLIR
 * structural rules the tests rely on, in MLIR's order (4.13): ops are
 * visited in pre-order; at each op its discardable sdy.* attributes, then
 * its traits and own verifier run; isolated-from-above ops (functions,
 * manual and named computations) are verified after their non-isolated
 * siblings; region invariants (isolation, symbol tables) run when an op is
 * left; symbol-use verification runs last, when the module is left.  The
 * first failure stops verification, except that sibling isolated ops are
 * all verified, as MLIR verifies them in parallel.  This file holds the
 * walk; the checks of each spec section are in verify_*.c (verifier.h).
 */
#include "verify/verify.h"

#include <stdlib.h>
#include <string.h>

#include "verify/verifier.h"
#include "util/checked.h"

bool
sli_verify_needs_terminator(const sl_op *op)
{
	return op->kind == SL_OP_FUNC || op->kind == SL_OP_SDY_MANUAL_COMPUTATION ||
	       op->kind == SL_OP_SDY_NAMED_COMPUTATION;
}

static int
verify_block(verifier *v, sl_op *parent, sl_block *b)
{
	bool failed = false;

	for (sl_op *o = b->first; o; o = o->next)
		if (!sli_verify_is_isolated(o) && sli_verify_op(v, o))
			return -1;
	for (sl_op *o = b->first; o; o = o->next)
		if (sli_verify_is_isolated(o) && sli_verify_op(v, o))
			failed = true;
	if (failed)
		return -1;
	if (sli_verify_needs_terminator(parent) && !b->first)
		return sli_verify_empty_block(v, parent);
	return 0;
}

int
sli_verify_empty_block(verifier *v, sl_op *parent)
{
	v->op = parent;
	sli_verify_plain_msg(v);
	sli_buf_puts(&v->msg, "empty block: expect at least a terminator");
	return sli_verify_emit(v);
}

/*
 * A tensor's element count must fit in int64: every size computed from a
 * shape (reshape factors, shard sizes, costs) is then exact.
 */
static int
check_type_size(verifier *v, const sl_type *t)
{
	int64_t n = 1;

	if (t->kind != SL_TYPE_TENSOR || t->unranked)
		return 0;
	for (uint32_t i = 0; i < t->rank; i++) {
		if (t->dims[i] != SL_DYN && !sli_mul_i64_ok(n, t->dims[i], &n)) {
			sli_buf *b = sli_verify_plain_msg(v);
			sli_buf_puts(b, "number of elements of ");
			sli_verify_put_type(v, b, t);
			sli_buf_printf(b, " is out of range (more than %lld)", (long long)INT64_MAX);
			return sli_verify_emit(v);
		}
	}
	return 0;
}

static int
check_type_sizes(verifier *v, const sl_op *op)
{
	for (uint32_t i = 0; i < op->nresults; i++)
		if (check_type_size(v, op->results[i].type))
			return -1;
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (uint32_t i = 0; i < b->nargs; i++)
				if (check_type_size(v, b->args[i].type))
					return -1;
	return 0;
}

/*
 * The invariants MLIR checks when it builds attributes, that is while it
 * parses: they come before any op verification, in text order.  These
 * are op's own; verify_built_attrs adds those of the ops inside it.
 */
int
sli_verify_built_attrs_of(verifier *v, const sl_op *op)
{
	if (check_type_sizes(v, op))
		return -1;
	for (uint32_t i = 0; i < op->nattrs; i++) {
		const sl_attr *a = op->attrs[i].attr;

		if (a && a->kind == SL_ATTR_PROP_EDGES && sli_verify_check_edges_attr(v, a))
			return -1;
		for (uint32_t j = 0; a && a->kind == SL_ATTR_ARRAY && j < a->u.arr.n; j++)
			if (a->u.arr.v[j] && a->u.arr.v[j]->kind == SL_ATTR_PROP_EDGES &&
			    sli_verify_check_edges_attr(v, a->u.arr.v[j]))
				return -1;
	}
	return 0;
}

static int
verify_built_attrs(verifier *v, sl_op *op)
{
	v->op = op;
	if (sli_verify_built_attrs_of(v, op))
		return -1;
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next)
				if (verify_built_attrs(v, o))
					return -1;
	return 0;
}

int
sli_verify_op(verifier *v, sl_op *op)
{
	v->op = op;
	if (sli_verify_op_attrs(v, op) || sli_verify_invariants(v, op))
		return -1;
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			if (verify_block(v, op, b))
				return -1;
	v->op = op;
	if (sli_verify_is_isolated(op) && sli_verify_isolation(v, op))
		return -1;
	if (op->kind == SL_OP_MODULE && sli_verify_symbol_table(v, op))
		return -1;
	return 0;
}

int
sl_module_verify(sl_module *m)
{
	verifier v;
	int rc;

	memset(&v, 0, sizeof v);
	v.m = m;
	v.ctx = m->ctx;
	sli_buf_init(&v.msg);
	sli_buf_init(&v.note);
	/*
	 * One quiet walk makes every check; only when one fails does the
	 * walk in MLIR's order below run again, to report the failure MLIR
	 * reports first.  A valid module, the common case, is walked once
	 * instead of seven times.
	 */
	v.quiet = true;
	rc = sli_verify_quick(&v);
	v.quiet = false;
	if (rc) {
		sli_compute_use_counts(m->top);
		rc = verify_built_attrs(&v, m->top);
		if (rc == 0)
			rc = sli_verify_op(&v, m->top);
	}
	sli_buf_fini(&v.msg);
	sli_buf_fini(&v.note);
	return rc ? -1 : 0;
}
