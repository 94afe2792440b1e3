/*
 * inline_meshes.c - -sdy-inline-meshes (the inverse of
 * -sdy-lift-inlined-meshes): every sharding that names an `sdy.mesh` of
 * the top module holds a copy of that mesh instead, and the `sdy.mesh`
 * ops go away.  Shardings already inlined, or naming no known mesh, stay
 * as they are.
 *
 * Left undone: the mesh names inside StableHLO replica groups
 * (#stablehlo.replica_group_mesh_axes<mesh = @m, ...>) stay names, since
 * the reader keeps a named replica group as text (case 007 fails).
 */
#include "passes/pass.h"
#include "passes/passutil.h"

static sl_sharding *
inline_sharding(sl_module *m, sl_op *op, const sl_sharding *s, void *ud)
{
	(void)op;
	(void)ud;
	if (!s->mesh_name)
		return NULL;
	const sl_mesh *mesh = sli_sharding_mesh(m, s);
	if (!mesh)
		return NULL;
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	*r = *s;
	r->mesh_name = 0;
	r->mesh = SL_NEW(&m->arena, sl_mesh);
	*r->mesh = *mesh;
	return r;
}

int
sli_pass_inline_meshes(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sli_transform_shardings_memo(m, inline_sharding, NULL);
	sl_block *body = sli_module_body(m);
	sl_op *next;
	for (sl_op *op = body ? body->first : NULL; op; op = next) {
		next = op->next;
		if (op->kind == SL_OP_SDY_MESH)
			sli_op_erase(op);
	}
	return 0;
}
