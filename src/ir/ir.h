/*
 * ir.h - the in-memory program: a module owns one arena holding its ops,
 * blocks, regions, values and attributes.  Ops sit in their block on an
 * intrusive doubly linked list; blocks in their region likewise.  Values
 * are op results or block arguments; use lists are computed on demand
 * (sli_compute_uses), never kept in sync by mutations.
 */
#ifndef SL_IR_IR_H
#define SL_IR_IR_H

#include "ir/attr.h"
#include "util/hash.h"

typedef struct sl_op sl_op;
typedef struct sl_block sl_block;
typedef struct sl_region sl_region;
typedef struct sl_value sl_value;

enum {
	T_TERM = 1,	/* terminator */
	T_ISO = 2,	/* isolated from above */
	T_SDY = 4	/* an op of the sdy dialect */
};

typedef enum sl_op_kind {
	SL_OP_UNKNOWN,
#define OP(id, name, fmt, traits) SL_OP_##id,
#include "ir/ops.def"
#undef OP
	SL_OP__COUNT
} sl_op_kind;

/* The most regions an op may have (sl_op.nregions). */
#define SL_MAX_REGIONS 0xffff

typedef enum sl_op_format {
#define FMTS(X) X(GENERIC) X(MODULE) X(FUNC) X(RETURN) X(CALL) X(SDY_MESH) \
	X(SDY_SHARDING_OP) X(SDY_RETURN) X(SDY_MANUAL) X(SDY_NAMED) X(SDY_GROUP) \
	X(SDY_CONSTANT) X(SDY_DFE) X(SDY_FDFE) X(SDY_BARRIER) X(SDY_COLLECTIVE) \
	X(SAME) X(TYPES) X(COMPLEX) X(SELECT) X(FUNCTIONAL) X(CONVOLUTION) \
	X(TUPLE) X(CONSTANT) X(IOTA) X(CUSTOM_CALL) X(COMPOSITE) X(REDUCE) X(WHILE) \
	X(CHLO) X(CHLO_TOP_K) X(ARITH_CONSTANT)
#define X(f) SL_FMT_##f,
	FMTS(X)
#undef X
	SL_FMT__COUNT
} sl_op_format;

typedef struct sl_op_info {
	const char *name;
	sl_op_format format;
	unsigned traits;
} sl_op_info;

extern const sl_op_info sli_op_info[SL_OP__COUNT];

/* Whether op's printed format is one of side-effect-free ops (elementwise,
 * functional, constant, iota, tuple, complex, select, convolution): where
 * the passes' tests for erasable ops start. */
bool sli_op_format_pure(const sl_op *op);

/*
 * 32 bytes a value: a big program has more values than ops, and its
 * peak memory is mostly ops and values (issue 17).  So a value's source
 * position is not kept in it: a result's is its op's (sli_value_loc).
 */
struct sl_value {
	sl_type *type;
	sl_op *def;		/* defining op, NULL for a block argument */
	sl_block *block;	/* owning block of a block argument */
	uint32_t index;		/* result or argument number */
	uint32_t id;		/* scratch: printer numbering, pass marks */
	/* a block argument's position and attributes: sli_value_loc,
	 * sli_arg_attrs (sl_block.arglocs, argattrs); its loc(...):
	 * sli_value_locattr (locattr.c) */
};

/* The attribute list of one block argument (sl_block.argattrs). */
typedef struct sl_arg_attrs {
	sl_named_attr *v;
	uint32_t n;
} sl_arg_attrs;

struct sl_region {
	sl_block *first, *last;
	sl_op *parent;
};

struct sl_block {
	sl_block *prev, *next;
	sl_region *parent;
	sl_value *args;
	uint32_t nargs;
	sl_op *first, *last;
	/*
	 * Per argument, its attributes (a function's entry block), NULL when
	 * no argument has any: most values are results, which never do, and
	 * 8 bytes a value is 2% of a big program's peak memory.
	 */
	sl_arg_attrs *argattrs;
	sl_loc *arglocs;	/* per argument, its position; NULL when none has one */
};

/*
 * Fields ordered for no padding: 96 bytes an op (kind in 15 bits, the
 * count of regions in 16; the parser refuses more regions), its regions
 * after it.  A big program is mostly ops: each 8 bytes less is 2-3% of
 * its peak memory.
 */
