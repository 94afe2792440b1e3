/*
 * check.c - queries on a rule's factors (their kind, blocked or not, their
 * printed names) and the check of a rule against its op
 * (spec/sharding-rules.md section 3), for rules from the registry and from
 * `sdy.sharding_rule` attributes alike.
 */
#include "rules/rules.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

static bool
in_list(const sl_factor_list *l, uint32_t f)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i] == f)
			return true;
	return false;
}

sli_factor_kind
sli_rule_factor_kind(const sl_rule *rule, uint32_t f)
{
	if (in_list(&rule->reduction, f))
		return SLI_FACTOR_REDUCTION;
	if (in_list(&rule->need_replication, f))
		return SLI_FACTOR_NEED_REPLICATION;
	if (in_list(&rule->permutation, f))
		return SLI_FACTOR_PERMUTATION;
	return SLI_FACTOR_PASS_THROUGH;
}

bool
sli_rule_factor_blocked(const sl_rule *rule, uint32_t f)
{
	return in_list(&rule->blocked, f);
}

void
sli_rule_factor_name(sli_buf *b, uint32_t k)
{
	if (k <= 17)
		sli_buf_putc(b, (char)('i' + k));
	else
		sli_buf_printf(b, "z_%u", k - 17);
}

typedef struct checker {
	sl_module *m;
	const sl_op *op;
} checker;

static int
check_err(const checker *c, const char *value, uint32_t i, uint32_t n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* "'op' op VALUE N - message" (no number when there is one value). */
static int
check_err(const checker *c, const char *value, uint32_t i, uint32_t n, const char *fmt, ...)
{
	sli_buf msg;
	va_list ap;

	sli_buf_init(&msg);
	if (value && n > 1)
		sli_buf_printf(&msg, "%s %u - ", value, i);
	else if (value)
		sli_buf_printf(&msg, "%s - ", value);
	va_start(ap, fmt);
	sli_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	sli_error(c->m->ctx, c->op->loc, "'%s' op %s", sl_sym_str(c->m->ctx, c->op->name),
	          sli_buf_cstr(&msg));
	sli_buf_fini(&msg);
	return -1;
}

static int
check_mappings(const checker *c, const sl_rule *r, bool results, uint8_t *used,
               uint32_t *seen, uint32_t *stamp)
{
	const char *value = results ? "result" : "operand";
	uint32_t n = results ? r->nresults : r->noperands;
	uint32_t nvals = results ? c->op->nresults : c->op->noperands;
	const sl_tensor_mapping *tm = results ? r->results : r->operands;

	if (n != nvals)
		return check_err(c, NULL, 0, 0, "number of %ss and mappings must match: %u != %u",
		                 value, nvals, n);
	if (n == 0)
		return check_err(c, NULL, 0, 0, "number of %ss mappings cannot be 0. Op sharding "
		                 "rules can only be defined on operations with at least one "
		                 "operand and result.", value);
	for (uint32_t i = 0; i < n; i++) {
		const sl_type *t = results ? c->op->results[i].type : c->op->operands[i]->type;
		sli_buf tb;
		if (!t || !sli_type_is_static(t)) {
			int rc;
			sli_buf_init(&tb);
			if (t)
				sli_buf_puts(&tb, sl_sym_str(c->m->ctx, t->text));
			rc = check_err(c, value, i, n, "expected a ranked tensor with a static shape. "
			               "type: %s", sli_buf_cstr(&tb));
			sli_buf_fini(&tb);
			return rc;
		}
		if (tm[i].rank != t->rank)
			return check_err(c, value, i, n, "mapping rank must match: %u != %u", tm[i].rank,
			                 t->rank);
		++*stamp;
		for (uint32_t d = 0; d < tm[i].rank; d++) {
			const sl_dim_mapping *dm = &tm[i].dims[d];
			if (dm->n == 0)
				return check_err(c, value, i, n, "dim mapping must have at least one factor");
			for (uint32_t k = 0; k < dm->n; k++) {
				uint32_t f = dm->factors[k];
				if (f >= r->nfactors)
					return check_err(c, value, i, n, "expecting factor indices to be within "
					                 "0<=...<num_factors; received: %u, num_factors: %u", f,
					                 r->nfactors);
				if (seen[f] == *stamp)
					return check_err(c, value, i, n, "cannot reuse factors for the same "
					                 "tensor value");
				seen[f] = *stamp;
				used[f] = 1;
				if (dm->n > 1 && r->factor_sizes[f] == 1)
					return check_err(c, value, i, n, "dim mapping can't have a factor of "
					                 "size 1 if there are multiple factors");
			}
		}
	}
	return 0;
}

static int
check_set(const checker *c, const sl_factor_list *l, uint32_t nfactors)
{
	for (uint32_t i = 0; i < l->n; i++) {
		if (l->v[i] < 0)
			return check_err(c, NULL, 0, 0, "index must be non-negative");
		if (l->v[i] >= nfactors)
			return check_err(c, NULL, 0, 0, "index must be less than %u, got: %" PRId64,
			                 nfactors, l->v[i]);
		if (i && l->v[i] < l->v[i - 1])
			return check_err(c, NULL, 0, 0, "indices of special factors must be sorted");
		if (i && l->v[i] == l->v[i - 1])
			return check_err(c, NULL, 0, 0, "indices of special factors must be unique");
	}
	return 0;
}

int
sli_rule_check(sl_module *m, const sl_op *op, const sl_rule *r)
{
	checker c = {m, op};
	uint8_t *used = sli_xcalloc(r->nfactors + 1, 1);
	uint32_t *seen = sli_xcalloc(r->nfactors + 1, sizeof *seen);
	uint32_t stamp = 0;
	int rc = -1;

	if (check_mappings(&c, r, false, used, seen, &stamp) ||
	    check_mappings(&c, r, true, used, seen, &stamp))
		goto done;
	for (uint32_t f = 0; f < r->nfactors; f++) {
		if (!used[f]) {
			sli_buf nm;
			sli_buf_init(&nm);
			sli_rule_factor_name(&nm, f);
			check_err(&c, NULL, 0, 0, "has factor %s=%" PRId64 " that isn't used in operand "
			          "and result mappings", sli_buf_cstr(&nm), r->factor_sizes[f]);
			sli_buf_fini(&nm);
			goto done;
		}
	}
	if (check_set(&c, &r->reduction, r->nfactors) ||
	    check_set(&c, &r->need_replication, r->nfactors) ||
	    check_set(&c, &r->permutation, r->nfactors))
		goto done;
	for (uint32_t f = 0; f < r->nfactors; f++) {
		int k = in_list(&r->reduction, f) + in_list(&r->need_replication, f) +
		        in_list(&r->permutation, f);
		if (k > 1) {
			check_err(&c, NULL, 0, 0, "a factor can only be in one of the reduction, need "
			          "replication, or permutation factor sets");
			goto done;
		}
	}
	if (check_set(&c, &r->blocked, r->nfactors))
		goto done;
	for (uint32_t i = 0; i < r->nresults; i++)
		for (uint32_t d = 0; d < r->results[i].rank; d++)
			for (uint32_t k = 0; k < r->results[i].dims[d].n; k++)
				if (in_list(&r->reduction, r->results[i].dims[d].factors[k])) {
					check_err(&c, NULL, 0, 0, "reduction factor cannot be in result "
					          "mappings");
					goto done;
				}
	rc = 0;
done:
	free(used);
	free(seen);
	return rc;
}
