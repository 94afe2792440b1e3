/*
 * mlir_other.c - custom syntax of ops from dialects other than sdy, func
 * and StableHLO that real programs and Shardy's tests contain:
 *   chlo.X %a[, %b] attr-dict : operand-types -> result-types
 *   chlo.top_k(%a, k = N) attr-dict : type -> (type, type)
 *   arith.constant attr-dict typed-value
 */
#include "formats/mlir_parser.h"
#include "formats/mlir_printer.h"

/* "t1, t2 -> r" or "t1 -> (r1, r2)": types without parentheses on the left. */
static int
parse_arrow_types(sli_parser *P, sli_opstate *st)
{
	sli_typevec ins = {0}, outs = {0};
	int rc = -1;
	if (sli_p_type_list(P, &ins) || sli_p_expect(P, SL_TOK_ARROW, "'->'"))
		goto done;
	if (sli_p_accept(P, SL_TOK_LPAREN)) {
		if (sli_p_type_list(P, &outs) || sli_p_expect(P, SL_TOK_RPAREN, "')'"))
			goto done;
	} else {
		sl_type *t;
		if (sli_p_type(P, &t))
			goto done;
		SL_VEC_PUSH(outs, t);
	}
	if (ins.n != st->operands.n) {
		sli_p_error(P, "expected %u operand types but had %u", (unsigned)st->operands.n,
		            (unsigned)ins.n);
		goto done;
	}
	for (size_t i = 0; i < ins.n; i++)
		if (ins.v[i] != st->operands.v[i]->type) {
			sli_p_error(P, "use of value expects different type than prior uses: '%s' vs '%s'",
			            sl_sym_str(P->ctx, ins.v[i]->text),
			            sl_sym_str(P->ctx, st->operands.v[i]->type->text));
			goto done;
		}
	for (size_t i = 0; i < outs.n; i++)
		SL_VEC_PUSH(st->result_types, outs.v[i]);
	rc = 0;
done:
	SL_VEC_FREE(ins);
	SL_VEC_FREE(outs);
	return rc;
}

static void
print_arrow_types(sli_printer *pr, const sl_op *op)
{
	sli_pr_puts(pr, " : ");
	sli_pr_operand_types(pr, op);
	sli_pr_puts(pr, " -> ");
	if (op->nresults != 1)
		sli_pr_putc(pr, '(');
	sli_pr_result_types(pr, op);
	if (op->nresults != 1)
		sli_pr_putc(pr, ')');
}

int
sli_parse_fmt_CHLO(sli_parser *P, sli_opstate *st)
{
	if (sli_p_operand_list(P, st))
		return -1;
	if (sli_p_optional_attr_dict(P, (sli_namedvec *)&st->attrs) < 0)
		return -1;
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	return parse_arrow_types(P, st);
}

void
sli_print_fmt_CHLO(sli_printer *pr, const sl_op *op)
{
	sli_pr_putc(pr, ' ');
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_attr_dict(pr, op, NULL);
	print_arrow_types(pr, op);
}

int
sli_parse_fmt_CHLO_TOP_K(sli_parser *P, sli_opstate *st)
{
	sl_value *v;
	int64_t k;
	if (sli_p_expect(P, SL_TOK_LPAREN, "'('") || sli_p_operand(P, &v) ||
	    sli_p_expect(P, SL_TOK_COMMA, "','") || sli_p_expect_kw(P, "k") ||
	    sli_p_expect(P, SL_TOK_EQUAL, "'='") || sli_p_int(P, &k) ||
	    sli_p_expect(P, SL_TOK_RPAREN, "')'"))
		return -1;
	SL_VEC_PUSH(st->operands, v);
	sli_p_named_add((sli_namedvec *)&st->props, sli_p_sym(P, "k"),
	                sli_attr_int(P->m, k, sli_type_elem(P->ctx, "i64", 3)));
	if (sli_p_optional_attr_dict(P, (sli_namedvec *)&st->attrs) < 0)
		return -1;
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	return parse_arrow_types(P, st);
}

void
sli_print_fmt_CHLO_TOP_K(sli_printer *pr, const sl_op *op)
{
	sl_sym k = sl_sym_intern((sl_context *)pr->ctx, "k", 1);
	sl_attr *a = sli_op_get(op, k);
	sli_pr_putc(pr, '(');
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_puts(pr, ", k = ");
	sli_pr_i64(pr, a && a->kind == SL_ATTR_INT ? a->u.i.v : 0);
	sli_pr_putc(pr, ')');
	sl_sym elide[] = {k, 0};
	sli_pr_attr_dict(pr, op, elide);
	print_arrow_types(pr, op);
}

/* arith.constant attr-dict? value, where value carries its type. */
int
sli_parse_fmt_ARITH_CONSTANT(sli_parser *P, sli_opstate *st)
{
	if (sli_p_optional_attr_dict(P, (sli_namedvec *)&st->attrs) < 0)
		return -1;
	sl_loc loc = sli_p_loc(P);
	sl_attr *v;
	if (sli_p_attr(P, &v))
		return -1;
	sl_type *t = v->kind == SL_ATTR_DENSE ? v->u.dense.type :
	             v->kind == SL_ATTR_INT ? v->u.i.type :
	             v->kind == SL_ATTR_FLOAT ? v->u.f.type :
	             v->kind == SL_ATTR_BOOL ? sli_type_elem(P->ctx, "i1", 2) : NULL;
	if (!t)
		return sli_p_error_at(P, loc, "expected a typed constant value");
	sli_p_named_add((sli_namedvec *)&st->props, SLS_value, v);
	SL_VEC_PUSH(st->result_types, t);
	return 0;
}

void
sli_print_fmt_ARITH_CONSTANT(sli_printer *pr, const sl_op *op)
{
	sl_sym elide[] = {SLS_value, 0};
	sli_pr_attr_dict(pr, op, elide);
	sl_attr *v = sli_op_get(op, SLS_value);
	if (v) {
		sli_pr_putc(pr, ' ');
		sli_pr_attr(pr, v);
	}
}
