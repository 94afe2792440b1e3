/*
 * attr.h - attributes.  Builtin attributes (integers, floats, strings,
 * arrays, dictionaries, dense elements, types, symbol references) and every
 * #sdy.* attribute are parsed into structs; other dialect attributes
 * (#stablehlo.*, #ttcore.*, ...) keep their text and print back unchanged.
 * Attributes live in the module arena and are immutable once built.
 */
#ifndef SL_IR_ATTR_H
#define SL_IR_ATTR_H

#include "ir/context.h"
#include "ir/type.h"

typedef struct sl_attr sl_attr;

typedef enum sl_attr_kind {
	SL_ATTR_UNIT,		/* a name with no value in a dictionary */
	SL_ATTR_BOOL,
	SL_ATTR_INT,		/* 42 : i64 (type NULL when untyped) */
	SL_ATTR_FLOAT,		/* text kept as written, e.g. 1.000000e+00 : f32 */
	SL_ATTR_STRING,
	SL_ATTR_ARRAY,
	SL_ATTR_DICT,
	SL_ATTR_DENSE_ARRAY,	/* array<i64: 1, 2> */
	SL_ATTR_DENSE,		/* dense<...> : type, body kept as text */
	SL_ATTR_TYPE,
	SL_ATTR_SYMREF,		/* @a or @a::@b, text without '@'s kept whole */
	SL_ATTR_OPAQUE,		/* any other attribute, kept as its text */
	SL_ATTR_LOC,		/* loc(...), kept as text */
	/* sdy */
	SL_ATTR_MESH,
	SL_ATTR_SHARDING,
	SL_ATTR_SHARDING_PER_VALUE,
	SL_ATTR_AXIS_REF_LIST,		/* {"a", "b":(1)2} */
	SL_ATTR_AXIS_REF_LISTS,		/* [{"a"}, {}] */
	SL_ATTR_MANUAL_AXES,		/* {"a", "b"} */
	SL_ATTR_ALL_TO_ALL_PARAMS,	/* [{"x"}: 0->1, ...] */
	SL_ATTR_RULE,			/* #sdy.op_sharding_rule */
	SL_ATTR_PROP_EDGES,		/* #sdy.propagation_edges */
	SL_ATTR_DIRECTION,		/* #sdy<propagation_direction X> */
	/* stablehlo (ir/stablehlo_attrs.h) */
	SL_ATTR_DOT_DIMS,		/* #stablehlo.dot<...> */
	SL_ATTR_CONV_DIMS,		/* #stablehlo.conv<...> */
	SL_ATTR_GATHER_DIMS,		/* #stablehlo.gather<...> */
	SL_ATTR_SCATTER_DIMS,		/* #stablehlo.scatter<...> */
	SL_ATTR_STABLEHLO_ENUM,		/* #stablehlo<precision HIGH> */
	SL_ATTR_REPLICA_MESH_AXES,	/* #stablehlo.replica_group_mesh_axes<...> */
} sl_attr_kind;

/* An axis reference: a full axis, or a sub-axis "name":(pre)size. */
typedef struct sl_axis_ref {
	sl_sym name;
	bool sub;
	int64_t pre, size;	/* sub-axis only */
} sl_axis_ref;

typedef struct sl_axis_list {
	sl_axis_ref *v;
	uint32_t n;
} sl_axis_list;

typedef struct sl_mesh_axis {
	sl_sym name;
	int64_t size;
} sl_mesh_axis;

typedef struct sl_mesh {
	sl_mesh_axis *axes;
	uint32_t naxes;
	uint32_t nids;
	int64_t *ids;		/* NULL when implicit (iota) */
} sl_mesh;

#define SL_NO_PRIORITY (-1)

typedef struct sl_dim_sharding {
	sl_axis_list axes;
	bool open;
	int64_t priority;	/* SL_NO_PRIORITY if absent */
} sl_dim_sharding;

typedef enum sl_reduction { SL_RED_SUM, SL_RED_MAX, SL_RED_MIN } sl_reduction;

typedef struct sl_sharding {
	sl_sym mesh_name;	/* @name, or 0 with an inline mesh */
	sl_mesh *mesh;		/* inline mesh, NULL with a name */
	sl_dim_sharding *dims;
	uint32_t rank;
	sl_axis_list replicated;
	sl_axis_list unreduced;
	sl_reduction reduction;
	sl_loc loc;		/* where it was written */
} sl_sharding;

typedef struct sl_a2a_param {
	sl_axis_list axes;
	int64_t src, tgt;
} sl_a2a_param;

