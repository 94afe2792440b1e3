/*
 * stablehlo_attrs.c - building, reading and comparing the typed StableHLO
 * attributes (dimension numbers).  A convolution's dimension roles are
 * derived from its layout here, once, when the attribute is built.
 */
#include "ir/stablehlo_attrs.h"

#include "ir/ir.h"

#include <string.h>

const char *const sli_dot_keys[SL_DOT_NLISTS] = {
	"lhs_batching_dimensions", "rhs_batching_dimensions",
	"lhs_contracting_dimensions", "rhs_contracting_dimensions",
};

const char *const sli_gather_keys[SL_GS_NLISTS + 1] = {
	"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
	"start_indices_batching_dims", "start_index_map", "index_vector_dim",
};

const char *const sli_scatter_keys[SL_GS_NLISTS + 1] = {
	"update_window_dims", "inserted_window_dims", "input_batching_dims",
	"scatter_indices_batching_dims", "scatter_dims_to_operand_dims", "index_vector_dim",
};

const char *const sli_conv_raw_keys[3 * SL_CONV_NGROUPS] = {
	"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
	"kernel_input_feature_dimension", "kernel_output_feature_dimension",
	"kernel_spatial_dimensions",
	"output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions",
};

static sl_dim_list
list_dup(sl_module *m, const sl_dim_list *l)
{
	sl_dim_list r = {NULL, l->n};
	r.v = (int64_t *)sli_module_share(m, l->v, sizeof *l->v * l->n);
	return r;
}

static bool
list_equal(const sl_dim_list *a, const sl_dim_list *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->v, b->v, sizeof *a->v * a->n) == 0);
}

static sl_attr *
new_attr(sl_module *m, sl_attr_kind kind, sl_loc loc)
{
	sl_attr *a = sli_attr_new(m, kind);
	a->loc = loc;
	return a;
}

sl_attr *
sli_attr_dot_dims(sl_module *m, const sl_dot_dims *d, sl_loc loc)
{
	/* shared, as its lists: memset so that the padding compares too */
	sl_dot_dims c;
	memset(&c, 0, sizeof c);
	for (int k = 0; k < SL_DOT_NLISTS; k++) {
		sl_dim_list l = list_dup(m, &d->lists[k]);
		c.lists[k].v = l.v;
		c.lists[k].n = l.n;
	}
	sl_attr a;
	memset(&a, 0, sizeof a);
	a.kind = SL_ATTR_DOT_DIMS;
	a.loc = loc;
	a.u.dot = sli_module_share(m, &c, sizeof c);
	return sli_attr_share(m, &a);
}

sl_attr *
sli_attr_gs_dims(sl_module *m, bool scatter, const sl_gs_dims *d, sl_loc loc)
{
	sl_gs_dims *c = SL_NEW(&m->arena, sl_gs_dims);
	*c = *d;
	for (int k = 0; k < SL_GS_NLISTS; k++)
		c->lists[k] = list_dup(m, &d->lists[k]);
	sl_attr *a = new_attr(m, scatter ? SL_ATTR_SCATTER_DIMS : SL_ATTR_GATHER_DIMS, loc);
	a->u.gs = c;
	return a;
}

/* Largest spatial index a layout may use for the roles to be known. */
#define MAX_SPATIAL 1000

/*
 * The roles of a layout: the last position of each letter, and each
 * spatial index's last position (the list grown with SL_CONV_NO_DIM).
 */
static void
derive_roles(sl_module *m, sl_conv_dims *c)
{
	c->known = true;
	for (int g = 0; g < SL_CONV_NGROUPS; g++) {
		const sl_dim_list *l = &c->layout[g];
		int64_t nspatial = 0;
		c->first[g] = c->second[g] = SL_CONV_NO_DIM;
		for (uint32_t i = 0; i < l->n; i++) {
			if (l->v[i] == SL_CONV_UNKNOWN || l->v[i] > MAX_SPATIAL)
				c->known = false;
			else if (l->v[i] >= nspatial)
				nspatial = l->v[i] + 1;
		}
		c->spatial[g].n = (uint32_t)nspatial;
		c->spatial[g].v = nspatial ? SL_NEWN(&m->arena, int64_t, nspatial) : NULL;
		for (int64_t k = 0; k < nspatial; k++)
			c->spatial[g].v[k] = SL_CONV_NO_DIM;
		for (uint32_t i = 0; i < l->n; i++) {
			int64_t v = l->v[i];
			if (v == SL_CONV_B || v == SL_CONV_I)
				c->first[g] = i;
			else if (v == SL_CONV_F || v == SL_CONV_O)
				c->second[g] = i;
			else if (v >= 0 && v < nspatial)
				c->spatial[g].v[v] = i;
		}
	}
}

