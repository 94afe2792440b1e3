/*
 * verify_edges.c - propagation-edge attributes (spec section 2.9).
 */
#include "verify/verifier.h"

#include <stdlib.h>
#include <string.h>

static bool
edge_ref_equal(const sl_edge_ref *a, const sl_edge_ref *b)
{
	return a->result == b->result && a->index == b->index;
}

/* The attribute's own invariants (checked by MLIR when it is built). */
int
sli_verify_check_edges_attr(verifier *v, const sl_attr *a)
{
	for (uint32_t s = 0; s < a->u.edges.n; s++) {
		const sl_edge_step *st = &a->u.edges.v[s];

		if (st->step < 0)
			return sli_verify_op_error(v, NULL, "propagation edges have negative step "
			                           "index: %lld", (long long)st->step);
		for (uint32_t t = 0; t < s; t++)
			if (a->u.edges.v[t].step == st->step)
				return sli_verify_op_error(v, NULL, "propagation edges have duplicate "
				                           "step index: %lld", (long long)st->step);
		for (uint32_t e = 0; e < st->n; e++) {
			const sl_edge_entry *en = &st->entries[e];

			for (uint32_t i = 0; i < en->ntargets; i++) {
				if (edge_ref_equal(&en->targets[i], &en->source))
					return sli_verify_op_error(v, NULL, "propagation edges have a source "
					                           "that is the same as a target");
				for (uint32_t j = 0; j < i; j++) {
					if (!edge_ref_equal(&en->targets[i], &en->targets[j]))
						continue;
					return sli_verify_op_error(v, NULL, "propagation edges have duplicate "
					                           "targets for step index: %lld and axis: %s",
					                           (long long)st->step, sli_verify_sym(v, en->axis.name));
				}
			}
		}
	}
	return 0;
}

static const sl_sharding *
edge_ref_sharding(verifier *v, const sl_op *op, const sl_edge_ref *r)
{
	if (r->index < 0)
		return NULL;
	if (r->result)
		return r->index < op->nresults ? sli_value_sharding(&op->results[r->index])
		                               : NULL;
	return r->index < op->noperands ? sli_value_sharding_seen(v->m, op->operands[r->index])
	                                : NULL;
}

static int
check_edge_ref_range(verifier *v, const sl_op *op, const sl_edge_ref *r)
{
	uint32_t n = r->result ? op->nresults : op->noperands;

	if (r->index < 0 || r->index >= n)
		return sli_verify_op_error(v, NULL, "expected a value ref to have %s %s index in "
		                           "range [0, %u), got: %lld", r->result ? "a" : "an",
		                r->result ? "result" : "operand", n,
		                (long long)r->index);
	return 0;
}

int
sli_verify_edges(verifier *v, const sl_op *op, const sl_attr *a)
{
	const sl_mesh *mesh = NULL;
	bool any = false, common = true;

	for (uint32_t s = 0; s < a->u.edges.n; s++) {
		const sl_edge_step *st = &a->u.edges.v[s];

		for (uint32_t e = 0; e < st->n; e++) {
			const sl_edge_entry *en = &st->entries[e];

			for (uint32_t i = 0; i <= en->ntargets; i++) {
				const sl_edge_ref *r = i == 0 ? &en->source : &en->targets[i - 1];
				const sl_sharding *sh = edge_ref_sharding(v, op, r);
				const sl_mesh *m;

				if (!sh)
					continue;
				any = true;
				m = sli_verify_sharding_mesh(v, sh, op);
				if (!mesh)
					mesh = m;
				else if (!m || !sli_mesh_equal(m, mesh))
					common = false;
			}
		}
	}
	if (!any)
		return sli_verify_op_error(v, NULL, "expected propagation edges attr to reference "
		                           "a sharding");
	if (!mesh || !common)
		return sli_verify_op_error(v, NULL, "expected a common mesh for propagation edges "
		                           "attr");
	for (uint32_t s = 0; s < a->u.edges.n; s++) {
		const sl_edge_step *st = &a->u.edges.v[s];

		for (uint32_t e = 0; e < st->n; e++)
			if (sli_mesh_axis_index(mesh, st->entries[e].axis.name) < 0)
				return sli_verify_op_error(v, NULL, "expected axis ref to be in one of "
				                           "the meshes");
	}
	if (op->kind == SL_OP_SDY_FUNC_DATA_FLOW_EDGE)
		return 0;
	for (uint32_t s = 0; s < a->u.edges.n; s++) {
		const sl_edge_step *st = &a->u.edges.v[s];

		for (uint32_t e = 0; e < st->n; e++) {
			const sl_edge_entry *en = &st->entries[e];

			if (check_edge_ref_range(v, op, &en->source))
				return -1;
			for (uint32_t i = 0; i < en->ntargets; i++)
				if (check_edge_ref_range(v, op, &en->targets[i]))
					return -1;
		}
	}
	return 0;
}
