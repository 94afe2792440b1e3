/*
 * rules.h - the op sharding rule registry (spec/sharding-rules.md).  Every
 * op's sharding rule comes from here: propagation, the ILP formulation,
 * the checker, the populate pass and `shardlp rules` all call
 * sli_rule_for_op; nothing else builds rules.
 *
 * Ownership: a rule filled in by this module lives in the arena named by
 * sli_rule_opts.arena (the module arena when NULL) and dies with it; the
 * caller's sl_rule struct only holds pointers into that arena.  A rule
 * taken from an op's `sdy.sharding_rule` attribute is shared, not copied.
 */
#ifndef SL_RULES_RULES_H
#define SL_RULES_RULES_H

#include "ir/ir.h"
#include "passes/options.h"

/* Factor kinds; a factor has exactly one (spec 1). */
typedef enum sli_factor_kind {
	SLI_FACTOR_PASS_THROUGH,
	SLI_FACTOR_REDUCTION,
	SLI_FACTOR_NEED_REPLICATION,
	SLI_FACTOR_PERMUTATION
} sli_factor_kind;

/* What sli_rule_for_op found. */
enum {
	SLI_RULE_NONE = 0,	/* the op has no rule (spec 5): no propagation through it */
	SLI_RULE_FOUND = 1
};

typedef struct sli_rule_scratch sli_rule_scratch;

/*
 * Options of rule building, owned by the caller: zero-initialise, and
 * call sli_rule_opts_fini when done (it frees the reused scratch buffers).
 */
typedef struct sli_rule_opts {
	bool conservative;	/* conservative-propagation variants (spec 5) */
	bool warn;		/* warn about ops and custom-call targets without a rule */
	bool registry_only;	/* ignore an attached sdy.sharding_rule */
	sli_arena *arena;	/* where built rules live; NULL: the module arena */
	/*
	 * Once-flags, as Shardy's: after the first "unknown to SDY sharding
	 * rule registry" warning for an op (or a custom-call target) no other
	 * is emitted through this opts struct.
	 */
	bool warned_op, warned_call;
	sli_rule_scratch *scratch;	/* buffers reused from op to op */
} sli_rule_opts;

void sli_rule_opts_fini(sli_rule_opts *opts);

/*
 * The sharding rule of op.  An `sdy.sharding_rule` attribute on the op is
 * used as is (unless opts->registry_only) after checking it against the
 * op's operands and results; otherwise the registry builds one.  Returns
 * SLI_RULE_FOUND with *out filled, SLI_RULE_NONE when the op has no rule
 * (with a warning for ops unknown to the registry when opts->warn), or -1
 * after a located error: a malformed attached rule, or an op whose types
 * contradict its attributes.  opts may be NULL (defaults, no warnings).
 */
int sli_rule_for_op(sl_module *m, const sl_op *op, sli_rule_opts *opts, sl_rule *out);

/*
 * Whether the registry builds op's rule from op alone: its name, operand
 * and result types and attributes, not the ops defining its operands, its
 * users or (scatter) its body.  Two such ops that agree on all of those get
 * equal rules, so a caller may build one and share it.
 */
bool sli_rule_local(const sl_op *op);

/*
 * As sli_rule_for_op, and a rule built by the registry is attached to op
 * as `sdy.sharding_rule` (getOrCreateShardingRule with setOnOp), so that it
 * is built once.  *out may be NULL.
 */
int sli_rule_attach(sl_module *m, sl_op *op, sli_rule_opts *opts, sl_rule *out);

/*
 * Checks rule against op (spec 3: mapping counts and ranks, factor
 * indices, reuse, size-1 factors, unused factors, the special-factor
 * sets).  Returns 0, or -1 after a located error at the op.
 */
int sli_rule_check(sl_module *m, const sl_op *op, const sl_rule *rule);

/* A new SL_ATTR_RULE attribute holding rule (pointers shared). */
sl_attr *sli_rule_attr_new(sl_module *m, const sl_rule *rule);

sli_factor_kind sli_rule_factor_kind(const sl_rule *rule, uint32_t factor);
bool sli_rule_factor_blocked(const sl_rule *rule, uint32_t factor);

/* Appends the symbol of factor k: i..z, then z_1, z_2, ... (spec 2.1). */
void sli_rule_factor_name(sli_buf *b, uint32_t k);

/* -sdy-populate-op-sharding-rules (the table is src/pipeline/registry.c). */
int sli_pass_populate_op_sharding_rules(sl_module *m, const sli_pass_opts *opts);

#endif
