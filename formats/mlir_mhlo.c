/*
 * mlir_mhlo.c - MHLO, the dialect StableHLO was forked from, in its
 * pretty form: `mhlo.X` whose counterpart `stablehlo.X` has a custom
 * syntax is read with that syntax, as the StableHLO op (the two dialects
 * print their common ops alike).  Where MHLO's syntax differs, the
 * StableHLO reader reports the located error; an MHLO op with no
 * counterpart stays an unknown custom op.  In the generic form only the
 * elementwise ops with no attribute of their own are read as StableHLO's;
 * the others stay MHLO's, unknown to the sharding rules.
 */
#include "formats/mlir_parser.h"
#include "formats/mlir_printer.h"

#include <string.h>

sl_op_kind
sli_mhlo_kind(sli_parser *P, const char *s, size_t n, sl_sym *name)
{
	static const char mhlo[] = "mhlo.", shlo[] = "stablehlo.";
	const size_t nm = sizeof mhlo - 1, ns = sizeof shlo - 1;
	char buf[64];
	if (n <= nm || n - nm + ns >= sizeof buf || memcmp(s, mhlo, nm) != 0)
		return SL_OP_UNKNOWN;
	memcpy(buf, shlo, ns);
	memcpy(buf + ns, s + nm, n - nm);
	buf[n - nm + ns] = 0;
	sl_op_kind k = sli_op_kind_lookup(buf, n - nm + ns);
	if (k == SL_OP_UNKNOWN || sli_op_info[k].format == SL_FMT_GENERIC)
		return SL_OP_UNKNOWN;
	*name = sli_p_sym(P, buf);
	return k;
}

/*
 * In the generic form MHLO spells its ops' own attributes its own way
 * (#mhlo.dot<...>, dense<...> dimensions): an op is read as StableHLO's
 * only when it has none, its attributes all dialect ones (mhlo.sharding).
 */
void
sli_mhlo_generic(sli_parser *P, sli_opstate *st)
{
	if (st->props.n)
		return;
	for (size_t i = 0; i < st->attrs.n; i++)
		if (!strchr(sl_sym_str(P->ctx, st->attrs.v[i].name), '.'))
			return;
	const char *s = sl_sym_str(P->ctx, st->name);
	sl_sym name;
	sl_op_kind k = sli_mhlo_kind(P, s, strlen(s), &name);
	if (k != SL_OP_UNKNOWN && sli_op_info[k].format == SL_FMT_SAME) {
		st->kind = k;
		st->name = name;
	}
}

/*
 * Whether --emit mhlo prints a StableHLO op under its MHLO name: in the
 * custom form always (sli_mhlo_kind reads every such form back), in the
 * generic form only where sli_mhlo_generic reads it back as the same op.
 * The others (gather, sort, collectives: MHLO spells their attributes its
 * own way) keep their StableHLO name, so that the output reads back as the
 * module it came from.
 */
bool
sli_mhlo_prints_as(const sl_context *ctx, const sl_op *op, bool generic)
{
	if (op->kind == SL_OP_UNKNOWN || strncmp(sl_sym_str(ctx, op->name), "stablehlo.", 10))
		return false;
	if (!generic)
		return true;
	if (op->nprops || sli_op_info[op->kind].format != SL_FMT_SAME)
		return false;
	for (uint32_t i = 0; i < op->nattrs; i++)
		if (!strchr(sl_sym_str(ctx, op->attrs[i].name), '.'))
			return false;
	return true;
}
