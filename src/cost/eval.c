/*
 * eval.c - the estimated step time in seconds of a complete sharding of a
 * module's tensors (shardlp-cost(7)), two ways.  The model's price
 * (sli_cost_eval_asg): every op takes the factor assignment that makes
 * its own part least (compute, all-reduce, the reshards of its operands
 * and results), all priced by primitives.c as the ILP's terms are.  The
 * evaluator (sli_cost_eval): what the export runs for the module's
 * shardings (emitted.c).  Both report the peak live bytes per device
 * (liveness.c), held against the budget.
 */
#include "cost/cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost/emitted.h"
#include "cost/primitives.h"

/* The local cost of op o under s given the tensor shardings q. */
static double
op_local(const sli_cost_model *cm, uint32_t o, const sli_cost_asg *s,
         const sli_cost_asg *q, double *compute, sli_cost_parts *t)
{
	const sli_cost_op *co = &cm->ops.v[o];
	double c = sli_cost_op_self(cm, o, s, compute, t);

	for (uint32_t i = 0; i < co->noperands; i++) {
		uint32_t x = co->operands[i];
		if (x == SLI_COST_NO_TENSOR)
			continue;
		if (co->ropt && co->ropt[i]) {
			c += sli_cost_op_require(cm, o, i, &q[x], NULL, t);
			continue;
		}
		sli_cost_asg r;
		sli_cost_op_project(cm, o, false, i, s, &r);
		c += sli_cost_reshard(cm, &q[x], sli_cost_tensor_bytes(cm, x, &q[x]), &r, t);
	}
	for (uint32_t i = 0; i < co->nresults; i++) {
		uint32_t x = co->results[i];
		if (x == SLI_COST_NO_TENSOR)
			continue;
		sli_cost_asg r;
		sli_cost_op_project(cm, o, true, i, s, &r);
		c += sli_cost_reshard(cm, &r, sli_cost_tensor_bytes(cm, x, &r), &q[x], t);
	}
	return c;
}

int
sli_cost_eval_asg(const sli_cost_model *cm, const sli_cost_asg *q,
                  sli_cost_parts *out, sli_cost_asg *chosen)
{
	memset(out, 0, sizeof *out);
	out->peak_bytes = sli_cost_peak_bytes(cm, q, NULL);
	out->budget = cm->budget;
	int rc = 0;
	for (size_t o = 0; o < cm->ops.n; o++) {
		sli_cost_asg *opts;
		size_t n = sli_cost_op_options(cm, (uint32_t)o, &opts);
		double best = INFINITY, bestcomp = 0;
		size_t bi = 0;
		for (size_t k = 0; k < n; k++) {
			double comp;
			double c = op_local(cm, (uint32_t)o, &opts[k], q, &comp, NULL);
			if (k == 0 || c < best - 1e-12 * fabs(best)) {
				best = c;
				bestcomp = comp;
				bi = k;
			}
		}
		if (n == 0) {
			rc = -1;
		} else {
			out->compute += bestcomp;
			out->communication += best - bestcomp;
			op_local(cm, (uint32_t)o, &opts[bi], q, NULL, out);	/* tally */
			if (chosen)
				chosen[o] = opts[bi];
		}
		free(opts);
	}
	out->total = out->communication + out->compute;
	return rc;
}

/* sli_cost_eval and sli_cost_eval_model: with or without the export. */
static int
eval_module(sl_module *m, const sli_cost_params *p, sli_cost_parts *out,
            sli_buf *why, bool emitted)
{
	sli_cost_model cm;
	if (sli_cost_model_build(m, p, &cm))
		return -1;
	sli_cost_asg *q = sli_xcalloc(cm.tensors.n + 1, sizeof *q);
	int rc = sli_cost_read(&cm, q, why);
	/* the export's compute and collectives, one walk of the program;
	 * where it fails on m, the model's price stands in */
	if (!rc && emitted) {
		memset(out, 0, sizeof *out);
		out->peak_bytes = sli_cost_peak_bytes(&cm, q, NULL);
		out->budget = cm.budget;
		emitted = sli_cost_emitted(m, &cm, out) == 0;
	}
	if (!rc && !emitted && sli_cost_eval_asg(&cm, q, out, NULL)) {
		if (why)
			sli_buf_puts(why, "an op has no valid factor assignment");
		rc = -1;
	}
	out->total = out->compute + out->communication;
	free(q);
	sli_cost_model_fini(&cm);
	return rc;
}

int
sli_cost_eval(sl_module *m, const sli_cost_params *p, sli_cost_parts *out,
              sli_buf *why)
{
	return eval_module(m, p, out, why, true);
}

int
sli_cost_eval_model(sl_module *m, const sli_cost_params *p, sli_cost_parts *out,
                    sli_buf *why)
{
	return eval_module(m, p, out, why, false);
}