struct sl_op {
	sl_op *prev, *next;
	sl_block *parent;
	sl_op_kind kind : 15;
	/* whether its results are located at loc (sli_value_loc): those of
	 * a parsed op are, those that passes create have no position */
	unsigned result_locs : 1;
	uint32_t nregions : 16;
	sl_sym name;		/* full name, e.g. "stablehlo.add" */
	uint32_t noperands, nresults;
	uint32_t nattrs, nprops;
	sl_loc loc;
	uint32_t id;		/* scratch for passes */
	sl_value **operands;
	sl_value *results;
	sl_named_attr *attrs;	/* discardable attributes, sorted by name */
	sl_named_attr *props;	/* inherent attributes <{...}> of the generic form */
	/* the trailing loc(...): sli_op_locattr (locattr.c) */
	/* allocated with the op: most ops have none, and a pointer to
	 * them was 8 bytes an op */
	sl_region regions[];
};

struct sl_module {
	sl_context *ctx;
	sli_arena arena;
	/*
	 * The op structs and their operand lists side by side, and the
	 * values (results, block arguments) likewise: passes walk the ops
	 * and values far more often than anything else, and a walk over
	 * contiguous structs streams through memory instead of missing the
	 * cache on every op once the module outgrows it.
	 */
	sli_arena oparena, valarena;
	sl_op *top;		/* the builtin.module op */
	bool implicit_top;	/* no `module` was written around the ops */
	/* #alias = attr / !alias = type definitions, kept for debuginfo */
	SL_VEC(sl_named_attr) loc_aliases;
	size_t input_bytes;
	/* name -> func.func cache of sli_lookup_func, checked on every hit */
	sli_htab functab;	/* of func.func ops, by name */
	sli_htab shared;	/* blocks of sli_module_share */
	sli_htab shared_attrs;	/* attributes of sli_attr_share */
	sli_htab shared_named;	/* one-entry lists of sli_named1_share */
	sli_htab locattrs;	/* op or value -> its loc(...) (locattr.c) */
};

/* The attributes of block argument v, *n of them (none for a result). */
static inline sl_named_attr *
sli_arg_attrs(const sl_value *v, uint32_t *n)
{
	const sl_arg_attrs *a = !v->def && v->block && v->block->argattrs
	                        ? &v->block->argattrs[v->index] : NULL;
	*n = a ? a->n : 0;
	return a ? a->v : NULL;
}
/* Gives block argument v the n attributes at attrs. */
void sli_arg_set_attrs(sl_module *m, sl_value *v, sl_named_attr *attrs, uint32_t n);

/* Where value v was written: its op's position for a result of an op
 * with result_locs, its own for a block argument; line 0 if none. */
static inline sl_loc
sli_value_loc(const sl_value *v)
{
	if (v->def)
		return v->def->result_locs ? v->def->loc : sli_loc_none();
	return v->block && v->block->arglocs ? v->block->arglocs[v->index] : sli_loc_none();
}
/* Gives block argument v the position loc. */
void sli_arg_set_loc(sl_module *m, sl_value *v, sl_loc loc);

/* Construction (arena-backed). */
sl_op *sli_op_new(sl_module *m, sl_sym name, uint32_t noperands,
                  uint32_t nresults, uint32_t nregions);
sl_block *sli_block_new(sl_module *m, uint32_t nargs);
void sli_block_append(sl_region *r, sl_block *b);
void sli_op_append(sl_block *b, sl_op *op);
void sli_op_insert_before(sl_op *before, sl_op *op);
void sli_op_erase(sl_op *op);
/* An op's trailing loc(...) as written, NULL if none (locattr.c). */
sl_attr *sli_op_locattr(const sl_module *m, const sl_op *op);
void sli_op_set_locattr(sl_module *m, sl_op *op, sl_attr *loc);
/* Gives op `to` the location of op `from`: loc and loc(...). */
void sli_op_copy_loc(sl_module *m, sl_op *to, const sl_op *from);
/* A block argument's loc(...) as written, NULL if none (locattr.c). */
sl_attr *sli_value_locattr(const sl_module *m, const sl_value *v);
void sli_value_set_locattr(sl_module *m, sl_value *v, sl_attr *loc);
sl_op_kind sli_op_kind_lookup(const char *name, size_t n);
/* sli_op_kind_lookup of an interned name, cached in the context. */
sl_op_kind sli_op_kind_of(sl_context *ctx, sl_sym name);

