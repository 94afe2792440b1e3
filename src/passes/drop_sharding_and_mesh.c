/*
 * drop_sharding_and_mesh.c - -sdy-drop-sharding-and-mesh
 * (sdy_export_passes.md): every `sdy.sharding` attribute goes, of ops and
 * of function arguments and results, then every `sdy.mesh` of the top
 * module that no remaining sharding names.  Shardings that are part of an
 * op (reshards, constraints, computations, collectives) stay, and so do
 * their meshes.  Inferred: a mesh named only inside a StableHLO replica
 * group (kept as text by the reader) is not seen as used.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

static int
drop_op(sl_op *op, void *ud)
{
	sl_module *m = ud;
	if (sli_op_sharding_list(op))
		sli_op_set_sharding_list(m, op, NULL);
	if (op->kind != SL_OP_FUNC)
		return 0;
	sl_block *b = sli_func_body(op);
	for (uint32_t i = 0; b && i < b->nargs; i++)
		if (sli_func_arg_sharding_attr(op, i))
			sli_func_set_arg_attr(m, op, i, sli_sharding_list_name(), NULL);
	for (uint32_t i = 0; i < sli_func_nresults(op); i++)
		if (sli_func_res_sharding_attr(op, i))
			sli_func_set_res_attr(m, op, i, sli_sharding_list_name(), NULL);
	return 0;
}

typedef SL_VEC(sl_sym) symvec;

/* Records the mesh every remaining sharding names; changes nothing. */
static sl_sharding *
note_mesh(sl_module *m, sl_op *op, const sl_sharding *s, void *ud)
{
	(void)m;
	(void)op;
	if (s->mesh_name)
		SL_VEC_PUSH(*(symvec *)ud, s->mesh_name);
	return NULL;
}

int
sli_pass_drop_sharding_and_mesh(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	symvec used = {0};
	sli_walk(m->top, drop_op, m);
	sli_transform_shardings(m, note_mesh, &used);
	sl_block *body = sli_module_body(m);
	sl_op *next;
	for (sl_op *op = body ? body->first : NULL; op; op = next) {
		next = op->next;
		if (op->kind != SL_OP_SDY_MESH)
			continue;
		sl_sym name = sli_op_sym_name(m, op);
		bool live = false;
		for (size_t i = 0; i < used.n && !live; i++)
			live = used.v[i] == name;
		if (!live)
			sli_op_erase(op);
	}
	SL_VEC_FREE(used);
	return 0;
}
