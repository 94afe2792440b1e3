/*
 * stablehlo_attrs.h - typed StableHLO attributes: the dimension numbers of
 * dot_general (#stablehlo.dot), convolution (#stablehlo.conv), gather
 * (#stablehlo.gather) and scatter (#stablehlo.scatter), enum values such
 * as #stablehlo<precision HIGH>, and the inline mesh of a replica group
 * (#stablehlo.replica_group_mesh_axes).  The reader
 * (formats/mlir_stablehlo.c) parses their text once into these structs and
 * the printer prints them back from them; rules and passes read the fields
 * and never the text.  Each struct lives in the module arena behind an
 * attribute of kind SL_ATTR_DOT_DIMS, _CONV_DIMS, _GATHER_DIMS or
 * _SCATTER_DIMS, and is immutable once built: a pass that changes dimension
 * numbers builds a new attribute.  An enum value is two names held in the
 * attribute itself (SL_ATTR_STABLEHLO_ENUM).
 */
#ifndef SL_IR_STABLEHLO_ATTRS_H
#define SL_IR_STABLEHLO_ATTRS_H

#include "ir/attr.h"

/* A list of dimension numbers. */
typedef struct sl_dim_list {
	int64_t *v;
	uint32_t n;
} sl_dim_list;

/* #stablehlo.dot<lhs_batching_dimensions = [0], ...>: absent lists are empty. */
enum {
	SL_DOT_LHS_BATCH,	/* lhs_batching_dimensions */
	SL_DOT_RHS_BATCH,	/* rhs_batching_dimensions */
	SL_DOT_LHS_CONTRACT,	/* lhs_contracting_dimensions */
	SL_DOT_RHS_CONTRACT,	/* rhs_contracting_dimensions */
	SL_DOT_NLISTS
};

typedef struct sl_dot_dims {
	sl_dim_list lists[SL_DOT_NLISTS];
} sl_dot_dims;

/* The field names of the lists, by SL_DOT_* index. */
extern const char *const sli_dot_keys[SL_DOT_NLISTS];

/*
 * #stablehlo.gather<...> and #stablehlo.scatter<...> have the same shape;
 * the field names differ (gather / scatter given for each list).
 */
enum {
	SL_GS_WINDOW,		/* offset_dims / update_window_dims */
	SL_GS_COLLAPSED,	/* collapsed_slice_dims / inserted_window_dims */
	SL_GS_BATCH,		/* operand_batching_dims / input_batching_dims */
	SL_GS_IDX_BATCH,	/* start_indices_batching_dims / scatter_indices_batching_dims */
	SL_GS_MAP,		/* start_index_map / scatter_dims_to_operand_dims */
	SL_GS_NLISTS
};

typedef struct sl_gs_dims {
	sl_dim_list lists[SL_GS_NLISTS];
	int64_t index_vector_dim;	/* 0 when absent, as StableHLO leaves it out */
	bool has_index_vector_dim;	/* written out (printed even when 0) */
} sl_gs_dims;

/* The field names, by SL_GS_* index, then "index_vector_dim". */
extern const char *const sli_gather_keys[SL_GS_NLISTS + 1];
extern const char *const sli_scatter_keys[SL_GS_NLISTS + 1];

/*
 * #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>: the layout of the input,
 * kernel and output, each dimension a spatial index (>= 0) or one of the
 * letters below; or the raw form #stablehlo.conv<raw input_batch_dimension
 * = 0, ...> which names the dimensions directly and has no layout.
 */
enum { SL_CONV_INPUT, SL_CONV_KERNEL, SL_CONV_OUTPUT, SL_CONV_NGROUPS };

enum {
	SL_CONV_B = -1,		/* batch (input, output) */
	SL_CONV_F = -2,		/* feature (input, output) */
	SL_CONV_I = -3,		/* input feature (kernel) */
	SL_CONV_O = -4,		/* output feature (kernel) */
	SL_CONV_UNKNOWN = -5,	/* '?' */
};

#define SL_CONV_NO_DIM (-1)

/* The raw form's field names: per group, first, second and spatial. */
extern const char *const sli_conv_raw_keys[3 * SL_CONV_NGROUPS];

typedef struct sl_conv_dims {
	bool raw;				/* the raw form: layouts empty */
	sl_dim_list layout[SL_CONV_NGROUPS];	/* per dimension: index or SL_CONV_* */
	/*
	 * What the layout says (or the raw form's fields): the position of
	 * the batch/input-feature dimension (first) and of the feature/
	 * output-feature dimension (second) of each group, and its spatial
	 * dimensions by spatial index; SL_CONV_NO_DIM where absent.
	 */
	int64_t first[SL_CONV_NGROUPS], second[SL_CONV_NGROUPS];
	sl_dim_list spatial[SL_CONV_NGROUPS];
	bool known;	/* false when a layout has '?' or a spatial index > 1000 */
} sl_conv_dims;

/*
 * New attributes holding a copy of the struct (lists included) in the
 * module arena.  For convolution, the derived fields are computed from the
 * layout unless raw, in which case only first, second and spatial are read.
 */
sl_attr *sli_attr_dot_dims(sl_module *m, const sl_dot_dims *d, sl_loc loc);
sl_attr *sli_attr_conv_dims(sl_module *m, const sl_conv_dims *c, sl_loc loc);
sl_attr *sli_attr_gs_dims(sl_module *m, bool scatter, const sl_gs_dims *d, sl_loc loc);

/*
 * #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<...>, axes = [...]>
 * whose inline mesh was read (its axes; device ids are not read): the text
 * before and after the mesh is kept as written, and -sdy-lift-inlined-meshes
 * replaces the mesh by the name of an sdy.mesh.
 */
typedef struct sl_replica_mesh_axes {
	const char *head, *tail;	/* text up to "mesh = ", and after the mesh */
	size_t nhead, ntail;
	sl_sym mesh_name;		/* @name, or 0 with the inline mesh */
	const char *mesh_text;		/* the inline #stablehlo.mesh<...> as written */
	size_t nmesh_text;
	sl_mesh mesh;			/* its axes */
} sl_replica_mesh_axes;

/* A copy of r (texts and axes shared with r) in m's arena. */
sl_attr *sli_attr_replica_mesh_axes(sl_module *m, const sl_replica_mesh_axes *r, sl_loc loc);
const sl_replica_mesh_axes *sli_attr_get_replica_mesh_axes(const sl_attr *a);

/* #stablehlo<mnemonic KEYWORD> */
sl_attr *sli_attr_stablehlo_enum(sl_module *m, sl_sym mnemonic, sl_sym keyword, sl_loc loc);
/* The keyword of an enum value (e.g. HIGH), or 0 for any other attribute. */
sl_sym sli_attr_enum_keyword(const sl_attr *a);

/* The struct of an attribute of that kind, or NULL for any other attribute. */
const sl_dot_dims *sli_attr_get_dot_dims(const sl_attr *a);
const sl_conv_dims *sli_attr_get_conv_dims(const sl_attr *a);
const sl_gs_dims *sli_attr_get_gs_dims(const sl_attr *a, bool scatter);

/* Structural equality of two attributes of one of these kinds. */
bool sli_stablehlo_attr_equal(const sl_attr *a, const sl_attr *b);

#endif
