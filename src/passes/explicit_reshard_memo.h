/*
 * explicit_reshard_memo.h - plans of -sdy-insert-explicit-reshards shared
 * by equal ops.  The layers of a model repeat the same ops on the same
 * types with the same shardings, and a plan (explicit_reshard_plan.h)
 * depends on nothing else: an op's rule, its tensor sizes and mesh come
 * from its name, types and attributes, and the rest from the shardings.
 * So the plan of an op is looked up by that key first, and planned (and
 * then remembered) only when no equal op came before.
 *
 * Only plans without reshards are remembered (no plan at all, or
 * all-reduces only): the shardings of a plan with reshards go into the
 * IR, and each op gets its own.  Ops whose rule
 * the registry does not build from the op alone (sli_rule_local), or
 * that carry a rule of their own, are always planned afresh.
 *
 * Ownership: the memo is caller-owned (init, fini); a remembered plan's
 * lists live in the out arena of the lookup that planned it, which must
 * outlive the memo (the pass passes the module arena).
 */
#ifndef SL_PASSES_EXPLICIT_RESHARD_MEMO_H
#define SL_PASSES_EXPLICIT_RESHARD_MEMO_H

#include "passes/explicit_reshard_plan.h"
#include "util/hash.h"

/* Slots of the memo's cache of sharding hashes (a power of two). */
#define SLI_XR_MEMO_HASHES 1024

typedef struct sli_xr_memo {
	sli_htab plans;		/* of memo entries, by op key and shardings */
	sli_arena arena;	/* the entries, their shardings and plans */
	/* the content hash of recently seen shardings, by address: a value's
	 * sharding is read by its definition and each of its users */
	struct {
		const sl_sharding *s;
		uint64_t h;
	} hashes[SLI_XR_MEMO_HASHES];
} sli_xr_memo;

void sli_xr_memo_init(sli_xr_memo *memo);
void sli_xr_memo_fini(sli_xr_memo *memo);

/*
 * As sli_xr_plan_for_op (same arguments and results), answered from the
 * memo when an equal op with equal shardings was planned before; in[]
 * and out[] must stay unchanged while the memo lives (module shardings
 * are never edited in place).
 */
int sli_xr_memo_plan(sli_xr_memo *memo, sl_module *m, const sl_op *op,
                     const sl_sharding *const *in, const sl_sharding *const *out, bool full,
                     struct sli_rule_opts *ropts, sli_arena *scratch, sli_arena *out_arena,
                     sli_xr_plan *plan);

#endif
