/*
 * propagation.h - the greedy sharding propagation of spec/propagation.md:
 * options shared by the four propagation passes, the fixpoint driver and
 * the strategies built on it.  Ownership: sli_prop holds heap tables for
 * one pass run (sli_prop_init / sli_prop_fini); shardings it writes live
 * in the module arena.
 */
#ifndef SL_PROPAGATION_PROPAGATION_H
#define SL_PROPAGATION_PROPAGATION_H

#include "ir/ir.h"
#include "passes/pass.h"
#include "propagation/projection.h"
#include "rules/rules.h"

/* The options of propagation pass `pass` (SLI_PROP_*) from the parsed pass
 * options (passes/options.h); 0. */
int sli_prop_opts_parse(sl_module *m, const sli_pass_opts *po, int pass,
                        sli_prop_opts *o);
/* Runs a whole propagation pass (spec 7.1). */
int sli_propagate(sl_module *m, const sli_prop_opts *o);

typedef struct sli_prop sli_prop;

/*
 * One strategy run (spec 4.2) at op-priority level `level` (-1: no op
 * priorities, every factor BOTH): one or two fixpoint runs.
 */
void sli_prop_strategy_run(sli_prop *P, int level);
/* Op-priority propagation (spec 5.3). */
void sli_prop_op_priority(sli_prop *P);
/* User-priority propagation (spec 6). */
void sli_prop_user_priority(sli_prop *P);

/* Current sharding of value v (NULL: none, or v cannot hold one). */
const sl_sharding *sli_prop_get(sli_prop *P, sl_value *v);
/* Sets v's sharding without notifications; dropped for unshardable values. */
void sli_prop_set(sli_prop *P, sl_value *v, const sl_sharding *s);
/* The sharding of result i of func (NULL if none), and its setter. */
const sl_sharding *sli_prop_func_result(sli_prop *P, sl_op *func, uint32_t i);
void sli_prop_set_func_result(sli_prop *P, sl_op *func, uint32_t i,
                              const sl_sharding *s);
/* Whether v's sharding is held by a data-flow edge op other than v's own. */
bool sli_prop_is_edge_target(sli_prop *P, sl_value *v);
/* Writes the module to <dump_dir>/<NN>.<name>.mlir if a directory is set. */
void sli_prop_dump(sli_prop *P, const char *name);
sl_module *sli_prop_module(sli_prop *P);
const sli_prop_opts *sli_prop_options(sli_prop *P);

/* The pass entry points (registered in src/pipeline/registry.c). */
/*
 * Gives the sharding groups of m whose members' shardings conflict open
 * sharding constraints, as the greedy strategies do before propagating
 * (groups.c); for the ILP's input.  True when any was inserted.
 */
bool sli_groups_resolve_conflicts(sl_module *m);

int sli_pass_basic_propagate(sl_module *m, const sli_pass_opts *opts);
int sli_pass_aggressive_propagate(sl_module *m, const sli_pass_opts *opts);
int sli_pass_op_priority_propagate(sl_module *m, const sli_pass_opts *opts);
int sli_pass_user_priority_propagate(sl_module *m, const sli_pass_opts *opts);

#endif
