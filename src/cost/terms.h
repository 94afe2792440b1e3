/*
 * terms.h - the cost terms of the ILP (solver/formulate.c), built from
 * the same primitives as the model's price (primitives.c): what each column
 * of formulation F3 pays (shardlp-cost(7), "The formulation").  The
 * solver prices through here only, so that for the ILP's own assignment
 * its objective equals the model's price (solve.c checks it to 1e-6).
 */
#ifndef SL_COST_TERMS_H
#define SL_COST_TERMS_H

#include "cost/cost.h"

/* Per-device bytes of tensor t under q (the budget rows, a size class). */
double sli_cost_term_bytes(const sli_cost_model *cm, uint32_t t,
                           const sli_cost_asg *q);
/* What an op's column pays for assignment s: compute and all-reduce. */
double sli_cost_term_op(const sli_cost_model *cm, uint32_t o,
                        const sli_cost_asg *s);
/*
 * The projection of assignment s of op o onto its operand i (result:
 * false) or result i (true), into out; returns its per-device bytes.
 */
double sli_cost_term_project(const sli_cost_model *cm, uint32_t o, bool result,
                             uint32_t i, const sli_cost_asg *s, sli_cost_asg *out);

/*
 * An edge from a source (the tensor, for an operand; the op's projection,
 * for a result) to a target.  With one side fixed it pays the reshard;
 * otherwise every source option pays the gather of each axis it uses
 * (added to *acc one axis at a time), and agreement columns refund what
 * the target's choice saves, per axis: on the same dim the all-to-all
 * (same_dim), on another dim the gather less the all-to-all.  Gather
 * less both refunds is nothing, gather less the second is the
 * all-to-all: exactly sli_cost_reshard's price in each case.
 */
double sli_cost_term_reshard(const sli_cost_model *cm, const sli_cost_asg *from,
                             double bytes, const sli_cost_asg *to);
void sli_cost_term_gathers(const sli_cost_model *cm, const sli_cost_asg *from,
                           double bytes, double *acc);
double sli_cost_term_refund(const sli_cost_model *cm, uint32_t axis,
                            double bytes, bool same_dim);
/*
 * Operand i of o, whose requirement the op picks among several (a
 * function result extended in its open dims): the cheapest reshard from
 * q, the requirement taken into *to when to is non-NULL.
 */
double sli_cost_term_require(const sli_cost_model *cm, uint32_t o, uint32_t i,
                             const sli_cost_asg *q, sli_cost_asg *to);
/*
 * A leaf tensor folded into its one op: its cost in option opt (tb bytes
 * per device) given the op's option whose projection on the edge
 * (operand or result i) is proj (pb bytes).
 */
double sli_cost_term_leaf(const sli_cost_model *cm, uint32_t o, uint32_t i,
                          bool result, const sli_cost_asg *proj, double pb,
                          const sli_cost_asg *opt, double tb);

/*
 * A price of the model's largest scale: the all-gather of its largest
 * tensor over its largest axis (the solver's tolerances are relative to
 * its largest coefficients).
 */
double sli_cost_term_scale(const sli_cost_model *cm);

#endif
