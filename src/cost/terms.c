/*
 * terms.c - the ILP's cost terms (terms.h), each a sum of the primitives
 * the model's price is made of, taken in its order (eval.c), so that on
 * an integral point the objective and the model's price agree to rounding.
 */
#include "cost/terms.h"

#include "cost/primitives.h"

#include <math.h>
#include <string.h>

double
sli_cost_term_bytes(const sli_cost_model *cm, uint32_t t, const sli_cost_asg *q)
{
	return sli_cost_tensor_bytes(cm, t, q);
}

double
sli_cost_term_op(const sli_cost_model *cm, uint32_t o, const sli_cost_asg *s)
{
	return sli_cost_op_self(cm, o, s, NULL, NULL);
}

double
sli_cost_term_project(const sli_cost_model *cm, uint32_t o, bool result,
                      uint32_t i, const sli_cost_asg *s, sli_cost_asg *out)
{
	const sli_cost_op *co = &cm->ops.v[o];
	uint32_t t = result ? co->results[i] : co->operands[i];
	sli_cost_op_project(cm, o, result, i, s, out);
	return sli_cost_tensor_bytes(cm, t, out);
}

double
sli_cost_term_reshard(const sli_cost_model *cm, const sli_cost_asg *from,
                      double bytes, const sli_cost_asg *to)
{
	return sli_cost_reshard(cm, from, bytes, to, NULL);
}

void
sli_cost_term_gathers(const sli_cost_model *cm, const sli_cost_asg *from,
                      double bytes, double *acc)
{
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (from->a[a] >= 0)
			*acc += sli_cost_gather(cm, a, bytes);
}

double
sli_cost_term_refund(const sli_cost_model *cm, uint32_t a, double bytes,
                     bool same_dim)
{
	double all_to_all = sli_cost_all_to_all(cm, a, bytes);
	return same_dim ? all_to_all : sli_cost_gather(cm, a, bytes) - all_to_all;
}

double
sli_cost_term_require(const sli_cost_model *cm, uint32_t o, uint32_t i,
                      const sli_cost_asg *q, sli_cost_asg *to)
{
	return sli_cost_op_require(cm, o, i, q, to, NULL);
}

double
sli_cost_term_leaf(const sli_cost_model *cm, uint32_t o, uint32_t i, bool result,
                   const sli_cost_asg *proj, double pb, const sli_cost_asg *opt,
                   double tb)
{
	const sli_cost_op *co = &cm->ops.v[o];
	if (!result && co->ropt && co->ropt[i])
		return sli_cost_op_require(cm, o, i, opt, NULL, NULL);
	return result ? sli_cost_reshard(cm, proj, pb, opt, NULL)
	              : sli_cost_reshard(cm, opt, tb, proj, NULL);
}

double
sli_cost_term_scale(const sli_cost_model *cm)
{
	double bytes = 0, c = 0;
	sli_cost_asg rep;
	memset(rep.a, SLI_COST_NONE, sizeof rep.a);
	for (size_t t = 0; t < cm->tensors.n; t++)
		bytes = fmax(bytes, sli_cost_tensor_bytes(cm, (uint32_t)t, &rep));
	for (uint32_t a = 0; a < cm->naxes; a++)
		c = fmax(c, sli_cost_gather(cm, a, bytes));
	return c;
}