sl_attr *
sli_attr_conv_dims(sl_module *m, const sl_conv_dims *src, sl_loc loc)
{
	sl_conv_dims *c = SL_NEW(&m->arena, sl_conv_dims);
	c->raw = src->raw;
	if (src->raw) {
		c->known = true;
		for (int g = 0; g < SL_CONV_NGROUPS; g++) {
			c->first[g] = src->first[g];
			c->second[g] = src->second[g];
			c->spatial[g] = list_dup(m, &src->spatial[g]);
		}
	} else {
		for (int g = 0; g < SL_CONV_NGROUPS; g++)
			c->layout[g] = list_dup(m, &src->layout[g]);
		derive_roles(m, c);
	}
	sl_attr *a = new_attr(m, SL_ATTR_CONV_DIMS, loc);
	a->u.conv = c;
	return a;
}

sl_attr *
sli_attr_stablehlo_enum(sl_module *m, sl_sym mnemonic, sl_sym keyword, sl_loc loc)
{
	sl_attr *a = new_attr(m, SL_ATTR_STABLEHLO_ENUM, loc);
	a->u.shlo_enum.mnemonic = mnemonic;
	a->u.shlo_enum.keyword = keyword;
	return a;
}

sl_attr *
sli_attr_replica_mesh_axes(sl_module *m, const sl_replica_mesh_axes *r, sl_loc loc)
{
	sl_replica_mesh_axes *c = SL_NEW(&m->arena, sl_replica_mesh_axes);
	*c = *r;
	sl_attr *a = new_attr(m, SL_ATTR_REPLICA_MESH_AXES, loc);
	a->u.rmesh = c;
	return a;
}

const sl_replica_mesh_axes *
sli_attr_get_replica_mesh_axes(const sl_attr *a)
{
	return a && a->kind == SL_ATTR_REPLICA_MESH_AXES ? a->u.rmesh : NULL;
}

static bool
text_equal(const char *a, size_t an, const char *b, size_t bn)
{
	return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

static bool
replica_mesh_axes_equal(const sl_replica_mesh_axes *a, const sl_replica_mesh_axes *b)
{
	if (a->mesh_name != b->mesh_name ||
	    !text_equal(a->head, a->nhead, b->head, b->nhead) ||
	    !text_equal(a->tail, a->ntail, b->tail, b->ntail))
		return false;
	return a->mesh_name || text_equal(a->mesh_text, a->nmesh_text, b->mesh_text, b->nmesh_text);
}

sl_sym
sli_attr_enum_keyword(const sl_attr *a)
{
	return a && a->kind == SL_ATTR_STABLEHLO_ENUM ? a->u.shlo_enum.keyword : 0;
}

const sl_dot_dims *
sli_attr_get_dot_dims(const sl_attr *a)
{
	return a && a->kind == SL_ATTR_DOT_DIMS ? a->u.dot : NULL;
}

const sl_conv_dims *
sli_attr_get_conv_dims(const sl_attr *a)
{
	return a && a->kind == SL_ATTR_CONV_DIMS ? a->u.conv : NULL;
}

const sl_gs_dims *
sli_attr_get_gs_dims(const sl_attr *a, bool scatter)
{
	sl_attr_kind want = scatter ? SL_ATTR_SCATTER_DIMS : SL_ATTR_GATHER_DIMS;
	return a && a->kind == want ? a->u.gs : NULL;
}

static bool
conv_equal(const sl_conv_dims *a, const sl_conv_dims *b)
{
	if (a->raw != b->raw)
		return false;
	for (int g = 0; g < SL_CONV_NGROUPS; g++) {
		if (a->raw ? a->first[g] != b->first[g] || a->second[g] != b->second[g] ||
		             !list_equal(&a->spatial[g], &b->spatial[g]) :
		             !list_equal(&a->layout[g], &b->layout[g]))
			return false;
	}
	return true;
}

bool
sli_stablehlo_attr_equal(const sl_attr *a, const sl_attr *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case SL_ATTR_DOT_DIMS:
		for (int k = 0; k < SL_DOT_NLISTS; k++)
			if (!list_equal(&a->u.dot->lists[k], &b->u.dot->lists[k]))
				return false;
		return true;
	case SL_ATTR_CONV_DIMS:
		return conv_equal(a->u.conv, b->u.conv);
	case SL_ATTR_GATHER_DIMS:
	case SL_ATTR_SCATTER_DIMS:
		if (a->u.gs->index_vector_dim != b->u.gs->index_vector_dim ||
		    a->u.gs->has_index_vector_dim != b->u.gs->has_index_vector_dim)
			return false;
		for (int k = 0; k < SL_GS_NLISTS; k++)
			if (!list_equal(&a->u.gs->lists[k], &b->u.gs->lists[k]))
				return false;
		return true;
	case SL_ATTR_STABLEHLO_ENUM:
		return a->u.shlo_enum.mnemonic == b->u.shlo_enum.mnemonic &&
		       a->u.shlo_enum.keyword == b->u.shlo_enum.keyword;
	case SL_ATTR_REPLICA_MESH_AXES:
		return replica_mesh_axes_equal(a->u.rmesh, b->u.rmesh);
	default:
		return false;
	}
}