/* #sdy.op_sharding_rule: see spec/sharding-rules.md section 2. */
typedef struct sl_dim_mapping {
	uint32_t *factors;
	uint32_t n;
} sl_dim_mapping;

typedef struct sl_tensor_mapping {
	sl_dim_mapping *dims;
	uint32_t rank;
} sl_tensor_mapping;

typedef struct sl_factor_list {
	int64_t *v;
	uint32_t n;
} sl_factor_list;

typedef struct sl_rule {
	int64_t *factor_sizes;
	uint32_t nfactors;
	sl_tensor_mapping *operands, *results;
	uint32_t noperands, nresults;
	sl_factor_list reduction, need_replication, permutation, blocked;
	bool custom;
	bool has_reduction, has_need_replication, has_permutation, has_blocked;
} sl_rule;

/* #sdy.propagation_edges: steps of {axis = source -> [targets]}. */
typedef struct sl_edge_ref {
	bool result;		/* result-N, else operand-N */
	int64_t index;
} sl_edge_ref;

typedef struct sl_edge_entry {
	sl_axis_ref axis;
	sl_edge_ref source;
	sl_edge_ref *targets;
	uint32_t ntargets;
} sl_edge_entry;

typedef struct sl_edge_step {
	int64_t step;
	sl_edge_entry *entries;
	uint32_t n;
} sl_edge_step;

typedef struct sl_named_attr {
	sl_sym name;
	sl_attr *attr;
} sl_named_attr;

struct sl_attr {
	sl_attr_kind kind : 8;
	unsigned shared : 1;	/* the module's one such (sli_attr_share) */
	sl_loc loc;
	union {
		bool b;
		struct { int64_t v; sl_type *type; bool big; sl_sym text; } i;
		struct { sl_sym text; sl_type *type; } f;
		/* sym1: the interned text + 1, or 0 until sli_attr_sym looks */
		struct { const char *p; size_t n; sl_sym sym1; } s;
		struct { sl_attr **v; uint32_t n; } arr;
		struct { sl_named_attr *v; uint32_t n; } dict;	/* sorted by name text */
		struct { sl_type *elem; int64_t *v; uint32_t n; sl_sym text; } darr;
		struct { const char *body; size_t n; sl_type *type; } dense;
		sl_type *type;
		/* symref (no '@'), opaque, loc; sym1 as for s (symrefs only) */
		struct { const char *p; size_t n; sl_sym sym1; } text;
		sl_mesh mesh;
		sl_sharding sharding;
		struct { sl_sharding **v; uint32_t n; } spv;
		sl_axis_list axes;
		struct { sl_axis_list *v; uint32_t n; } lists;
		struct { sl_a2a_param *v; uint32_t n; } a2a;
		sl_rule rule;
		struct { sl_edge_step *v; uint32_t n; } edges;
		int direction;	/* SL_DIR_* */
		const struct sl_dot_dims *dot;
		const struct sl_conv_dims *conv;
		const struct sl_gs_dims *gs;	/* gather and scatter */
		struct { sl_sym mnemonic, keyword; } shlo_enum;
		const struct sl_replica_mesh_axes *rmesh;
	} u;
};

enum { SL_DIR_NONE, SL_DIR_FORWARD, SL_DIR_BACKWARD, SL_DIR_BOTH };

/* A vector of integers (the element type every module shares). */
typedef SL_VEC(int64_t) sli_i64vec;

/*
 * Appends the integers of text [p, e) (true/false read as 1/0), skipping
 * brackets, commas and white space: the body of dense<...> or array<...>.
 * False at anything else or on overflow.
 */
bool sli_scan_ints(const char *p, const char *e, sli_i64vec *out);
/*
 * The integers of an array-like attribute: array<i64: ...>, dense<...> of
 * integers or booleans (a splat expanded to the static type's element
 * count), or [1, 2] of integer or boolean attributes.  Clears out first;
 * false when absent or not integers.
 */
bool sli_attr_ints(const sl_context *ctx, const sl_attr *a, sli_i64vec *out);

/* Looks up a name in a dictionary attribute (or a named-attr array). */
sl_attr *sli_dict_get(const sl_named_attr *v, uint32_t n, sl_sym name);

/* Stable equality used by verifiers and passes (structural). */
bool sli_attr_equal(const sl_attr *a, const sl_attr *b);
bool sli_mesh_equal(const sl_mesh *a, const sl_mesh *b);
bool sli_axis_ref_equal(const sl_axis_ref *a, const sl_axis_ref *b);

#endif
