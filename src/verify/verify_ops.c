/*
 * verify_ops.c - the dialect attributes of ops and functions (spec
 * sections 4.1, 4.11, 4.12), the other sdy ops with the generic MLIR
 * rules (traits, isolation, terminators), and symbol tables and symbol
 * uses.
 */
#include "verify/verifier.h"

#include <stdlib.h>
#include <string.h>

/* ==================================================================
 * Dialect attributes on ops and functions (4.1, 4.11, 4.12)
 * ================================================================== */

/* The sdy.* discardable attributes of an op, in dictionary order. */
int
sli_verify_op_attrs(verifier *v, sl_op *op)
{
	for (uint32_t i = 0; i < op->nattrs; i++) {
		sl_sym name = op->attrs[i].name;
		const sl_attr *a = op->attrs[i].attr;

		if (name == sli_sharding_list_name()) {
			sl_type **t;
			int rc;

			if (!a || a->kind != SL_ATTR_SHARDING_PER_VALUE)
				return sli_verify_op_error(v, NULL, "should have a sharding attribute of "
				                           "type TensorShardingPerValueAttr");
			t = sli_verify_result_types(op);
			rc = sli_verify_spv_attr(v, "result ", a, t, op->nresults, op);
			free(t);
			if (rc)
				return -1;
		} else if (name == sli_rule_attr_name()) {
			if (!a || a->kind != SL_ATTR_RULE)
				return sli_verify_op_error(v, NULL, "should have a sharding rule attribute "
				                           "of type OpShardingRuleAttr for attr named "
				                           "'sdy.sharding_rule'");
			if (sli_verify_rule(v, op, &a->u.rule))
				return -1;
		} else if (name == SLS_sdy_propagation_edges) {
			if (!a || a->kind != SL_ATTR_PROP_EDGES)
				return sli_verify_op_error(v, NULL, "should have a propagation edges "
				                           "attribute of type PropagationEdgesAttr for attr "
				                           "named 'sdy.propagation_edges'");
			if (sli_verify_edges(v, op, a))
				return -1;
		} else if (name == SLS_sdy_result_propagation_edges ||
		           name == SLS_sdy_block_arg_propagation_edges) {
			bool ok = a && a->kind == SL_ATTR_ARRAY;

			for (uint32_t j = 0; ok && j < a->u.arr.n; j++)
				ok = a->u.arr.v[j] && a->u.arr.v[j]->kind == SL_ATTR_PROP_EDGES;
			if (!ok)
				return sli_verify_op_error(v, NULL, "should have a propagation edges "
				                           "attribute of type ArrayAttr<PropagationEdgesAttr> "
				                           "for attr named 'sdy.result_propagation_edges' or "
				                           "'sdy.block_arg_propagation_edges'");
		}
	}
	return 0;
}

/* The sharding of one func argument or result, a (prefix "arg N - "). */
static int
verify_func_value_attrs(verifier *v, const sl_op *f, const char *what,
                        uint32_t index, const sl_attr *a, const sl_type *type)
{
	sli_buf pfx;
	int rc;

	if (!a)
		return 0;
	/* the prefix only words a failure, and the quiet walk words none */
	if (v->quiet)
		return a->kind != SL_ATTR_SHARDING ? -1
		       : sli_verify_sharding(v, "", &a->u.sharding, type, f);
	sli_buf_init(&pfx);
	sli_buf_printf(&pfx, "%s %u - ", what, index);
	if (a->kind != SL_ATTR_SHARDING)
		rc = sli_verify_op_error(v, sli_buf_cstr(&pfx), "should have a sharding attribute "
		                         "of type TensorShardingAttr");
	else
		rc = sli_verify_sharding(v, sli_buf_cstr(&pfx), &a->u.sharding, type, f);
	sli_buf_fini(&pfx);
	return rc;
}

