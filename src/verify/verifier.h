/*
 * verifier.h - what the parts of the sdy verifier share (verify.c walks
 * the module; verify_*.c check one spec section each): the verifier
 * state, the message builders and IR helpers of verifier.c, and the
 * checks one part calls in another.  Every check returns 0, or -1 after
 * reporting the failure through v.
 */
#ifndef SL_VERIFY_VERIFIER_H
#define SL_VERIFY_VERIFIER_H

#include "ir/access.h"
#include "ir/axis.h"
#include "rules/rules.h"
#include "verify/verify.h"

typedef struct verifier {
	sl_module *m;
	sl_context *ctx;
	sl_op *op;		/* the op whose errors are being reported */
	bool quiet;		/* failures are counted, not reported (verify_quick.c) */
	sli_buf msg;
	sli_buf note;
} verifier;

/* Every axis ref of one sharding (or one collective) seen so far. */
typedef struct axis_seen {
	sli_axis_vec refs;
	sli_axis_vec subs;
} axis_seen;


/* Messages */
const char *sli_verify_sym(const verifier *v, sl_sym s);
sli_buf *sli_verify_op_msg(verifier *v, const char *pfx);
sli_buf *sli_verify_plain_msg(verifier *v);
int sli_verify_emit(verifier *v);
int sli_verify_op_error(verifier *v, const char *pfx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sli_verify_emit_note(verifier *v, sl_loc loc);
void sli_verify_put_type(verifier *v, sli_buf *b, const sl_type *t);
void sli_verify_put_axis(verifier *v, sli_buf *b, const sl_axis_ref *r);
void sli_verify_put_axis_quoted(verifier *v, sli_buf *b, const sl_axis_ref *r);
void sli_verify_put_axis_array(verifier *v, sli_buf *b, const sl_axis_ref *r, size_t n);
void sli_verify_put_mesh(verifier *v, sli_buf *b, const sl_mesh *mesh);
const char *sli_verify_reduction_name(sl_reduction r);

/* IR helpers */
bool sli_verify_has_trait(const sl_op *op, unsigned t);
bool sli_verify_is_isolated(const sl_op *op);
bool sli_verify_is_collective(const sl_op *op);
sl_op *sli_verify_arg_owner(const sl_value *val);
sl_region *sli_verify_value_region(const sl_value *val);
bool sli_verify_region_within(const sl_region *r, const sl_region *anc);
sl_op *sli_verify_body_terminator(const sl_op *op);
sl_block *sli_verify_body_block(const sl_op *op);
sl_attr *sli_verify_find_kind(const sl_op *op, sl_sym name, sl_attr_kind kind);
sl_axis_list sli_verify_manual_axes(const sl_op *op);
bool sli_verify_list_has_name(const sl_axis_list *l, sl_sym name);
sl_op *sli_verify_manual_owner(const sl_op *at, sl_sym name);
const sl_mesh *sli_verify_sharding_mesh(verifier *v, const sl_sharding *s, const sl_op *from);
bool sli_verify_same_mesh_ref(const sl_sharding *a, const sl_sharding *b);
bool sli_verify_fully_replicated(const sl_sharding *s);
const sl_type *sli_verify_func_type(const sl_op *f);
void sli_verify_seen_fini(axis_seen *s);

/* Meshes (2.1, 2.2) and axis lists */
int sli_verify_check_axis_list(verifier *v, const char *pfx, const sl_axis_ref *l, size_t n, const sl_mesh *mesh, axis_seen *seen);
int sli_verify_check_sorted_axis_list(verifier *v, const char *pfx, const char *what, const sl_axis_ref *l, size_t n, const sl_mesh *mesh, axis_seen *seen);
int sli_verify_check_sub_axes(verifier *v, const char *pfx, const sl_mesh *mesh, axis_seen *seen);

/* Tensor shardings (4.1, 4.2) */
int sli_verify_sharding(verifier *v, const char *pfx, const sl_sharding *s, const sl_type *type, const sl_op *at);
int sli_verify_sharding_list(verifier *v, const char *kind, sl_sharding *const *sh, uint32_t n, sl_type *const *types, uint32_t ntypes, const sl_op *at);
sl_type **sli_verify_result_types(const sl_op *op);
sl_type **sli_verify_operand_types(const sl_op *op);
sl_type **sli_verify_arg_types(const sl_block *b, uint32_t *n);
sl_type **sli_verify_term_types(const sl_op *term, uint32_t *n);
int sli_verify_spv_attr(verifier *v, const char *kind, const sl_attr *a, sl_type *const *types, uint32_t ntypes, const sl_op *at);

/* Unreduced-axes transitions (4.10) */
int sli_verify_check_unreduced(verifier *v, const sl_sharding *src, const sl_op *src_at, const sl_sharding *tgt, const sl_op *tgt_at, int intro, int removal);

/* Sharding rules (sharding-rules.md 3) */
int sli_verify_rule(verifier *v, const sl_op *op, const sl_rule *rule);

/* Propagation edges (2.9) */
int sli_verify_check_edges_attr(verifier *v, const sl_attr *a);
int sli_verify_edges(verifier *v, const sl_op *op, const sl_attr *a);

/* Dialect attributes on ops and functions (4.1, 4.11, 4.12) */
int sli_verify_op_attrs(verifier *v, sl_op *op);
int sli_verify_func(verifier *v, sl_op *f);

/* Collectives (4.9) */
int sli_verify_collective(verifier *v, sl_op *op);

/* verify_replica_groups.c: a StableHLO collective's replica groups */
int sli_verify_replica_groups(verifier *v, sl_op *op);

/* Manual and named computations (4.5, 4.6) */
int sli_verify_manual_nesting(verifier *v, sl_op *op);
int sli_verify_manual_uses(verifier *v, sl_op *op);
int sli_verify_named(verifier *v, sl_op *op);
int sli_verify_named_uses(verifier *v, sl_op *op);

/* Other sdy ops and generic MLIR rules */
int sli_verify_invariants(verifier *v, sl_op *op);
int sli_verify_isolation(verifier *v, sl_op *iso);

/* Symbol tables and symbol uses */
int sli_verify_symbol_table(verifier *v, sl_op *mod);
int sli_verify_symbol_names(verifier *v, sl_op *mod);
int sli_verify_symbol_uses(verifier *v, sl_op *op);

/* The walk (4.13) */
int sli_verify_op(verifier *v, sl_op *op);
bool sli_verify_needs_terminator(const sl_op *op);
int sli_verify_built_attrs_of(verifier *v, const sl_op *op);
int sli_verify_empty_block(verifier *v, sl_op *parent);

/* The quiet walk: whether the module verifies, one pass (verify_quick.c) */
int sli_verify_quick(verifier *v);

#endif
