/*
 * verify_rule.c - `sdy.sharding_rule` attributes against their op
 * (spec/sharding-rules.md section 3).
 */
#include "verify/verifier.h"

#include <stdlib.h>
#include <string.h>

void
sli_verify_factor_symbol(sli_buf *b, int64_t k)
{
	if (k >= 0 && k <= 17)
		sli_buf_putc(b, (char)('i' + k));
	else
		sli_buf_printf(b, "z_%lld", (long long)(k - 17));
}

static int
check_rule_mappings(verifier *v, sl_type *const *types, uint32_t ntypes,
                    const sl_tensor_mapping *maps, uint32_t nmaps,
                    const sl_rule *rule, bool *used, const char *kind)
{
	bool *mine = sli_xcalloc(rule->nfactors + 1, sizeof *mine);
	sli_buf pfx;
	int rc = 0;

	if (ntypes != nmaps) {
		free(mine);
		return sli_verify_op_error(v, NULL, "number of %ss and mappings must match: "
		                           "%u != %u", kind, ntypes, nmaps);
	}
	if (nmaps == 0) {
		free(mine);
		return sli_verify_op_error(v, NULL, "number of %ss mappings cannot be 0. Op "
		                           "sharding rules can only be defined on operations with "
		                           "at least one operand and result.", kind);
	}
	sli_buf_init(&pfx);
	for (uint32_t i = 0; i < nmaps && rc == 0; i++) {
		const sl_type *t = types[i];
		const sl_tensor_mapping *tm = &maps[i];

		memset(mine, 0, (rule->nfactors + 1) * sizeof *mine);
		pfx.n = 0;
		if (nmaps == 1)
			sli_buf_printf(&pfx, "%s - ", kind);
		else
			sli_buf_printf(&pfx, "%s %u - ", kind, i);
		if (!t || !sli_type_is_static(t)) {
			sli_buf *b = sli_verify_op_msg(v, sli_buf_cstr(&pfx));

			sli_buf_puts(b, "expected a ranked tensor with a static shape. type: ");
			sli_verify_put_type(v, b, t);
			rc = sli_verify_emit(v);
			break;
		}
		if (tm->rank != t->rank) {
			rc = sli_verify_op_error(v, sli_buf_cstr(&pfx), "mapping rank must match: "
			                         "%u != %u", tm->rank, t->rank);
			break;
		}
		for (uint32_t d = 0; d < tm->rank && rc == 0; d++) {
			const sl_dim_mapping *dm = &tm->dims[d];

			if (dm->n == 0) {
				rc = sli_verify_op_error(v, sli_buf_cstr(&pfx), "dim mapping must have "
				                         "at least one factor");
				break;
			}
			for (uint32_t f = 0; f < dm->n; f++) {
				uint32_t k = dm->factors[f];

				if (k >= rule->nfactors) {
					rc = sli_verify_op_error(v, sli_buf_cstr(&pfx), "expecting factor "
					                         "indices to be within 0<=...<num_factors; "
					                         "received: %u, num_factors: %u", k,
					                         rule->nfactors);
					break;
				}
				if (mine[k]) {
					rc = sli_verify_op_error(v, sli_buf_cstr(&pfx), "cannot reuse "
					                         "factors for the same tensor value");
					break;
				}
				if (rule->factor_sizes[k] == 1 && dm->n > 1) {
					rc = sli_verify_op_error(v, sli_buf_cstr(&pfx), "dim mapping can't "
					                         "have a factor of size 1 if there are "
					                         "multiple factors");
					break;
				}
				mine[k] = true;
				used[k] = true;
			}
		}
	}
	sli_buf_fini(&pfx);
	free(mine);
	return rc;
}

static int
check_factor_set(verifier *v, const sl_factor_list *l, uint32_t nfactors)
{
	if (l->n == 0)
		return 0;
	for (uint32_t i = 1; i < l->n; i++)
		if (l->v[i] < l->v[i - 1])
			return sli_verify_op_error(v, NULL, "indices of special factors must be sorted");
	for (uint32_t i = 1; i < l->n; i++)
		if (l->v[i] == l->v[i - 1])
			return sli_verify_op_error(v, NULL, "indices of special factors must be unique");
	if (l->v[0] < 0)
		return sli_verify_op_error(v, NULL, "index must be non-negative");
	if (l->v[l->n - 1] >= (int64_t)nfactors)
		return sli_verify_op_error(v, NULL, "index must be less than %u, got: %lld",
		                           nfactors, (long long)l->v[l->n - 1]);
	return 0;
}

static bool
factor_in(const sl_factor_list *l, int64_t k)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i] == k)
			return true;
	return false;
}

int
sli_verify_rule(verifier *v, const sl_op *op, const sl_rule *rule)
{
	bool *used = sli_xcalloc(rule->nfactors + 1, sizeof *used);
	sl_type **ot = sli_verify_operand_types(op), **rt = sli_verify_result_types(op);
	int rc;

	rc = check_rule_mappings(v, ot, op->noperands, rule->operands,
	                         rule->noperands, rule, used, "operand");
	if (rc == 0)
		rc = check_rule_mappings(v, rt, op->nresults, rule->results,
		                         rule->nresults, rule, used, "result");
	for (uint32_t k = 0; rc == 0 && k < rule->nfactors; k++) {
		if (!used[k]) {
			sli_buf *b = sli_verify_op_msg(v, NULL);

			sli_buf_puts(b, "has factor ");
			sli_verify_factor_symbol(b, k);
			sli_buf_printf(b, "=%lld that isn't used in operand and result "
			               "mappings", (long long)rule->factor_sizes[k]);
			rc = sli_verify_emit(v);
		}
	}
	if (rc == 0)
		rc = check_factor_set(v, &rule->reduction, rule->nfactors);
	if (rc == 0)
		rc = check_factor_set(v, &rule->need_replication, rule->nfactors);
	if (rc == 0)
		rc = check_factor_set(v, &rule->permutation, rule->nfactors);
	for (uint32_t i = 0; rc == 0 && i < rule->reduction.n; i++)
		if (factor_in(&rule->need_replication, rule->reduction.v[i]) ||
		    factor_in(&rule->permutation, rule->reduction.v[i]))
			rc = -2;
	for (uint32_t i = 0; rc == 0 && i < rule->need_replication.n; i++)
		if (factor_in(&rule->permutation, rule->need_replication.v[i]))
			rc = -2;
	if (rc == -2)
		rc = sli_verify_op_error(v, NULL, "a factor can only be in one of the reduction, "
		                         "need replication, or permutation factor sets");
	if (rc == 0)
		rc = check_factor_set(v, &rule->blocked, rule->nfactors);
	for (uint32_t r = 0; rc == 0 && r < rule->nresults; r++)
		for (uint32_t d = 0; rc == 0 && d < rule->results[r].rank; d++)
			for (uint32_t f = 0; rc == 0 && f < rule->results[r].dims[d].n; f++)
				if (factor_in(&rule->reduction, rule->results[r].dims[d].factors[f]))
					rc = sli_verify_op_error(v, NULL, "reduction factor cannot be in "
					                         "result mappings");
	free(used);
	free(ot);
	free(rt);
	return rc;
}