int
sli_verify_func(verifier *v, sl_op *f)
{
	const sl_type *ft = sli_verify_func_type(f);
	sl_block *entry = sli_verify_body_block(f);

	if (entry) {
		for (uint32_t i = 0; i < entry->nargs; i++) {
			const sl_value *a = &entry->args[i];

			if (ft && i < ft->rank && ft->types[i] != a->type) {
				sli_buf *b = sli_verify_op_msg(v, NULL);

				sli_buf_printf(b, "type of entry block argument #%u(", i);
				sli_verify_put_type(v, b, a->type);
				sli_buf_puts(b, ") must match the type of the corresponding "
				             "argument in function signature(");
				sli_verify_put_type(v, b, ft->types[i]);
				sli_buf_putc(b, ')');
				return sli_verify_emit(v);
			}
			if (verify_func_value_attrs(v, f, "arg", i, sli_arg_sharding_attr(a),
			                            a->type))
				return -1;
		}
	} else if (ft) {
		for (uint32_t i = 0; i < ft->rank; i++)
			if (verify_func_value_attrs(v, f, "arg", i,
			                            sli_func_arg_sharding_attr(f, i),
			                            ft->types[i]))
				return -1;
	}
	for (uint32_t i = 0; ft && i < ft->nres; i++)
		if (verify_func_value_attrs(v, f, "result", i,
		                            sli_func_res_sharding_attr(f, i),
		                            ft->types[ft->rank + i]))
			return -1;
	return 0;
}

/* ==================================================================
 * Other sdy ops and generic MLIR rules
 * ================================================================== */

static int
same_operand_result_type(verifier *v, const sl_op *op)
{
	const sl_type *t = NULL;

	for (uint32_t i = 0; i < op->noperands; i++) {
		if (t && op->operands[i]->type != t)
			goto bad;
		t = op->operands[i]->type;
	}
	for (uint32_t i = 0; i < op->nresults; i++) {
		if (t && op->results[i].type != t)
			goto bad;
		t = op->results[i].type;
	}
	return 0;
bad:
	return sli_verify_op_error(v, NULL, "requires the same type for all operands and "
	                           "results");
}

/*
 * What both kinds of data-flow edge need: a static-shaped result, and an
 * operand (named `what` in the message) with no other user.
 */
static int
check_edge_value(verifier *v, sl_op *op, const char *what)
{
	const char *name = sli_op_info[op->kind].name;
	sli_buf *b;

	if (!sli_type_is_static(op->results[0].type)) {
		b = sli_verify_op_msg(v, NULL);
		sli_buf_printf(b, "expected %s to have a static-shaped result. type: ", name);
		sli_verify_put_type(v, b, op->results[0].type);
		return sli_verify_emit(v);
	}
	if (op->operands[0]->id != 1)
		return sli_verify_op_error(v, NULL, "expected %s of %s to have a single user",
		                                      what, name);
	return 0;
}

static int
verify_data_flow_edge(verifier *v, sl_op *op)
{
	const sl_value *in;

	if (op->noperands != 1 || op->nresults != 1)
		return 0;
	in = op->operands[0];
	if (check_edge_value(v, op, "input"))
		return -1;
	if (in->def && sli_verify_has_trait(in->def, T_SDY) &&
	    in->def->kind != SL_OP_SDY_MANUAL_COMPUTATION &&
	    in->def->kind != SL_OP_SDY_NAMED_COMPUTATION) {
		sli_verify_op_error(v, NULL, "expected input of sdy.data_flow_edge to not be "
		                    "defined by an SdyDialect op (other than an "
		                    "sdy.named_computation).");
		v->note.n = 0;
		sli_buf_puts(&v->note, "sdy op defining the input of the "
		             "sdy.data_flow_edge");
		sli_verify_emit_note(v, in->def->loc);
		return -1;
	}
	return 0;
}

