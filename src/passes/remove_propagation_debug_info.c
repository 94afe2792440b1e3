/*
 * remove_propagation_debug_info.c - -sdy-remove-propagation-debug-info
 * (sdy_export_passes.md): the debugging attributes that propagation with
 * debug-propagation-edge-sharding or debug-sharding-origins leaves
 * (propagation edges and sharding origins, of ops, block arguments and
 * results) are removed from every op, and from every argument and result
 * of every function.  A function's own attributes are left alone, as in
 * Shardy, which strips only its arguments and results.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

static const char *const debug_attrs[] = {
	"sdy.propagation_edges", "sdy.block_arg_propagation_edges",
	"sdy.result_propagation_edges", "sdy.sharding_origins",
	"sdy.block_arg_sharding_origins", "sdy.result_sharding_origins",
};
enum { NDEBUG_ATTRS = sizeof debug_attrs / sizeof *debug_attrs };

static void
strip_func(sl_module *m, sl_op *f, const sl_sym *names)
{
	sl_block *b = sli_func_body(f);
	uint32_t nargs = b ? b->nargs : 0, nres = sli_func_nresults(f);
	for (int k = 0; k < NDEBUG_ATTRS; k++) {
		for (uint32_t i = 0; i < nargs; i++)
			if (sli_func_arg_attr(f, i, names[k]))
				sli_func_set_arg_attr(m, f, i, names[k], NULL);
		for (uint32_t i = 0; i < nres; i++)
			if (sli_func_res_attr(f, i, names[k]))
				sli_func_set_res_attr(m, f, i, names[k], NULL);
	}
}

typedef struct stripper {
	sl_module *m;
	sl_sym names[NDEBUG_ATTRS];
} stripper;

static int
strip_op(sl_op *op, void *ud)
{
	stripper *S = ud;
	if (op->kind == SL_OP_FUNC) {
		strip_func(S->m, op, S->names);
		return 0;
	}
	for (int k = 0; k < NDEBUG_ATTRS; k++)
		if (sli_op_attr(op, S->names[k]))
			sli_op_set_attr(S->m, op, S->names[k], NULL);
	return 0;
}

int
sli_pass_remove_propagation_debug_info(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	stripper S = {m, {0}};
	for (int k = 0; k < NDEBUG_ATTRS; k++)
		S.names[k] = sli_sym(m, debug_attrs[k]);
	sli_walk(m->top, strip_op, &S);
	return 0;
}
