/*
 * rule.c - the sharding rule of each op for propagation: built by the
 * registry once, shared by equal ops (same name, types and attributes),
 * attached when it must be kept; and the identity rules of edges,
 * barriers and result syncs, by type and arity.  Every rule lives as
 * long as the pass (P->rulemem), so steps through it can be memoised.
 */
#include "propagation/prop_internal.h"
#include "ir/access.h"

/*
 * Rule sharing.  Layers of a model repeat the same ops on the same types,
 * and building a rule costs more than finding an equal op built before:
 * ops the registry builds from themselves alone (sli_rule_local) share the
 * rule of the first op with the same name, types and attributes.
 */
static bool
attrs_equal(const sl_named_attr *a, uint32_t na, const sl_named_attr *b, uint32_t nb,
            sl_sym skip)
{
	uint32_t i = 0, j = 0;
	for (;;) {
		while (i < na && a[i].name == skip)
			i++;
		while (j < nb && b[j].name == skip)
			j++;
		if (i == na || j == nb)
			return i == na && j == nb;
		if (a[i].name != b[j].name || !sli_attr_equal(a[i].attr, b[j].attr))
			return false;
		i++;
		j++;
	}
}

static uint64_t
op_key_hash(const sl_op *op)
{
	uint64_t h = sli_prop_mix(sli_prop_mix(1469598103934665603ULL, op->name), op->noperands);
	for (uint32_t i = 0; i < op->noperands; i++)
		h = sli_prop_mix(h, (uint64_t)(uintptr_t)op->operands[i]->type);
	for (uint32_t i = 0; i < op->nresults; i++)
		h = sli_prop_mix(h, (uint64_t)(uintptr_t)op->results[i].type);
	return sli_prop_mix(h, op->nprops);
}

static bool
op_key_equal(const sl_op *a, const sl_op *b)
{
	if (a->kind != b->kind || a->name != b->name || a->noperands != b->noperands ||
	    a->nresults != b->nresults)
		return false;
	for (uint32_t i = 0; i < a->noperands; i++)
		if (a->operands[i]->type != b->operands[i]->type)
			return false;
	for (uint32_t i = 0; i < a->nresults; i++)
		if (a->results[i].type != b->results[i].type)
			return false;
	/* the shardings of the ops do not matter */
	return attrs_equal(a->props, a->nprops, b->props, b->nprops, 0) &&
	       attrs_equal(a->attrs, a->nattrs, b->attrs, b->nattrs, sli_sharding_list_name());
}

static bool
op_key_eq(const void *item, const void *key)
{
	return op_key_equal(item, key);
}

/* A rule in P->rulemem, P->no_rule, or NULL after an error. */
static const sl_rule *
build_rule(sli_prop *P, sl_op *op, bool attach)
{
	sl_rule r;
	int rc = attach ? sli_rule_attach(P->m, op, &P->ropts, &r)
	                : sli_rule_for_op(P->m, op, &P->ropts, &r);
	if (rc < 0) {
		P->failed = true;
		return NULL;
	}
	if (rc != SLI_RULE_FOUND)
		return P->no_rule;
	sl_rule *c = SL_NEW(&P->rulemem, sl_rule);
	*c = r;
	return c;
}

/* The entry of P->rules for rule b (NULL: none). */
static uint32_t
rule_entry(sli_prop *P, const sl_rule *b)
{
	SL_VEC_PUSH(P->rule_list, b ? b : P->no_rule);
	return (uint32_t)P->rule_list.n;
}

const sl_rule *
sli_prop_op_rule(sli_prop *P, sl_op *op)
{
	uint32_t *r = &P->rules[op->id];
	if (*r) {
		const sl_rule *x = P->rule_list.v[*r - 1];
		return x == P->no_rule ? NULL : x;
	}
	/*
	 * Shardy attaches every rule it builds; when the rules are dropped
	 * at the end and no dump can show them, building is enough.
	 */
	bool attach = P->o->keep_sharding_rules || (P->o->dump_dir && *P->o->dump_dir);
	if (!attach && sli_rule_local(op) &&
	    (!(P->opclass[op->id] & SLI_OPCLASS_ATTRS) || !sli_op_rule_attr(op))) {
		uint64_t h = op_key_hash(op);
		sli_hslot *slot = sli_htab_slot(&P->rule_reps, h, op_key_eq, op, 256);
		if (slot->item) {
			*r = P->rules[((const sl_op *)slot->item)->id];
		} else {
			const sl_rule *b = build_rule(P, op, false);
			*r = rule_entry(P, b);
			if (b)
				sli_htab_fill(&P->rule_reps, slot, h, op);
		}
	} else {
		*r = rule_entry(P, build_rule(P, op, attach));
	}
	const sl_rule *x = P->rule_list.v[*r - 1];
	return x == P->no_rule ? NULL : x;
}

bool
sli_prop_has_no_rule(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_MODULE:
	case SL_OP_FUNC:
	case SL_OP_CALL:
	case SL_OP_SDY_MESH:
	case SL_OP_SDY_SHARDING_GROUP:
	case SL_OP_SDY_MANUAL_COMPUTATION:
	case SL_OP_SDY_NAMED_COMPUTATION:
	case SL_OP_SDY_CONSTANT:
	case SL_OP_SDY_RESHARD:
	case SL_OP_WHILE:
	case SL_OP_CASE:
	case SL_OP_OPTIMIZATION_BARRIER:
	case SL_OP_CONSTANT:
	case SL_OP_IOTA:
		return true;
	default:
		return (sli_op_info[op->kind].traits & T_TERM) != 0;
	}
}

/*
 * Identity rules (edges, barriers, result syncs) by type and arity, built
 * once in P->rulemem: every rule a step sees lives as long as the pass,
 * so steps through edges are memoised too.
 */
typedef struct identity_key {
	const sl_type *type;
	uint32_t nops, nres;
} identity_key;

typedef struct identity_entry {
	identity_key key;
	sl_rule rule;
} identity_entry;

static uint64_t
identity_hash(const sl_type *type, uint32_t nops, uint32_t nres)
{
	uint64_t h = sli_prop_mix(1469598103934665603ULL, (uint64_t)(uintptr_t)type);
	return sli_prop_mix(sli_prop_mix(h, nops), nres);
}

static bool
identity_eq(const void *item, const void *key)
{
	const identity_key *e = &((const identity_entry *)item)->key, *k = key;
	return e->type == k->type && e->nops == k->nops && e->nres == k->nres;
}

const sl_rule *
sli_prop_identity_rule(sli_prop *P, const sl_type *type, uint32_t nops, uint32_t nres)
{
	identity_key key = {type, nops, nres};
	uint64_t h = identity_hash(type, nops, nres);
	sli_hslot *slot = sli_htab_slot(&P->idrules, h, identity_eq, &key, 64);
	if (!slot->item) {
		identity_entry *e = SL_NEW(&P->rulemem, identity_entry);
		e->key = key;
		sli_rule_identity(&P->rulemem, type, nops, nres, &e->rule);
		sli_htab_fill(&P->idrules, slot, h, e);
	}
	return &((identity_entry *)slot->item)->rule;
}