static int
verify_func_data_flow_edge(verifier *v, sl_op *op)
{
	const sl_value *in;
	sl_op *owner;

	if (op->noperands != 1 || op->nresults != 1)
		return 0;
	in = op->operands[0];
	if (check_edge_value(v, op, "operand"))
		return -1;
	owner = sli_verify_arg_owner(in);
	if (!in->def && (!owner || owner->kind != SL_OP_FUNC))
		return sli_verify_op_error(v, NULL, "expected operand of sdy.func_data_flow_edge "
		                           "to be a block argument of a func op.");
	if (in->def && in->def->kind != SL_OP_CALL)
		return sli_verify_op_error(v, NULL, "expected operand of sdy.func_data_flow_edge "
		                           "to be a result of call op.");
	return 0;
}

static int
verify_mesh_op(verifier *v, sl_op *op)
{
	sl_op *parent = sli_op_parent(op);
	const sl_mesh *mesh = sli_mesh_op_mesh(op);
	int rc = 0;

	if (parent && parent->kind != SL_OP_MODULE)
		return sli_verify_op_error(v, NULL, "expects parent op 'builtin.module'");
	if (!mesh)
		return sli_verify_op_error(v, NULL, "requires attribute 'mesh'");
	if (sli_verify_mesh_attr(v->ctx, mesh, &v->note)) {
		sli_verify_op_msg(v, NULL);
		sli_buf_puts(&v->msg, sli_buf_cstr(&v->note));
		rc = sli_verify_emit(v);
	}
	v->note.n = 0;
	return rc;
}

static int
verify_func_return(verifier *v, sl_op *op)
{
	sl_op *f = sli_op_parent(op);
	const sl_type *ft;
	sli_buf *b;

	if (!f || f->kind != SL_OP_FUNC || !(ft = sli_verify_func_type(f)))
		return 0;
	if (op->noperands != ft->nres)
		return sli_verify_op_error(v, NULL, "has %u operands, but enclosing function (@%s) "
		                           "returns %u", op->noperands,
		                           sli_verify_sym(v, sli_op_sym_name(v->m, f)), ft->nres);
	for (uint32_t i = 0; i < ft->nres; i++) {
		if (op->operands[i]->type == ft->types[ft->rank + i])
			continue;
		b = sli_verify_op_msg(v, NULL);
		sli_buf_printf(b, "type of return operand %u (", i);
		sli_verify_put_type(v, b, op->operands[i]->type);
		sli_buf_puts(b, ") doesn't match function result type (");
		sli_verify_put_type(v, b, ft->types[ft->rank + i]);
		sli_buf_printf(b, ") in function @%s", sli_verify_sym(v, sli_op_sym_name(v->m, f)));
		return sli_verify_emit(v);
	}
	return 0;
}

/* Traits and op verifiers, run when an op is entered. */
int
sli_verify_invariants(verifier *v, sl_op *op)
{
	const sl_attr *a;

	if (sli_verify_has_trait(op, T_TERM) && op->next)
		return sli_verify_op_error(v, NULL, "must be the last operation in the parent "
		                           "block");
	switch (op->kind) {
	case SL_OP_FUNC:
		return sli_verify_func(v, op);
	case SL_OP_RETURN:
		return verify_func_return(v, op);
	case SL_OP_SDY_MESH:
		return verify_mesh_op(v, op);
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
		if (!sli_result_sharding(op, 0))
			return sli_verify_op_error(v, NULL, "requires attribute 'sharding'");
		return same_operand_result_type(v, op);
	case SL_OP_SDY_MANUAL_COMPUTATION:
		return sli_verify_manual_nesting(v, op);
	case SL_OP_SDY_NAMED_COMPUTATION:
		return sli_verify_named(v, op);
	case SL_OP_SDY_SHARDING_GROUP:
		if (op->noperands == 1 && (op->operands[0]->type->kind != SL_TYPE_TENSOR ||
		                           op->operands[0]->type->unranked)) {
			sli_buf *b = sli_verify_op_msg(v, NULL);

			sli_buf_puts(b, "operand #0 must be ranked tensor of any type "
			             "values, but got ");
			sli_verify_put_type(v, b, op->operands[0]->type);
			return sli_verify_emit(v);
		}
		return 0;
	case SL_OP_SDY_CONSTANT:
		if (op->nresults == 1 && !sli_type_is_static(op->results[0].type))
			return sli_verify_op_error(v, NULL, "elements literal type must have static "
			                           "shape");
		return 0;
	case SL_OP_SDY_DATA_FLOW_EDGE:
		if (same_operand_result_type(v, op))
			return -1;
		return verify_data_flow_edge(v, op);
	case SL_OP_SDY_FUNC_DATA_FLOW_EDGE:
		return verify_func_data_flow_edge(v, op);
	case SL_OP_SDY_PROPAGATION_BARRIER:
		if (same_operand_result_type(v, op))
			return -1;
		a = sli_op_get(op, SLS_allowed_direction);
		if (a && a->kind == SL_ATTR_DIRECTION && a->u.direction == SL_DIR_BOTH)
			return sli_verify_op_error(v, NULL, "cannot specify `BOTH` as the direction. "
			                           "Not blocking propagation direction makes the op "
			                           "redundant.");
		return 0;
	case SL_OP_ALL_REDUCE:
	case SL_OP_ALL_GATHER:
	case SL_OP_REDUCE_SCATTER:
	case SL_OP_ALL_TO_ALL:
		return sli_verify_replica_groups(v, op);
	default:
		if (sli_verify_is_collective(op)) {
			if (same_operand_result_type(v, op))
				return -1;
			return sli_verify_collective(v, op);
		}
		return 0;
	}
}