/* Attribute access: discardable first, then inherent. */
sl_attr *sli_op_attr(const sl_op *op, sl_sym name);
sl_attr *sli_op_prop(const sl_op *op, sl_sym name);
/* Finds an attribute in either list. */
sl_attr *sli_op_get(const sl_op *op, sl_sym name);
/* Sets (or, with attr NULL, removes) a discardable attribute. */
void sli_op_set_attr(sl_module *m, sl_op *op, sl_sym name, sl_attr *attr);
void sli_op_set_prop(sl_module *m, sl_op *op, sl_sym name, sl_attr *attr);
/* Sorts a named-attribute array by name text, as MLIR dictionaries are. */
void sli_sort_named(const sl_context *ctx, sl_named_attr *v, uint32_t n);

static inline sl_block *
sli_region_entry(const sl_region *r)
{
	return r->first;
}

/* The innermost enclosing op of `op` (NULL for the top module). */
static inline sl_op *
sli_op_parent(const sl_op *op)
{
	return op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
}

/* Finds `sdy.mesh @name` in the module that encloses op. */
sl_op *sli_lookup_mesh(const sl_module *m, const sl_op *from, sl_sym name);
/* Finds func.func @name at the top level of the module. */
sl_op *sli_lookup_func(const sl_module *m, sl_sym name);
/* The sym_name of an op with one (string attribute), else 0. */
sl_sym sli_op_sym_name(const sl_module *m, const sl_op *op);
/*
 * The text of a string or symbol-reference attribute, interned.  The
 * symbol is kept in the attribute: symbol tables, calls and function
 * lookups ask for the same names over and over.
 */
sl_sym sli_attr_sym(sl_context *ctx, sl_attr *a);

/* Use counts: fills value->id with the number of uses of each value. */
void sli_compute_use_counts(sl_op *root);

/* Generic walk in pre-order; returning non-zero from fn stops the walk. */
typedef int sli_walk_fn(sl_op *op, void *ud);
int sli_walk(sl_op *root, sli_walk_fn *fn, void *ud);
/* sli_walk over every func.func inside op, nested modules included. */
int sli_walk_funcs(sl_op *op, sli_walk_fn *fn, void *ud);
/* Calls fn on a and, in pre-order, on every element of its arrays and
 * every value of its dictionaries (a may be NULL). */
typedef void sli_attr_visit_fn(const sl_attr *a, void *ud);
void sli_attr_visit(const sl_attr *a, sli_attr_visit_fn *fn, void *ud);

/*
 * A read-only copy of the n bytes at p, the same for equal bytes within
 * the module (share.c); NULL when n is 0.  For the integer lists and
 * dimension-number structs parsed attributes hold: callers never write
 * through the result.
 */
const void *sli_module_share(sl_module *m, const void *p, size_t n);
/*
 * The module's one attribute equal to *a, bytes for bytes but for its
 * location (the first one's stays): for attributes nothing updates in
 * place and whose location nothing reads, the integer arrays and dot
 * dimension numbers of the parsed custom forms (share.c).  *a must be
 * zeroed before it is filled in, padding included.
 */
sl_attr *sli_attr_share(sl_module *m, const sl_attr *a);
/*
 * The module's one-entry attribute list {name = attr}, shared by the ops
 * that have just that (share.c); sli_named1_shared tells whether the one
 * entry at v is such a list, which is never written in place.
 */
sl_named_attr *sli_named1_share(sl_module *m, sl_sym name, sl_attr *attr);
bool sli_named1_shared(const sl_module *m, const sl_named_attr *v);
/* The bytes sli_attr_new allocates for an attribute of kind. */
size_t sli_attr_size(sl_attr_kind kind);

/* Attribute constructors. */
sl_attr *sli_attr_new(sl_module *m, sl_attr_kind kind);
sl_attr *sli_attr_string(sl_module *m, const char *s, size_t n);
sl_attr *sli_attr_int(sl_module *m, int64_t v, sl_type *type);
sl_attr *sli_attr_symref(sl_module *m, const char *s, size_t n);

#endif
