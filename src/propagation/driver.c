/*
 * driver.c - one propagation pass (spec/propagation.md 7.1): index the
 * module, check shapes, synchronise sharding groups, run the strategy of
 * the pass, drop built rules; module dumps, the pass options (8.2) and
 * which ops are element-wise (4.3).  The fixpoint itself is in
 * worklist.c, a step in step.c.
 */
#include "propagation/prop_internal.h"
#include "ir/access.h"
#include "formats/mlir_printer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The index found the first op with a result of a rejected shape. */
static int
check_shapes(sli_prop *P)
{
	sl_op *op = P->bad_shape;
	if (op) {
		for (uint32_t r = 0; r < op->nresults; r++) {
			const sl_type *t = op->results[r].type;
			if (!t)
				continue;
			if (t->kind == SL_TYPE_TENSOR && !sli_type_is_static(t)) {
				sli_error(P->ctx, op->loc, "Shardy propagation only supports ranked "
				          "tensors with a static shape. type: %s",
				          sl_sym_str(P->ctx, t->text));
				return -1;
			}
			if (t->kind == SL_TYPE_TUPLE) {
				sli_error(P->ctx, op->loc, "Shardy propagation doesn't support tuples: %s",
				          sl_sym_str(P->ctx, t->text));
				return -1;
			}
		}
	}
	return 0;
}

/*
 * Rules were attached only in the modes that dump the module, and no
 * other op had a rule attribute unless it had attributes at indexing
 * (SLI_OPCLASS_ATTRS):
 * the ops of the pass are not streamed through the caches once more.
 */
static void
drop_rules(sli_prop *P)
{
	bool attached = P->o->dump_dir && *P->o->dump_dir;
	for (uint32_t i = 0; i < P->nops; i++) {
		if (!attached && !(P->opclass[i] & SLI_OPCLASS_ATTRS))
			continue;
		sl_op *op = P->ops[i];
		sl_attr *r = sli_op_rule_attr(op);
		if (r && !(r->kind == SL_ATTR_RULE && r->u.rule.custom))
			sli_op_set_rule_attr(P->m, op, NULL);
	}
}

sl_module *
sli_prop_module(sli_prop *P)
{
	return P->m;
}

const sli_prop_opts *
sli_prop_options(sli_prop *P)
{
	return P->o;
}

void
sli_prop_dump(sli_prop *P, const char *name)
{
	if (!P->o->dump_dir || !*P->o->dump_dir)
		return;
	sli_buf path;
	sli_buf_init(&path);
	sli_buf_printf(&path, "%s/%02d.%s.mlir", P->o->dump_dir, P->o->dump_index, name);
	FILE *f = fopen(sli_buf_cstr(&path), "w");
	if (!f) {
		/* Shardy's text; a warning, as the pass goes on without the dump */
		int err = errno;
		sli_diag(P->ctx, SL_DIAG_WARNING, sli_loc_none(), "error when writing file %s: %s",
		         sli_buf_cstr(&path), strerror(err));
	} else {
		sl_print_opts po = {false, false, false};
		sl_module_print(P->m, f, &po);
		fclose(f);
		/* the printer numbered the values its own way (sli_prop_indexed) */
		sli_prop_index(P);
	}
	sli_buf_fini(&path);
}

int
sli_propagate(sl_module *m, const sli_prop_opts *o)
{
	sli_prop P;
	memset(&P, 0, sizeof P);
	P.m = m;
	P.ctx = m->ctx;
	P.o = o;
	P.level = -1;
	P.ropts.conservative = o->conservative;
	P.ropts.warn = true;
	sli_arena_init(&P.scratch);
	sli_arena_init(&P.rulemem);
	sli_arena_init(&P.memomem);
	static const sl_rule no_rule;
	P.no_rule = &no_rule;
	sli_prop_index(&P);
	int rc = 0;
	if (check_shapes(&P)) {
		rc = -1;
		goto done;
	}
	if (sli_prop_sync_groups_initial(&P))
		sli_prop_index(&P);
	sli_prop_debug_init(&P);
	switch (o->pass) {
	case SLI_PROP_USER_PRIORITY:
		sli_prop_user_priority(&P);
		break;
	case SLI_PROP_OP_PRIORITY:
		sli_prop_op_priority(&P);
		break;
	default:
		sli_prop_strategy_run(&P, -1);
		break;
	}
	if (!o->keep_sharding_rules)
		drop_rules(&P);
	sli_prop_debug_finish(&P);
	if (P.failed)
		rc = -1;
done:
	sli_prop_debug_fini(&P);
	sli_rule_opts_fini(&P.ropts);
	sli_prop_index_fini(&P);
	sli_htab_fini(&P.interned);
	sli_htab_fini(&P.spv1);
	sli_htab_fini(&P.memo);
	sli_htab_fini(&P.dirs_cache);
	sli_htab_fini(&P.idrules);
	sli_arena_fini(&P.memomem);
	free(P.meshes);
	sli_arena_fini(&P.scratch);
	sli_arena_fini(&P.rulemem);
	SL_VEC_FREE(P.rule_list);
	/*
	 * The pass's tables lie freed in the heap, under the chunk of the
	 * module arena that its shardings took; export and printing would
	 * fill that chunk's untouched rest with fresh pages and leave the
	 * freed ones resident beside them (issue 17: peak memory).  A big
	 * module's next allocations take a new chunk instead, which the heap
	 * carves from what the pass freed.  A small module's rest is a few
	 * pages, and a new chunk for it made export slower.
	 */
	if (m->arena.total >= 1 << 20)
		sli_arena_seal(&m->arena);
	return rc;
}

/* ====================================================================
 * Options (spec 8.2)
 * ==================================================================== */

int
sli_prop_opts_parse(sl_module *m, const sli_pass_opts *po, int pass, sli_prop_opts *o)
{
	(void)m;
	*o = po->prop;
	o->pass = pass;
	if (pass == SLI_PROP_BASIC)	/* it takes no propagation-strategy */
		o->strategy = SLI_STRATEGY_BASIC;
	return 0;
}

/* ====================================================================
 * Element-wise ops (spec 4.3)
 * ==================================================================== */

bool
sli_prop_elementwise(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_REVERSE:
	case SL_OP_AFTER_ALL:
	case SL_OP_CHLO_TOP_K:
		return false;
	case SL_OP_COMPLEX:
	case SL_OP_SELECT:
	case SL_OP_COMPARE:
	case SL_OP_SDY_PROPAGATION_BARRIER:
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
		return true;
	case SL_OP_BITCAST_CONVERT: {
		if (op->noperands != 1 || op->nresults != 1)
			return false;
		const sl_type *a = op->operands[0]->type, *b = op->results[0].type;
		if (!a || !b || a->kind != SL_TYPE_TENSOR || b->kind != SL_TYPE_TENSOR ||
		    a->rank != b->rank)
			return false;
		for (uint32_t d = 0; d < a->rank; d++)
			if (a->dims[d] != b->dims[d])
				return false;
		return true;
	}
	default:
		break;
	}
	sl_op_format f = sli_op_info[op->kind].format;
	return op->kind != SL_OP_UNKNOWN && (f == SL_FMT_SAME || f == SL_FMT_CHLO);
}