/* Region isolation: no op inside uses a value defined outside. */
int
sli_verify_isolation(verifier *v, sl_op *iso)
{
	for (uint32_t r = 0; r < iso->nregions; r++) {
		sl_region *region = &iso->regions[r];
		SL_VEC(sl_region *) pending = {0};

		SL_VEC_PUSH(pending, region);
		while (pending.n) {
			sl_region *cur = pending.v[--pending.n];

			for (sl_block *b = cur->first; b; b = b->next) {
				for (sl_op *o = b->first; o; o = o->next) {
					for (uint32_t i = 0; i < o->noperands; i++) {
						if (sli_verify_region_within(sli_verify_value_region(o->operands[i]), region))
							continue;
						SL_VEC_FREE(pending);
						v->op = o;
						sli_verify_op_error(v, NULL, "using value defined outside the "
						                    "region");
						v->note.n = 0;
						sli_buf_puts(&v->note, "required by region isolation "
						             "constraints");
						sli_verify_emit_note(v, iso->loc);
						return -1;
					}
					if (o->nregions && !sli_verify_has_trait(o, T_ISO))
						for (uint32_t k = 0; k < o->nregions; k++)
							SL_VEC_PUSH(pending, &o->regions[k]);
				}
			}
		}
		SL_VEC_FREE(pending);
	}
	return 0;
}

/* ==================================================================
 * Symbol tables and symbol uses
 * ================================================================== */

static int
verify_call(verifier *v, sl_op *op)
{
	sl_sym name = sli_call_callee(v->m, op);
	const sl_type *ft;
	sl_op *f;
	sli_buf *b;

	if (!name)
		return 0;
	f = sli_lookup_func(v->m, name);
	if (!f)
		return sli_verify_op_error(v, NULL, "'%s' does not reference a valid function",
		                           sli_verify_sym(v, name));
	if (!(ft = sli_verify_func_type(f)))
		return 0;
	if (ft->rank != op->noperands)
		return sli_verify_op_error(v, NULL, "incorrect number of operands for callee");
	for (uint32_t i = 0; i < ft->rank; i++) {
		if (op->operands[i]->type == ft->types[i])
			continue;
		b = sli_verify_op_msg(v, NULL);
		sli_buf_puts(b, "operand type mismatch: expected operand type ");
		sli_verify_put_type(v, b, ft->types[i]);
		sli_buf_puts(b, ", but provided ");
		sli_verify_put_type(v, b, op->operands[i]->type);
		sli_buf_printf(b, " for operand number %u", i);
		return sli_verify_emit(v);
	}
	if (ft->nres != op->nresults)
		return sli_verify_op_error(v, NULL, "incorrect number of results for callee");
	for (uint32_t i = 0; i < ft->nres; i++)
		if (op->results[i].type != ft->types[ft->rank + i])
			return sli_verify_op_error(v, NULL, "result type mismatch at index %u", i);
	return 0;
}

/* The sharding of the input of a constraint, through propagation barriers. */
static const sl_sharding *
input_sharding(verifier *v, const sl_value *val, const sl_op **at)
{
	while (val->def && val->def->kind == SL_OP_SDY_PROPAGATION_BARRIER &&
	       val->def->noperands == 1)
		val = val->def->operands[0];
	*at = val->def ? val->def : sli_verify_arg_owner(val);
	return sli_value_sharding(val);
}

int
sli_verify_symbol_uses(verifier *v, sl_op *op)
{
	const sl_sharding *s, *src;
	const sl_op *src_at;

	v->op = op;
	switch (op->kind) {
	case SL_OP_CALL:
		return verify_call(v, op);
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
		s = sli_result_sharding(op, 0);
		if (!s || op->nresults != 1 || op->noperands != 1)
			return 0;
		if (sli_verify_sharding(v, NULL, s, op->results[0].type, op))
			return -1;
		src = input_sharding(v, op->operands[0], &src_at);
		if (!src || !src_at)
			return 0;
		return sli_verify_check_unreduced(v, src, src_at, s, op, SL_RED_SUM,
		                                  (int)src->reduction);
	case SL_OP_SDY_DATA_FLOW_EDGE:
		s = sli_result_sharding(op, 0);
		if (!s || op->nresults != 1)
			return 0;
		return sli_verify_sharding(v, NULL, s, op->results[0].type, op);
	case SL_OP_SDY_MANUAL_COMPUTATION:
		return sli_verify_manual_uses(v, op);
	case SL_OP_SDY_NAMED_COMPUTATION:
		return sli_verify_named_uses(v, op);
	default:
		return 0;
	}
}

static int
walk_symbol_uses(verifier *v, sl_op *op)
{
	for (uint32_t r = 0; r < op->nregions; r++)
		for (sl_block *b = op->regions[r].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next) {
				if (sli_verify_symbol_uses(v, o))
					return -1;
				if (o->kind != SL_OP_MODULE && walk_symbol_uses(v, o))
					return -1;
			}
	return 0;
}

/* The names a module defines are unique. */
int
sli_verify_symbol_names(verifier *v, sl_op *mod)
{
	sl_block *b = sli_verify_body_block(mod);
	/* the first op defining each name, by symbol (names are dense ids) */
	sl_op **first = NULL;
	size_t nfirst = 0;

	for (sl_op *o = b ? b->first : NULL; o; o = o->next) {
		sl_sym name = sli_op_sym_name(v->m, o);

		if (!name)
			continue;
		if (name >= nfirst) {
			size_t n = 2 * (size_t)name + 64;
			first = sli_xrealloc(first, sizeof *first * n);
			memset(first + nfirst, 0, sizeof *first * (n - nfirst));
			nfirst = n;
		}
		sl_op *p = first[name];
		if (!p) {
			first[name] = o;
		} else {
			free(first);
			v->op = o;
			sli_verify_plain_msg(v);
			sli_buf_printf(&v->msg, "redefinition of symbol named '%s'",
			               sli_verify_sym(v, name));
			sli_verify_emit(v);
			v->note.n = 0;
			sli_buf_puts(&v->note, "see existing symbol definition here");
			sli_verify_emit_note(v, p->loc);
			return -1;
		}
	}
	free(first);
	return 0;
}

/* The symbol table of a module: unique names, then symbol uses. */
int
sli_verify_symbol_table(verifier *v, sl_op *mod)
{
	if (sli_verify_symbol_names(v, mod))
		return -1;
	return walk_symbol_uses(v, mod);
}
