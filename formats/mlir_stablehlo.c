/*
 * mlir_stablehlo.c - the custom (pretty) assembly of StableHLO ops, as the
 * stablehlo dialect of MLIR prints and parses it (StablehloOps.td formats,
 * AssemblyFormat.cpp).  Parsers fill inherent attributes into the opstate's
 * props exactly as the generic form <{...}> holds them, so an op read in
 * either form prints the same; printers read props (attrs as a fallback).
 * Invariant: print -> parse -> print is the identity on the text.
 */
#include "formats/mlir_parser.h"
#include "formats/mlir_printer.h"
#include "formats/mlir_stablehlo_attrs.h"

#include <stdlib.h>
#include <string.h>

typedef sli_i64vec i64vec;

/* {====== inherent attributes ============================================ */

/*
 * For each op: the names of its inherent attributes (props), and among them
 * the ones its custom syntax spells out, which the attr-dict omits.
 */
typedef struct shlo_props {
	sl_op_kind kind;
	const char *const *inherent;
	const char *const *consumed;
} shlo_props;

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

static const shlo_props props_table[] = {
	{SL_OP_REVERSE, NAMES("dimensions"), NAMES("dimensions")},
	{SL_OP_REDUCE_PRECISION, NAMES("exponent_bits", "mantissa_bits"),
	 NAMES("exponent_bits", "mantissa_bits")},
	{SL_OP_COMPARE, NAMES("comparison_direction", "compare_type"),
	 NAMES("comparison_direction", "compare_type")},
	{SL_OP_BROADCAST_IN_DIM, NAMES("broadcast_dimensions"), NAMES("broadcast_dimensions")},
	{SL_OP_DYNAMIC_BROADCAST_IN_DIM,
	 NAMES("broadcast_dimensions", "known_expanding_dimensions",
	       "known_nonexpanding_dimensions"),
	 NAMES("broadcast_dimensions")},
	{SL_OP_TRANSPOSE, NAMES("permutation"), NAMES("permutation")},
	{SL_OP_DYNAMIC_SLICE, NAMES("slice_sizes"), NAMES("slice_sizes")},
	{SL_OP_CONCATENATE, NAMES("dimension"), NAMES("dimension")},
	{SL_OP_GET_DIMENSION_SIZE, NAMES("dimension"), NAMES("dimension")},
	{SL_OP_PAD, NAMES("edge_padding_low", "edge_padding_high", "interior_padding"),
	 NAMES("edge_padding_low", "edge_padding_high", "interior_padding")},
	{SL_OP_CHOLESKY, NAMES("lower"), NAMES("lower")},
	{SL_OP_FFT, NAMES("fft_type", "fft_length"), NAMES("fft_type", "fft_length")},
	{SL_OP_RNG_BIT_GENERATOR, NAMES("rng_algorithm"), NAMES("rng_algorithm")},
	{SL_OP_RNG, NAMES("rng_distribution"), NAMES("rng_distribution")},
	{SL_OP_DOT, NAMES("precision_config"), NAMES("precision_config")},
	{SL_OP_DOT_GENERAL, NAMES("dot_dimension_numbers", "precision_config", "algorithm"),
	 NAMES("dot_dimension_numbers", "precision_config", "algorithm")},
	{SL_OP_SLICE, NAMES("start_indices", "limit_indices", "strides"),
	 NAMES("start_indices", "limit_indices", "strides")},
	{SL_OP_GET_TUPLE_ELEMENT, NAMES("index"), NAMES("index")},
	{SL_OP_DYNAMIC_IOTA, NAMES("iota_dimension"), NAMES("iota_dimension")},
	{SL_OP_IOTA, NAMES("iota_dimension"), NAMES("iota_dimension")},
	{SL_OP_CONVOLUTION,
	 NAMES("window_strides", "padding", "lhs_dilation", "rhs_dilation",
	       "window_reversal", "dimension_numbers", "feature_group_count",
	       "batch_group_count", "precision_config"),
	 NAMES("window_strides", "padding", "lhs_dilation", "rhs_dilation",
	       "window_reversal", "dimension_numbers")},
	{SL_OP_CONSTANT, NAMES("value"), NAMES("value")},
	{SL_OP_CUSTOM_CALL,
	 NAMES("call_target_name", "has_side_effect", "backend_config", "api_version",
	       "called_computations", "operand_layouts", "result_layouts",
	       "output_operand_aliases"),
	 NAMES("call_target_name")},
	{SL_OP_COMPOSITE, NAMES("name", "composite_attributes", "decomposition", "version"),
	 NAMES("name")},
	{SL_OP_REDUCE, NAMES("dimensions"), NAMES("dimensions")},
};

static const shlo_props *
props_of(sl_op_kind kind)
{
	for (size_t i = 0; i < sizeof props_table / sizeof props_table[0]; i++)
		if (props_table[i].kind == kind)
			return &props_table[i];
	return NULL;
}

static bool
name_in(const char *const *names, const char *s, size_t n)
{
	for (; names && *names; names++)
		if (strlen(*names) == n && memcmp(*names, s, n) == 0)
			return true;
	return false;
}

/* {====== reading attributes ============================================== */

static bool
text_is(const char *p, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(p, s, n) == 0;
}

/* The attribute `name` of op: inherent first, then discardable. */
static const sl_attr *
get(const sl_context *ctx, const sl_op *op, const char *name)
{
	size_t n = strlen(name);
	for (uint32_t i = 0; i < op->nprops; i++) {
		sl_sym s = op->props[i].name;
		if (sli_sym_len(ctx, s) == n && memcmp(sl_sym_str(ctx, s), name, n) == 0)
			return op->props[i].attr;
	}
	for (uint32_t i = 0; i < op->nattrs; i++) {
		sl_sym s = op->attrs[i].name;
		if (sli_sym_len(ctx, s) == n && memcmp(sl_sym_str(ctx, s), name, n) == 0)
			return op->attrs[i].attr;
	}
	return NULL;
}

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool
is_word(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

static bool
attr_int(const sl_attr *a, int64_t *v)
{
	if (!a || a->kind != SL_ATTR_INT || a->u.i.big)
		return false;
	*v = a->u.i.v;
	return true;
}

/*
 * The keyword of an enum attribute such as #stablehlo<precision DEFAULT>:
 * typed, or the last word of text the reader kept opaque.
 */
static bool
enum_word(const sl_context *ctx, const sl_attr *a, const char **p, size_t *n)
{
	sl_sym kw = sli_attr_enum_keyword(a);
	if (kw) {
		*p = sl_sym_str(ctx, kw);
		*n = sli_sym_len(ctx, kw);
		return true;
	}
	if (!a || a->kind != SL_ATTR_OPAQUE)
		return false;
	const char *s = a->u.text.p, *e = s + a->u.text.n;
	while (e > s && (e[-1] == ' ' || e[-1] == '>'))
		e--;
	const char *w = e;
	while (w > s && is_word(w[-1]))
		w--;
	if (w == e || w == s || (w[-1] != ' ' && w[-1] != '<'))
		return false;
	*p = w;
	*n = (size_t)(e - w);
	return true;
}

/* The body of an opaque #dialect.mnemonic<body> attribute. */
static bool
opaque_body(const sl_attr *a, const char *prefix, const char **p, const char **e)
{
	size_t k = strlen(prefix);
	if (!a || a->kind != SL_ATTR_OPAQUE || a->u.text.n < k + 1 ||
	    memcmp(a->u.text.p, prefix, k) != 0)
		return false;
	const char *s = a->u.text.p + k, *end = a->u.text.p + a->u.text.n;
	while (end > s && end[-1] == ' ')
		end--;
	if (s >= end || *s != '<' || end[-1] != '>')
		return false;
	*p = s + 1;
	*e = end - 1;
	return true;
}

/* }====================================================================== */

/* {====== parsing helpers ================================================= */

static sl_attr *
new_opaque(sli_parser *P, const char *s, size_t n, sl_loc loc)
{
	sl_attr *a = sli_attr_new(P->m, SL_ATTR_OPAQUE);
	a->u.text.p = sli_arena_strndup(&P->m->arena, s, n);
	a->u.text.n = n;
	a->loc = loc;
	return a;
}

static sl_attr *
new_i64_array(sli_parser *P, const int64_t *v, size_t n, sl_loc loc)
{
	/* shared by every op with the same list (sli_attr_share) */
	sl_attr a;
	memset(&a, 0, sizeof a);
	a.kind = SL_ATTR_DENSE_ARRAY;
	a.u.darr.elem = sli_type_elem(P->ctx, "i64", 3);
	a.u.darr.n = (uint32_t)n;
	a.u.darr.v = (int64_t *)sli_module_share(P->m, v, sizeof *v * n);
	a.loc = loc;
	return sli_attr_share(P->m, &a);
}

static sl_attr *
new_bool_array(sli_parser *P, const int64_t *v, size_t n, sl_loc loc)
{
	sl_attr *a = new_i64_array(P, v, n, loc);
	sli_buf b;
	sli_buf_init(&b);
	for (size_t i = 0; i < n; i++)
		sli_buf_puts(&b, i ? (v[i] ? ", true" : ", false") : (v[i] ? "true" : "false"));
	a->u.darr.elem = sli_type_elem(P->ctx, "i1", 2);
	a->u.darr.text = sl_sym_intern(P->ctx, b.p ? b.p : "", b.n);
	sli_buf_fini(&b);
	return a;
}

static sl_attr *
new_int(sli_parser *P, int64_t v, const char *type, sl_loc loc)
{
	sl_attr *a = sli_attr_int(P->m, v, sli_type_elem(P->ctx, type, strlen(type)));
	a->loc = loc;
	return a;
}

static void
add_prop(sli_parser *P, sli_opstate *st, const char *name, sl_attr *a)
{
	sl_named_attr na = {sli_p_sym(P, name), a};
	SL_VEC_PUSH(st->props, na);
}

/* The current keyword token as the value #stablehlo<mnemonic KEYWORD>,
 * read as the generic form would read it. */
static sl_attr *
new_enum(sli_parser *P, const char *mnemonic)
{
	sli_buf b;
	sli_buf_init(&b);
	sli_buf_printf(&b, "#stablehlo<%s %.*s>", mnemonic, (int)P->tok.n, P->tok.p);
	sl_attr *a = sli_stablehlo_attr_from_text(P->m, b.p, b.n, sli_p_loc(P));
	if (!a)
		a = new_opaque(P, b.p, b.n, sli_p_loc(P));
	sli_buf_fini(&b);
	return a;
}

/* An enum keyword, stored as #stablehlo<mnemonic KEYWORD>. */
static int
p_enum(sli_parser *P, sli_opstate *st, const char *prop, const char *mnemonic)
{
	if (!sli_p_is(P, SL_TOK_IDENT))
		return sli_p_error(P, "expected %s keyword", mnemonic);
	add_prop(P, st, prop, new_enum(P, mnemonic));
	sli_p_next(P);
	return 0;
}

/* `kw = [1, 2]` into an array<i64: ...> prop. */
static int
p_kw_array(sli_parser *P, sli_opstate *st, const char *kw, const char *prop)
{
	int64_t *v;
	uint32_t n;
	if (sli_p_expect_kw(P, kw) || sli_p_expect(P, SL_TOK_EQUAL, "'='"))
		return -1;
	sl_loc loc = sli_p_loc(P);
	if (sli_p_int_list(P, &v, &n))
		return -1;
	add_prop(P, st, prop, new_i64_array(P, v, n, loc));
	return 0;
}

/* `kw = N` into an integer prop of the given type. */
static int
p_kw_int(sli_parser *P, sli_opstate *st, const char *kw, const char *prop, const char *type)
{
	int64_t v;
	if (sli_p_expect_kw(P, kw) || sli_p_expect(P, SL_TOK_EQUAL, "'='"))
		return -1;
	sl_loc loc = sli_p_loc(P);
	if (sli_p_int(P, &v))
		return -1;
	add_prop(P, st, prop, new_int(P, v, type, loc));
	return 0;
}

static int
p_operand(sli_parser *P, sli_opstate *st)
{
	sl_value *v;
	if (sli_p_operand(P, &v))
		return -1;
	SL_VEC_PUSH(st->operands, v);
	return 0;
}

/* `%a, %b,` : operands each followed by a comma (VariadicOperandWithAttribute). */
static int
p_operands_with_commas(sli_parser *P, sli_opstate *st)
{
	while (sli_p_is(P, SL_TOK_PERCENT))
		if (p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','"))
			return -1;
	return 0;
}

/* The optional attr-dict: inherent names become props, others attrs. */
static int
p_attr_dict(sli_parser *P, sli_opstate *st)
{
	sli_namedvec v = {0};
	int r = sli_p_optional_attr_dict(P, &v);
	if (r < 0) {
		SL_VEC_FREE(v);
		return -1;
	}
	const shlo_props *pp = props_of(st->kind);
	for (size_t i = 0; i < v.n; i++) {
		sl_sym s = v.v[i].name;
		if (pp && name_in(pp->inherent, sl_sym_str(P->ctx, s), sli_sym_len(P->ctx, s)))
			SL_VEC_PUSH(st->props, v.v[i]);
		else
			SL_VEC_PUSH(st->attrs, v.v[i]);
	}
	SL_VEC_FREE(v);
	return 0;
}

static const char *
type_text(const sli_parser *P, const sl_type *t)
{
	return sl_sym_str(P->ctx, t->text);
}

/* Checks the written operand types against the operands' own types. */
static int
set_operand_types(sli_parser *P, sli_opstate *st, sl_type *const *ins, size_t nin, sl_loc loc)
{
	if (nin != st->operands.n)
		return sli_p_error_at(P, loc, "%zu operands present, but expected %zu",
		                      st->operands.n, nin);
	for (size_t i = 0; i < nin; i++) {
		sl_type *have = st->operands.v[i]->type;
		if (have && have != ins[i])
			return sli_p_error_at(P, loc, "use of value expects different type than "
			                      "prior uses: '%s' vs '%s'",
			                      type_text(P, ins[i]), type_text(P, have));
	}
	return 0;
}

static void
push_results(sli_opstate *st, sl_type *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		SL_VEC_PUSH(st->result_types, v[i]);
}

/* (t1, t2) -> t3 after the ':' */
static int
p_fn_type(sli_parser *P, sli_opstate *st)
{
	sl_type *fn;
	sl_loc loc = sli_p_loc(P);
	int r = sli_p_fn_type(P, &fn);
	if (r == 0)
		r = set_operand_types(P, st, fn->types, fn->rank, loc);
	if (r == 0)
		push_results(st, fn->types + fn->rank, fn->nres);
	return r;
}

/* `: (t1, t2) -> t3` */
static int
p_functional(sli_parser *P, sli_opstate *st)
{
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	return p_fn_type(P, st);
}

/* `: t` (every operand and the result have type t) or `: (..) -> t`. */
static int
p_same_type(sli_parser *P, sli_opstate *st)
{
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	sl_loc loc = sli_p_loc(P);
	if (sli_p_is(P, SL_TOK_LPAREN)) {
		sl_type *fn;
		int r = sli_p_fn_type(P, &fn);
		if (r == 0 && fn->nres != 1)
			r = sli_p_error_at(P, loc, "expected single output");
		if (r == 0)
			r = set_operand_types(P, st, fn->types, fn->rank, loc);
		if (r == 0)
			push_results(st, fn->types + fn->rank, fn->nres);
		return r;
	}
	sl_type *t;
	if (sli_p_type(P, &t))
		return -1;
	for (size_t i = 0; i < st->operands.n; i++)
		if (st->operands.v[i]->type && st->operands.v[i]->type != t)
			return sli_p_error_at(P, loc, "use of value expects different type than "
			                      "prior uses: '%s' vs '%s'",
			                      type_text(P, t), type_text(P, st->operands.v[i]->type));
	SL_VEC_PUSH(st->result_types, t);
	return 0;
}

/* `: t1, t2` giving the operand types and (when results) the result types. */
static int
p_pairwise_types(sli_parser *P, sli_opstate *st, bool results)
{
	sli_typevec v = {0};
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	sl_loc loc = sli_p_loc(P);
	int r = sli_p_type_list(P, &v);
	if (r == 0)
		r = set_operand_types(P, st, v.v, v.n, loc);
	if (r == 0 && results)
		push_results(st, v.v, v.n);
	SL_VEC_FREE(v);
	return r;
}

/* A symbol name token @name or @"name", decoded into the module arena. */
static int
p_symbol_name(sli_parser *P, const char **s, size_t *n)
{
	if (!sli_p_is(P, SL_TOK_AT))
		return sli_p_error(P, "expected symbol name");
	const char *p = P->tok.p + 1;
	size_t len = P->tok.n - 1;
	if (len >= 2 && p[0] == '"') {
		/* the escapes of MLIR strings: \\ \" \n \t and \XX in hex */
		char *out = sli_arena_alloc(&P->m->arena, len);
		size_t k = 0;
		for (size_t i = 1; i + 1 < len; i++) {
			char c = p[i];
			if (c == '\\' && i + 2 < len) {
				c = p[++i];
				if (c == 'n')
					c = '\n';
				else if (c == 't')
					c = '\t';
				else if (c != '"' && c != '\\' && i + 2 < len) {
					char h[3] = {c, p[++i], 0};
					c = (char)strtol(h, NULL, 16);
				}
			}
			out[k++] = c;
		}
		*s = out;
		*n = k;
	} else {
		*s = sli_arena_strndup(&P->m->arena, p, len);
		*n = len;
	}
	sli_p_next(P);
	return 0;
}

/*
 * Scans a balanced <...> from the current token (which must be '<') as raw
 * text, then resumes lexing after it.
 */
static int
p_raw_angle(sli_parser *P, const char **s, size_t *n)
{
	if (!sli_p_is(P, SL_TOK_LESS))
		return sli_p_error(P, "expected '<'");
	const char *p = P->tok.p, *e = P->lx.end;
	uint32_t line = P->tok.line;
	const char *line_start = P->tok.p - (P->tok.col - 1);
	int depth = 0;
	const char *q = p;
	for (; q < e; q++) {
		char c = *q;
		if (c == '\n') {
			line++;
			line_start = q + 1;
		} else if (c == '"') {
			for (q++; q < e && *q != '"' && *q != '\n'; q++)
				if (*q == '\\' && q + 1 < e)
					q++;
		} else if (c == '<') {
			depth++;
		} else if (c == '>' && !(q > p && q[-1] == '-')) {
			if (--depth == 0)
				break;
		}
	}
	if (q >= e)
		return sli_p_error(P, "unbalanced '<' in attribute");
	*s = p;
	*n = (size_t)(q + 1 - p);
	sli_lex_reset(&P->lx, q + 1, line, line_start);
	sli_p_next(P);
	return 0;
}

/* }====================================================================== */

/* {====== printing helpers ================================================ */

static void
pr_i64s(sli_printer *pr, const int64_t *v, size_t n)
{
	sli_pr_putc(pr, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sli_pr_puts(pr, ", ");
		sli_pr_i64(pr, v[i]);
	}
	sli_pr_putc(pr, ']');
}

/* [1, 2] of an array-like prop (or [] when it is missing or malformed). */
static void
pr_array_prop(sli_printer *pr, const sl_op *op, const char *name)
{
	i64vec v = {0};
	sli_attr_ints(pr->ctx, get(pr->ctx, op, name), &v);
	pr_i64s(pr, v.v, v.n);
	SL_VEC_FREE(v);
}

static void
pr_enum_prop(sli_printer *pr, const sl_op *op, const char *name)
{
	const char *w;
	size_t n;
	sli_pr_putc(pr, ' ');
	if (enum_word(pr->ctx, get(pr->ctx, op, name), &w, &n))
		sli_pr_put(pr, w, n);
}

static void
pr_int_prop(sli_printer *pr, const sl_op *op, const char *name)
{
	int64_t v = 0;
	attr_int(get(pr->ctx, op, name), &v);
	sli_pr_i64(pr, v);
}

/* The attr-dict without the op's consumed names, default values, and
 * the extra names given. */
static void
pr_attrs(sli_printer *pr, const sl_op *op, const char *extra)
{
	sl_sym elide[24];
	int n = 0;
	sl_context *ctx = pr->m->ctx;
	const shlo_props *pp = props_of(op->kind);
	for (const char *const *s = pp ? pp->consumed : NULL; s && *s && n < 20; s++)
		elide[n++] = sl_sym_intern(ctx, *s, strlen(*s));
	if (extra)
		elide[n++] = sl_sym_intern(ctx, extra, strlen(extra));
	/* inherent attributes equal to their default value are not printed */
	const sl_attr *a;
	int64_t v;
	if (op->kind == SL_OP_CUSTOM_CALL) {
		a = get(pr->ctx, op, "has_side_effect");
		if (a && a->kind == SL_ATTR_BOOL && !a->u.b)
			elide[n++] = sl_sym_intern(ctx, "has_side_effect", 15);
		if (attr_int(get(pr->ctx, op, "api_version"), &v) && v == 1)
			elide[n++] = sl_sym_intern(ctx, "api_version", 11);
		a = get(pr->ctx, op, "called_computations");
		if (a && a->kind == SL_ATTR_ARRAY && a->u.arr.n == 0)
			elide[n++] = sl_sym_intern(ctx, "called_computations", 19);
		a = get(pr->ctx, op, "output_operand_aliases");
		if (a && a->kind == SL_ATTR_ARRAY && a->u.arr.n == 0)
			elide[n++] = sl_sym_intern(ctx, "output_operand_aliases", 22);
	} else if (op->kind == SL_OP_COMPOSITE) {
		if (attr_int(get(pr->ctx, op, "version"), &v) && v == 0)
			elide[n++] = sl_sym_intern(ctx, "version", 7);
	}
	elide[n] = 0;
	sli_pr_attr_dict(pr, op, elide);
}

static void
pr_functional(sli_printer *pr, const sl_op *op)
{
	sli_pr_puts(pr, " : ");
	sli_pr_functional_type(pr, op);
}

/* SameOperandsAndResultType: `t` when every type is the result's. */
static void
pr_same_type(sli_printer *pr, const sl_op *op)
{
	bool same = op->nresults == 1;
	for (uint32_t i = 0; same && i < op->noperands; i++)
		same = op->operands[i]->type == op->results[0].type;
	if (same) {
		sli_pr_puts(pr, " : ");
		sli_pr_type(pr, op->results[0].type);
	} else {
		pr_functional(pr, op);
	}
}

static void
pr_operand(sli_printer *pr, const sl_op *op, uint32_t i)
{
	if (i < op->noperands)
		sli_pr_value(pr, op->operands[i]);
}

/* }====================================================================== */

/* {====== SAME: operands attr-dict : SameOperandsAndResultType ============= */

/* exponent/mantissa keyword e<exp>m<man> */
static int
p_exp_mantissa(sli_parser *P, sli_opstate *st)
{
	sl_loc loc = sli_p_loc(P);
	const char *s = P->tok.p, *e = s + P->tok.n, *q;
	int64_t ex = 0, ma = 0;
	if (!sli_p_is(P, SL_TOK_IDENT) || s[0] != 'e')
		goto bad;
	for (q = s + 1; q < e && is_digit(*q) && ex < 100000; q++)
		ex = ex * 10 + (*q - '0');
	if (q == s + 1 || q >= e || *q != 'm')
		goto bad;
	s = ++q;
	for (; q < e && is_digit(*q) && ma < 100000; q++)
		ma = ma * 10 + (*q - '0');
	if (q == s || q != e)
		goto bad;
	add_prop(P, st, "exponent_bits", new_int(P, ex, "i32", loc));
	add_prop(P, st, "mantissa_bits", new_int(P, ma, "i32", loc));
	sli_p_next(P);
	return 0;
bad:
	return sli_p_error(P, "expected exponent mantissa in format e#m#, saw %.*s",
	                   (int)P->tok.n, P->tok.p);
}

/*
 * same = operand-list attr-dict ':' (type | function-type)
 *      | %x ',' 'dims' '=' [..] ...           (reverse)
 *      | %x ',' 'format' '=' e#m# ...         (reduce_precision)
 */
int
sli_parse_fmt_SAME(sli_parser *P, sli_opstate *st)
{
	if (st->kind == SL_OP_REVERSE || st->kind == SL_OP_REDUCE_PRECISION) {
		if (p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','"))
			return -1;
		if (st->kind == SL_OP_REVERSE) {
			if (p_kw_array(P, st, "dims", "dimensions"))
				return -1;
		} else if (sli_p_expect_kw(P, "format") || sli_p_expect(P, SL_TOK_EQUAL, "'='") ||
		           p_exp_mantissa(P, st)) {
			return -1;
		}
	} else if (sli_p_operand_list(P, st)) {
		return -1;
	}
	if (p_attr_dict(P, st))
		return -1;
	return p_same_type(P, st);
}

void
sli_print_fmt_SAME(sli_printer *pr, const sl_op *op)
{
	if (op->noperands)
		sli_pr_putc(pr, ' ');
	if (op->kind == SL_OP_REVERSE) {
		pr_operand(pr, op, 0);
		sli_pr_puts(pr, ", dims = ");
		pr_array_prop(pr, op, "dimensions");
	} else if (op->kind == SL_OP_REDUCE_PRECISION) {
		pr_operand(pr, op, 0);
		sli_pr_puts(pr, ", format = e");
		pr_int_prop(pr, op, "exponent_bits");
		sli_pr_putc(pr, 'm');
		pr_int_prop(pr, op, "mantissa_bits");
	} else {
		sli_pr_operands(pr, op, 0, op->noperands);
	}
	pr_attrs(pr, op, NULL);
	if (op->kind == SL_OP_IS_FINITE)
		pr_functional(pr, op);
	else
		pr_same_type(pr, op);
}

/* }====================================================================== */

/* {====== TYPES: return and optimization_barrier =========================== */

/*
 * return  = operand-list attr-dict (':' type-list)?
 * barrier = attr-dict (operand-list ':' type-list | '(' ')')
 */
int
sli_parse_fmt_TYPES(sli_parser *P, sli_opstate *st)
{
	if (st->kind == SL_OP_OPTIMIZATION_BARRIER) {
		if (p_attr_dict(P, st))
			return -1;
		if (sli_p_accept(P, SL_TOK_LPAREN))
			return sli_p_expect(P, SL_TOK_RPAREN, "')'");
		if (sli_p_operand_list(P, st))
			return -1;
		if (st->operands.n == 0)
			return sli_p_error(P, "expected operand or '('");
		return p_pairwise_types(P, st, true);
	}
	if (sli_p_operand_list(P, st) || p_attr_dict(P, st))
		return -1;
	if (st->operands.n == 0 && !sli_p_is(P, SL_TOK_COLON))
		return 0;
	return p_pairwise_types(P, st, false);
}

void
sli_print_fmt_TYPES(sli_printer *pr, const sl_op *op)
{
	if (op->kind == SL_OP_OPTIMIZATION_BARRIER) {
		pr_attrs(pr, op, NULL);
		if (!op->noperands) {
			sli_pr_puts(pr, "()");
			return;
		}
		sli_pr_putc(pr, ' ');
		sli_pr_operands(pr, op, 0, op->noperands);
	} else {
		if (op->noperands)
			sli_pr_putc(pr, ' ');
		sli_pr_operands(pr, op, 0, op->noperands);
		pr_attrs(pr, op, NULL);
		if (!op->noperands)
			return;
	}
	sli_pr_puts(pr, " : ");
	sli_pr_operand_types(pr, op);
}

/* }====================================================================== */

/* {====== COMPLEX and SELECT ================================================ */

/* The real part's element type of complex<T>: the text T, or NULL. */
static const char *
complex_part(const sl_context *ctx, const sl_type *t, size_t *n)
{
	if (!t || t->kind != SL_TYPE_TENSOR || !t->elem)
		return NULL;
	const char *s = sl_sym_str(ctx, t->elem->text);
	size_t len = sli_sym_len(ctx, t->elem->text);
	if (len < 10 || memcmp(s, "complex<", 8) != 0 || s[len - 1] != '>')
		return NULL;
	*n = len - 9;
	return s + 8;
}

/* Is `part` the tensor type of `whole` with its complex element made real? */
static bool
is_real_of(const sl_context *ctx, const sl_type *part, const sl_type *whole)
{
	size_t n;
	const char *s = complex_part(ctx, whole, &n);
	if (!s || !part || part->kind != SL_TYPE_TENSOR || !part->elem)
		return false;
	if (part->unranked != whole->unranked || part->rank != whole->rank ||
	    part->enc != whole->enc)
		return false;
	for (uint32_t i = 0; i < part->rank; i++)
		if (part->dims[i] != whole->dims[i])
			return false;
	return sli_sym_len(ctx, part->elem->text) == n &&
	       memcmp(sl_sym_str(ctx, part->elem->text), s, n) == 0;
}

/* complex = %lhs ',' %rhs attr-dict ':' (complex-tensor-type | function-type) */
int
sli_parse_fmt_COMPLEX(sli_parser *P, sli_opstate *st)
{
	if (sli_p_operand_list(P, st) || p_attr_dict(P, st))
		return -1;
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	if (sli_p_is(P, SL_TOK_LPAREN))
		return p_fn_type(P, st);
	sl_loc loc = sli_p_loc(P);
	sl_type *t;
	if (sli_p_type(P, &t))
		return -1;
	size_t n;
	const char *s = complex_part(P->ctx, t, &n);
	if (!s)
		return sli_p_error_at(P, loc, "expected tensor with complex element type");
	sl_type *real = sli_type_tensor(P->ctx, t->rank, t->dims, sli_type_elem(P->ctx, s, n),
	                                t->enc, t->unranked);
	sl_type *ins[2] = {real, real};
	if (set_operand_types(P, st, ins, 2, loc))
		return -1;
	SL_VEC_PUSH(st->result_types, t);
	return 0;
}

void
sli_print_fmt_COMPLEX(sli_printer *pr, const sl_op *op)
{
	sli_pr_putc(pr, ' ');
	sli_pr_operands(pr, op, 0, op->noperands);
	pr_attrs(pr, op, NULL);
	const sl_type *r = op->nresults ? op->results[0].type : NULL;
	if (op->noperands == 2 && is_real_of(pr->ctx, op->operands[0]->type, r) &&
	    is_real_of(pr->ctx, op->operands[1]->type, r)) {
		sli_pr_puts(pr, " : ");
		sli_pr_type(pr, r);
	} else {
		pr_functional(pr, op);
	}
}

/* select = %pred ',' %t ',' %f attr-dict ':' (pred-type ',' type | function-type) */
int
sli_parse_fmt_SELECT(sli_parser *P, sli_opstate *st)
{
	if (sli_p_operand_list(P, st) || p_attr_dict(P, st))
		return -1;
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	sl_loc loc = sli_p_loc(P);
	if (sli_p_is(P, SL_TOK_LPAREN)) {
		sl_type *fn;
		int r = sli_p_fn_type(P, &fn);
		if (r == 0 && fn->nres != 1)
			r = sli_p_error_at(P, loc, "expected single output");
		if (r == 0)
			r = set_operand_types(P, st, fn->types, fn->rank, loc);
		if (r == 0)
			push_results(st, fn->types + fn->rank, fn->nres);
		return r;
	}
	sli_typevec v = {0};
	int r = sli_p_type_list(P, &v);
	if (r == 0 && v.n != 2)
		r = sli_p_error_at(P, loc, "expected functional type or list of two types");
	if (r == 0) {
		sl_type *ins[3] = {v.v[0], v.v[1], v.v[1]};
		r = set_operand_types(P, st, ins, 3, loc);
		if (r == 0)
			SL_VEC_PUSH(st->result_types, v.v[1]);
	}
	SL_VEC_FREE(v);
	return r;
}

void
sli_print_fmt_SELECT(sli_printer *pr, const sl_op *op)
{
	sli_pr_putc(pr, ' ');
	sli_pr_operands(pr, op, 0, op->noperands);
	pr_attrs(pr, op, NULL);
	const sl_type *r = op->results[0].type;
	if (op->noperands == 3 && op->operands[1]->type == r && op->operands[2]->type == r) {
		sli_pr_puts(pr, " : ");
		sli_pr_type(pr, op->operands[0]->type);
		sli_pr_puts(pr, ", ");
		sli_pr_type(pr, r);
	} else {
		pr_functional(pr, op);
	}
}

/* }====================================================================== */

/* {====== FUNCTIONAL: operands, keyword = value, ... : function-type ========= */

/* precision = [DEFAULT, HIGH] into precision_config */
static int
p_precision(sli_parser *P, sli_opstate *st)
{
	SL_VEC(sl_attr *) v = {0};
	sl_loc loc = sli_p_loc(P);
	if (sli_p_expect(P, SL_TOK_EQUAL, "'='") || sli_p_expect(P, SL_TOK_LSQUARE, "'['"))
		return -1;
	while (!sli_p_is(P, SL_TOK_RSQUARE)) {
		if (!sli_p_is(P, SL_TOK_IDENT)) {
			SL_VEC_FREE(v);
			return sli_p_error(P, "expected precision keyword");
		}
		SL_VEC_PUSH(v, new_enum(P, "precision"));
		sli_p_next(P);
		if (!sli_p_accept(P, SL_TOK_COMMA))
			break;
	}
	if (sli_p_expect(P, SL_TOK_RSQUARE, "']'")) {
		SL_VEC_FREE(v);
		return -1;
	}
	sl_attr *a = sli_attr_new(P->m, SL_ATTR_ARRAY);
	a->loc = loc;
	a->u.arr.n = (uint32_t)v.n;
	a->u.arr.v = v.n ? sli_arena_dup(&P->m->arena, v.v, sizeof *v.v * v.n) : NULL;
	SL_VEC_FREE(v);
	add_prop(P, st, "precision_config", a);
	return 0;
}

/* (',' 'precision' '=' [...])? (',' 'algorithm' '=' <...>)? */
static int
p_precision_algorithm(sli_parser *P, sli_opstate *st, bool algorithm)
{
	if (!sli_p_is(P, SL_TOK_COMMA))
		return 0;
	sli_p_next(P);
	if (sli_p_accept_kw(P, "precision")) {
		if (p_precision(P, st))
			return -1;
		if (!algorithm || !sli_p_accept(P, SL_TOK_COMMA))
			return 0;
	}
	if (!algorithm)
		return sli_p_error(P, "expected 'precision'");
	if (sli_p_expect_kw(P, "algorithm") || sli_p_expect(P, SL_TOK_EQUAL, "'='"))
		return -1;
	sl_loc loc = sli_p_loc(P);
	const char *s = NULL;
	size_t n = 0;
	if (p_raw_angle(P, &s, &n))
		return -1;
	sli_buf b;
	sli_buf_init(&b);
	sli_buf_puts(&b, "#stablehlo.dot_algorithm");
	sli_buf_put(&b, s, n);
	add_prop(P, st, "algorithm", new_opaque(P, b.p, b.n, loc));
	sli_buf_fini(&b);
	return 0;
}

/* [a, b] x [c, d] */
static int
p_lhs_rhs(sli_parser *P, int64_t **l, uint32_t *ln, int64_t **r, uint32_t *rn)
{
	if (sli_p_expect(P, SL_TOK_EQUAL, "'='") || sli_p_int_list(P, l, ln) ||
	    sli_p_expect_kw(P, "x") || sli_p_int_list(P, r, rn))
		return -1;
	return 0;
}

/* (batching_dims = [..] x [..] ',')? contracting_dims = [..] x [..] */
static int
p_dot_dims(sli_parser *P, sli_opstate *st)
{
	sl_dot_dims d;
	memset(&d, 0, sizeof d);
	sl_dim_list *l = d.lists;
	sl_loc loc = sli_p_loc(P);
	if (sli_p_accept_kw(P, "batching_dims")) {
		if (p_lhs_rhs(P, &l[SL_DOT_LHS_BATCH].v, &l[SL_DOT_LHS_BATCH].n,
		              &l[SL_DOT_RHS_BATCH].v, &l[SL_DOT_RHS_BATCH].n) ||
		    sli_p_expect(P, SL_TOK_COMMA, "','"))
			return -1;
	}
	if (sli_p_expect_kw(P, "contracting_dims") ||
	    p_lhs_rhs(P, &l[SL_DOT_LHS_CONTRACT].v, &l[SL_DOT_LHS_CONTRACT].n,
	              &l[SL_DOT_RHS_CONTRACT].v, &l[SL_DOT_RHS_CONTRACT].n))
		return -1;
	add_prop(P, st, "dot_dimension_numbers", sli_attr_dot_dims(P->m, &d, loc));
	return 0;
}

/* [start:limit(:stride)?, ...] */
static int
p_slice_ranges(sli_parser *P, sli_opstate *st)
{
	i64vec v[3] = {{0}, {0}, {0}};
	sl_loc loc = sli_p_loc(P);
	int r = sli_p_expect(P, SL_TOK_LSQUARE, "'['");
	while (r == 0 && !sli_p_is(P, SL_TOK_RSQUARE)) {
		int64_t a, b, c = 1;
		r = sli_p_int(P, &a);
		if (r == 0)
			r = sli_p_expect(P, SL_TOK_COLON, "':'");
		if (r == 0)
			r = sli_p_int(P, &b);
		if (r == 0 && sli_p_accept(P, SL_TOK_COLON))
			r = sli_p_int(P, &c);
		if (r)
			break;
		SL_VEC_PUSH(v[0], a);
		SL_VEC_PUSH(v[1], b);
		SL_VEC_PUSH(v[2], c);
		if (!sli_p_accept(P, SL_TOK_COMMA))
			break;
	}
	if (r == 0)
		r = sli_p_expect(P, SL_TOK_RSQUARE, "']'");
	if (r == 0) {
		add_prop(P, st, "start_indices", new_i64_array(P, v[0].v, v[0].n, loc));
		add_prop(P, st, "limit_indices", new_i64_array(P, v[1].v, v[1].n, loc));
		add_prop(P, st, "strides", new_i64_array(P, v[2].v, v[2].n, loc));
	}
	for (int k = 0; k < 3; k++)
		SL_VEC_FREE(v[k]);
	return r;
}

/*
 * functional = %x ',' 'dims' '=' [..]                  (broadcast_in_dim,
 *              transpose; dynamic_broadcast_in_dim takes two operands)
 *            | %x ',' %i ',' ... 'sizes' '=' [..]      (dynamic_slice)
 *            | %a ',' ... 'dim' '=' N                  (concatenate)
 *            | %x ',' 'dim' '=' N                      (get_dimension_size,
 *                                                       dynamic_iota)
 *            | %x ',' %v ',' 'low' '=' [..] ',' 'high' '=' [..] ','
 *              'interior' '=' [..]                     (pad)
 *            | %x (',' 'lower' '=' bool)?              (cholesky)
 *            | %x ',' 'type' '=' KW ',' 'length' '=' [..]   (fft)
 *            | %x ',' 'algorithm' '=' KW               (rng_bit_generator)
 *            | %a ',' %b ',' %s ',' 'distribution' '=' KW   (rng)
 *            | %a ',' %b precision?                    (dot)
 *            | %a ',' %b ',' dot-dims precision? algorithm?  (dot_general)
 *            | KW ',' %a ',' %b (',' KW)?              (compare)
 *            | %x '[' ranges ']'                       (slice)
 *            | %t '[' N ']'                            (get_tuple_element)
 *            | operand-list                            (the rest)
 *   followed by attr-dict ':' function-type
 */
int
sli_parse_fmt_FUNCTIONAL(sli_parser *P, sli_opstate *st)
{
	int r = 0;
	switch (st->kind) {
	case SL_OP_BROADCAST_IN_DIM:
	case SL_OP_TRANSPOSE:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_kw_array(P, st, "dims", st->kind == SL_OP_TRANSPOSE ?
		               "permutation" : "broadcast_dimensions");
		break;
	case SL_OP_DYNAMIC_BROADCAST_IN_DIM:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_kw_array(P, st, "dims", "broadcast_dimensions");
		break;
	case SL_OP_DYNAMIC_SLICE:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_operands_with_commas(P, st) || p_kw_array(P, st, "sizes", "slice_sizes");
		break;
	case SL_OP_CONCATENATE:
		r = p_operands_with_commas(P, st) || p_kw_int(P, st, "dim", "dimension", "i64");
		break;
	case SL_OP_GET_DIMENSION_SIZE:
	case SL_OP_DYNAMIC_IOTA:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_kw_int(P, st, "dim", st->kind == SL_OP_DYNAMIC_IOTA ?
		             "iota_dimension" : "dimension", "i64");
		break;
	case SL_OP_PAD:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_kw_array(P, st, "low", "edge_padding_low") ||
		    sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_kw_array(P, st, "high", "edge_padding_high") ||
		    sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_kw_array(P, st, "interior", "interior_padding");
		break;
	case SL_OP_CHOLESKY:
		r = p_operand(P, st);
		if (r == 0 && sli_p_accept(P, SL_TOK_COMMA)) {
			sl_loc loc;
			r = sli_p_expect_kw(P, "lower") || sli_p_expect(P, SL_TOK_EQUAL, "'='");
			loc = sli_p_loc(P);
			if (r == 0 && (sli_p_is_kw(P, "true") || sli_p_is_kw(P, "false"))) {
				sl_attr *a = sli_attr_new(P->m, SL_ATTR_BOOL);
				a->u.b = sli_p_is_kw(P, "true");
				a->loc = loc;
				add_prop(P, st, "lower", a);
				sli_p_next(P);
			} else if (r == 0) {
				r = sli_p_error(P, "expected 'true' or 'false'");
			}
		}
		break;
	case SL_OP_FFT:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    sli_p_expect_kw(P, "type") || sli_p_expect(P, SL_TOK_EQUAL, "'='") ||
		    p_enum(P, st, "fft_type", "fft_type") || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_kw_array(P, st, "length", "fft_length");
		break;
	case SL_OP_RNG_BIT_GENERATOR:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    sli_p_expect_kw(P, "algorithm") || sli_p_expect(P, SL_TOK_EQUAL, "'='") ||
		    p_enum(P, st, "rng_algorithm", "rng_algorithm");
		break;
	case SL_OP_RNG:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    sli_p_expect_kw(P, "distribution") || sli_p_expect(P, SL_TOK_EQUAL, "'='") ||
		    p_enum(P, st, "rng_distribution", "rng_distribution");
		break;
	case SL_OP_DOT:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_operand(P, st) || p_precision_algorithm(P, st, false);
		break;
	case SL_OP_DOT_GENERAL:
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_operand(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','") ||
		    p_dot_dims(P, st) || p_precision_algorithm(P, st, true);
		break;
	case SL_OP_COMPARE:
		r = p_enum(P, st, "comparison_direction", "comparison_direction") ||
		    sli_p_expect(P, SL_TOK_COMMA, "','") || p_operand(P, st) ||
		    sli_p_expect(P, SL_TOK_COMMA, "','") || p_operand(P, st);
		if (r == 0 && sli_p_accept(P, SL_TOK_COMMA))
			r = p_enum(P, st, "compare_type", "comparison_type");
		break;
	case SL_OP_SLICE:
		r = p_operand(P, st) || p_slice_ranges(P, st);
		break;
	case SL_OP_GET_TUPLE_ELEMENT: {
		int64_t v;
		sl_loc loc;
		r = p_operand(P, st) || sli_p_expect(P, SL_TOK_LSQUARE, "'['");
		loc = sli_p_loc(P);
		if (r == 0)
			r = sli_p_int(P, &v) || sli_p_expect(P, SL_TOK_RSQUARE, "']'");
		if (r == 0)
			add_prop(P, st, "index", new_int(P, v, "i32", loc));
		break;
	}
	default:
		r = sli_p_operand_list(P, st);
		break;
	}
	if (r || p_attr_dict(P, st))
		return -1;
	if (st->kind == SL_OP_CHOLESKY)	/* SameOperandsAndResultType */
		return p_same_type(P, st);
	return p_functional(P, st);
}

static void
pr_precision(sli_printer *pr, const sl_op *op)
{
	const sl_attr *a = get(pr->ctx, op, "precision_config");
	if (!a || a->kind != SL_ATTR_ARRAY)
		return;
	sli_pr_puts(pr, ", precision = [");
	for (uint32_t i = 0; i < a->u.arr.n; i++) {
		const char *w;
		size_t n;
		if (i)
			sli_pr_puts(pr, ", ");
		if (enum_word(pr->ctx, a->u.arr.v[i], &w, &n))
			sli_pr_put(pr, w, n);
	}
	sli_pr_putc(pr, ']');
}

static void
pr_lhs_rhs(sli_printer *pr, const char *key, const sl_dim_list *l, const sl_dim_list *r)
{
	sli_pr_puts(pr, key);
	sli_pr_puts(pr, " = ");
	pr_i64s(pr, l->v, l->n);
	sli_pr_puts(pr, " x ");
	pr_i64s(pr, r->v, r->n);
}

/* Only called when sli_stablehlo_has_custom_form found the dimension numbers. */
static void
pr_dot_general(sli_printer *pr, const sl_op *op)
{
	const sl_dot_dims *d = sli_attr_get_dot_dims(get(pr->ctx, op, "dot_dimension_numbers"));
	const sl_dim_list *l = d->lists;
	sli_pr_puts(pr, ", ");
	if (l[SL_DOT_LHS_BATCH].n || l[SL_DOT_RHS_BATCH].n) {
		pr_lhs_rhs(pr, "batching_dims", &l[SL_DOT_LHS_BATCH], &l[SL_DOT_RHS_BATCH]);
		sli_pr_puts(pr, ", ");
	}
	pr_lhs_rhs(pr, "contracting_dims", &l[SL_DOT_LHS_CONTRACT], &l[SL_DOT_RHS_CONTRACT]);
	pr_precision(pr, op);
	const char *p, *e;
	if (opaque_body(get(pr->ctx, op, "algorithm"), "#stablehlo.dot_algorithm", &p, &e)) {
		sli_pr_puts(pr, ", algorithm = ");
		sli_pr_put(pr, p - 1, (size_t)(e + 1 - (p - 1)));
	}
}

static void
pr_slice(sli_printer *pr, const sl_op *op)
{
	i64vec v[3] = {{0}, {0}, {0}};
	static const char *const names[3] = {"start_indices", "limit_indices", "strides"};
	for (int k = 0; k < 3; k++)
		sli_attr_ints(pr->ctx, get(pr->ctx, op, names[k]), &v[k]);
	sli_pr_puts(pr, " [");
	for (size_t i = 0; i < v[0].n && i < v[1].n && i < v[2].n; i++) {
		if (i)
			sli_pr_puts(pr, ", ");
		sli_pr_i64(pr, v[0].v[i]);
		sli_pr_putc(pr, ':');
		sli_pr_i64(pr, v[1].v[i]);
		if (v[2].v[i] != 1) {
			sli_pr_putc(pr, ':');
			sli_pr_i64(pr, v[2].v[i]);
		}
	}
	sli_pr_putc(pr, ']');
	for (int k = 0; k < 3; k++)
		SL_VEC_FREE(v[k]);
}

/* %a, %b, : each operand of [from, noperands) followed by a comma. */
static void
pr_operands_with_commas(sli_printer *pr, const sl_op *op, uint32_t from)
{
	for (uint32_t i = from; i < op->noperands; i++) {
		sli_pr_value(pr, op->operands[i]);
		sli_pr_puts(pr, ", ");
	}
}

void
sli_print_fmt_FUNCTIONAL(sli_printer *pr, const sl_op *op)
{
	const sl_attr *a;
	sli_pr_putc(pr, ' ');
	switch (op->kind) {
	case SL_OP_BROADCAST_IN_DIM:
	case SL_OP_TRANSPOSE:
		pr_operand(pr, op, 0);
		sli_pr_puts(pr, ", dims = ");
		pr_array_prop(pr, op, op->kind == SL_OP_TRANSPOSE ?
		              "permutation" : "broadcast_dimensions");
		break;
	case SL_OP_DYNAMIC_BROADCAST_IN_DIM:
		sli_pr_operands(pr, op, 0, op->noperands);
		sli_pr_puts(pr, ", dims = ");
		pr_array_prop(pr, op, "broadcast_dimensions");
		break;
	case SL_OP_DYNAMIC_SLICE:
		pr_operands_with_commas(pr, op, 0);
		sli_pr_puts(pr, "sizes = ");
		pr_array_prop(pr, op, "slice_sizes");
		break;
	case SL_OP_CONCATENATE:
		pr_operands_with_commas(pr, op, 0);
		sli_pr_puts(pr, "dim = ");
		pr_int_prop(pr, op, "dimension");
		break;
	case SL_OP_GET_DIMENSION_SIZE:
	case SL_OP_DYNAMIC_IOTA:
		pr_operand(pr, op, 0);
		sli_pr_puts(pr, ", dim = ");
		pr_int_prop(pr, op, op->kind == SL_OP_DYNAMIC_IOTA ? "iota_dimension" : "dimension");
		break;
	case SL_OP_PAD:
		sli_pr_operands(pr, op, 0, op->noperands);
		sli_pr_puts(pr, ", low = ");
		pr_array_prop(pr, op, "edge_padding_low");
		sli_pr_puts(pr, ", high = ");
		pr_array_prop(pr, op, "edge_padding_high");
		sli_pr_puts(pr, ", interior = ");
		pr_array_prop(pr, op, "interior_padding");
		break;
	case SL_OP_CHOLESKY:
		pr_operand(pr, op, 0);
		a = get(pr->ctx, op, "lower");
		if (a && a->kind == SL_ATTR_BOOL && a->u.b)
			sli_pr_puts(pr, ", lower = true");
		break;
	case SL_OP_FFT:
		pr_operand(pr, op, 0);
		sli_pr_puts(pr, ", type = ");
		pr_enum_prop(pr, op, "fft_type");
		sli_pr_puts(pr, ", length = ");
		pr_array_prop(pr, op, "fft_length");
		break;
	case SL_OP_RNG_BIT_GENERATOR:
		pr_operand(pr, op, 0);
		sli_pr_puts(pr, ", algorithm = ");
		pr_enum_prop(pr, op, "rng_algorithm");
		break;
	case SL_OP_RNG:
		sli_pr_operands(pr, op, 0, op->noperands);
		sli_pr_puts(pr, ", distribution = ");
		pr_enum_prop(pr, op, "rng_distribution");
		break;
	case SL_OP_DOT:
		sli_pr_operands(pr, op, 0, op->noperands);
		pr_precision(pr, op);
		break;
	case SL_OP_DOT_GENERAL:
		sli_pr_operands(pr, op, 0, op->noperands);
		pr_dot_general(pr, op);
		break;
	case SL_OP_COMPARE:
		pr_enum_prop(pr, op, "comparison_direction");
		sli_pr_puts(pr, ", ");
		sli_pr_operands(pr, op, 0, op->noperands);
		if (get(pr->ctx, op, "compare_type")) {
			sli_pr_puts(pr, ", ");
			pr_enum_prop(pr, op, "compare_type");
		}
		break;
	case SL_OP_SLICE:
		pr_operand(pr, op, 0);
		pr_slice(pr, op);
		break;
	case SL_OP_GET_TUPLE_ELEMENT:
		pr_operand(pr, op, 0);
		sli_pr_putc(pr, '[');
		pr_int_prop(pr, op, "index");
		sli_pr_putc(pr, ']');
		break;
	default:
		sli_pr_operands(pr, op, 0, op->noperands);
		break;
	}
	pr_attrs(pr, op, NULL);
	if (op->kind == SL_OP_CHOLESKY)	/* SameOperandsAndResultType */
		pr_same_type(pr, op);
	else
		pr_functional(pr, op);
}

/* }====================================================================== */

/* {====== CONVOLUTION ========================================================= */

/* '[' (INT | '?' | letter) (',' ...)* ']' of dimension-number group g. */
static int
p_conv_group(sli_parser *P, int g, i64vec *out)
{
	if (sli_p_expect(P, SL_TOK_LSQUARE, "'['"))
		return -1;
	do {
		int64_t c;
		if (sli_p_is(P, SL_TOK_INT)) {
			int64_t v;
			if (sli_p_int(P, &v))
				return -1;
			SL_VEC_PUSH(*out, v);
		} else if (sli_p_accept(P, SL_TOK_QUESTION)) {
			SL_VEC_PUSH(*out, (int64_t)SL_CONV_UNKNOWN);
		} else if (sli_p_is(P, SL_TOK_IDENT) && P->tok.n == 1 &&
		           (c = sli_conv_letter_code(g, P->tok.p[0]))) {
			for (size_t i = 0; i < out->n; i++)
				if (out->v[i] == c)
					return sli_p_error(P, "duplicate dimension '%c'", P->tok.p[0]);
			SL_VEC_PUSH(*out, c);
			sli_p_next(P);
		} else {
			return sli_p_error(P, "expected dimension number, found '%.*s'",
			                   (int)P->tok.n, P->tok.p);
		}
	} while (sli_p_accept(P, SL_TOK_COMMA));
	if (sli_p_expect(P, SL_TOK_RSQUARE, "']'"))
		return -1;
	if (!sli_conv_group_ok(g, out->v, out->n))
		return sli_p_error(P, "expected dimensions %s not specified",
		                   g == SL_CONV_KERNEL ? "i, o" : "b, f");
	return 0;
}

/* conv-dims = group 'x' group '->' group */
static int
p_conv_dims(sli_parser *P, sli_opstate *st)
{
	i64vec v[SL_CONV_NGROUPS] = {{0}};
	sl_loc loc = sli_p_loc(P);
	int r = p_conv_group(P, SL_CONV_INPUT, &v[0]);
	if (r == 0)
		r = sli_p_expect_kw(P, "x");
	if (r == 0)
		r = p_conv_group(P, SL_CONV_KERNEL, &v[1]);
	if (r == 0)
		r = sli_p_expect(P, SL_TOK_ARROW, "'->'");
	if (r == 0)
		r = p_conv_group(P, SL_CONV_OUTPUT, &v[2]);
	if (r == 0) {
		sl_conv_dims c;
		memset(&c, 0, sizeof c);
		for (int g = 0; g < SL_CONV_NGROUPS; g++) {
			c.layout[g].v = v[g].v;
			c.layout[g].n = (uint32_t)v[g].n;
		}
		add_prop(P, st, "dimension_numbers", sli_attr_conv_dims(P->m, &c, loc));
	}
	for (int g = 0; g < SL_CONV_NGROUPS; g++)
		SL_VEC_FREE(v[g]);
	return r;
}

/* dense<[[a, b], ...]> : tensor<Nx2xi64> (a splat when all equal). */
static sl_attr *
new_padding(sli_parser *P, const i64vec *v, sl_loc loc)
{
	sli_buf b;
	sli_buf_init(&b);
	bool splat = v->n > 0;
	for (size_t i = 1; i < v->n; i++)
		splat = splat && v->v[i] == v->v[0];
	if (splat) {
		sli_buf_i64(&b, v->v[0]);
	} else if (v->n) {
		sli_buf_putc(&b, '[');
		for (size_t i = 0; i + 1 < v->n; i += 2)
			sli_buf_printf(&b, "%s[%lld, %lld]", i ? ", " : "",
			               (long long)v->v[i], (long long)v->v[i + 1]);
		sli_buf_putc(&b, ']');
	}
	int64_t dims[2] = {(int64_t)(v->n / 2), 2};
	sl_attr *a = sli_attr_new(P->m, SL_ATTR_DENSE);
	a->loc = loc;
	a->u.dense.n = b.n;
	a->u.dense.body = sli_arena_strndup(&P->m->arena, b.p ? b.p : "", b.n);
	a->u.dense.type = sli_type_tensor(P->ctx, 2, dims, sli_type_elem(P->ctx, "i64", 3), 0,
	                                  false);
	sli_buf_fini(&b);
	return a;
}

static const char *const window_keys[5] = {"stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"};
static const char *const window_props[5] = {
	"window_strides", "padding", "lhs_dilation", "rhs_dilation", "window_reversal",
};

/* '{' (key '=' array (',' key '=' array)*)? '}' */
static int
p_window(sli_parser *P, sli_opstate *st)
{
	bool seen[5] = {false};
	if (sli_p_expect(P, SL_TOK_LBRACE, "'{'"))
		return -1;
	while (sli_p_is(P, SL_TOK_IDENT)) {
		int k = 0;
		while (k < 5 && !text_is(P->tok.p, P->tok.n, window_keys[k]))
			k++;
		if (k == 5 || seen[k])
			return sli_p_error(P, "unexpected keyword %.*s", (int)P->tok.n, P->tok.p);
		seen[k] = true;
		sli_p_next(P);
		if (sli_p_expect(P, SL_TOK_EQUAL, "'='"))
			return -1;
		sl_loc loc = sli_p_loc(P);
		i64vec v = {0};
		int r = sli_p_expect(P, SL_TOK_LSQUARE, "'['");
		while (r == 0 && !sli_p_is(P, SL_TOK_RSQUARE)) {
			int64_t a, b;
			if (k == 1) {
				r = sli_p_expect(P, SL_TOK_LSQUARE, "'['") || sli_p_int(P, &a) ||
				    sli_p_expect(P, SL_TOK_COMMA, "','") || sli_p_int(P, &b) ||
				    sli_p_expect(P, SL_TOK_RSQUARE, "']'");
				if (r == 0) {
					SL_VEC_PUSH(v, a);
					SL_VEC_PUSH(v, b);
				}
			} else if (k == 4 && (sli_p_is_kw(P, "true") || sli_p_is_kw(P, "false"))) {
				SL_VEC_PUSH(v, sli_p_is_kw(P, "true"));
				sli_p_next(P);
			} else {
				r = sli_p_int(P, &a);
				if (r == 0 && k == 4 && a != 0 && a != 1)
					r = sli_p_error(P, "expected boolean");
				if (r == 0)
					SL_VEC_PUSH(v, a);
			}
			if (r || !sli_p_accept(P, SL_TOK_COMMA))
				break;
		}
		if (r == 0)
			r = sli_p_expect(P, SL_TOK_RSQUARE, "']'");
		if (r == 0) {
			sl_attr *a = k == 1 ? new_padding(P, &v, loc) :
			             k == 4 ? new_bool_array(P, v.v, v.n, loc) :
			             new_i64_array(P, v.v, v.n, loc);
			add_prop(P, st, window_props[k], a);
		}
		SL_VEC_FREE(v);
		if (r)
			return -1;
		if (!sli_p_accept(P, SL_TOK_COMMA))
			break;
	}
	return sli_p_expect(P, SL_TOK_RBRACE, "'}'");
}

/*
 * convolution = '(' operand-list ')' 'dim_numbers' '=' conv-dims ','
 *               'window' '=' '{' window-attrs '}' attr-dict ':' function-type
 */
int
sli_parse_fmt_CONVOLUTION(sli_parser *P, sli_opstate *st)
{
	if (sli_p_expect(P, SL_TOK_LPAREN, "'('") || sli_p_operand_list(P, st) ||
	    sli_p_expect(P, SL_TOK_RPAREN, "')'"))
		return -1;
	if (sli_p_expect_kw(P, "dim_numbers") || sli_p_expect(P, SL_TOK_EQUAL, "'='") ||
	    p_conv_dims(P, st) || sli_p_expect(P, SL_TOK_COMMA, "','"))
		return -1;
	if (sli_p_expect_kw(P, "window") || sli_p_expect(P, SL_TOK_EQUAL, "'='") || p_window(P, st))
		return -1;
	if (p_attr_dict(P, st))
		return -1;
	return p_functional(P, st);
}

void
sli_print_fmt_CONVOLUTION(sli_printer *pr, const sl_op *op)
{
	const sl_conv_dims *c = sli_attr_get_conv_dims(get(pr->ctx, op, "dimension_numbers"));
	sli_pr_putc(pr, '(');
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_puts(pr, ") dim_numbers = ");
	if (c && !c->raw)
		sli_print_conv_layout(pr->b, c);
	sli_pr_puts(pr, ", window = {");
	bool first = true;
	for (int k = 0; k < 5; k++) {
		const sl_attr *a = get(pr->ctx, op, window_props[k]);
		i64vec v = {0};
		if (!a || !sli_attr_ints(pr->ctx, a, &v)) {
			SL_VEC_FREE(v);
			continue;
		}
		if (!first)
			sli_pr_puts(pr, ", ");
		first = false;
		sli_pr_puts(pr, window_keys[k]);
		sli_pr_puts(pr, " = [");
		for (size_t i = 0; i < v.n; i++) {
			if (k == 1) {
				if (i % 2 == 1)
					continue;
				if (i)
					sli_pr_puts(pr, ", ");
				sli_pr_putc(pr, '[');
				sli_pr_i64(pr, v.v[i]);
				sli_pr_puts(pr, ", ");
				sli_pr_i64(pr, i + 1 < v.n ? v.v[i + 1] : 0);
				sli_pr_putc(pr, ']');
				continue;
			}
			if (i)
				sli_pr_puts(pr, ", ");
			if (k == 4)
				sli_pr_puts(pr, v.v[i] ? "true" : "false");
			else
				sli_pr_i64(pr, v.v[i]);
		}
		sli_pr_putc(pr, ']');
		SL_VEC_FREE(v);
	}
	sli_pr_putc(pr, '}');
	pr_attrs(pr, op, NULL);
	pr_functional(pr, op);
}

/* }====================================================================== */

/* {====== TUPLE, CONSTANT, IOTA ============================================== */

/* tuple = operand-list attr-dict ':' tuple-type */
int
sli_parse_fmt_TUPLE(sli_parser *P, sli_opstate *st)
{
	if (sli_p_operand_list(P, st) || p_attr_dict(P, st) ||
	    sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	sl_loc loc = sli_p_loc(P);
	sl_type *t;
	if (sli_p_type(P, &t))
		return -1;
	if (t->kind != SL_TYPE_TUPLE)
		return sli_p_error_at(P, loc, "expected tuple type");
	if (set_operand_types(P, st, t->types, t->rank, loc))
		return -1;
	SL_VEC_PUSH(st->result_types, t);
	return 0;
}

void
sli_print_fmt_TUPLE(sli_printer *pr, const sl_op *op)
{
	if (op->noperands)
		sli_pr_putc(pr, ' ');
	sli_pr_operands(pr, op, 0, op->noperands);
	pr_attrs(pr, op, NULL);
	sli_pr_puts(pr, " : ");
	sli_pr_result_types(pr, op);
}

/*
 * dense-resource = 'dense_resource' '<' handle '>' ':' type
 * The handle names a blob of the file's metadata, which the reader passes
 * over: the value is kept as its text, the type is the result's.
 */
static int
p_dense_resource(sli_parser *P, sli_opstate *st)
{
	sl_loc loc = sli_p_loc(P);
	const char *s = P->tok.p;
	sl_type *t;
	sli_p_next(P);
	if (sli_p_expect(P, SL_TOK_LESS, "'<' after 'dense_resource'"))
		return -1;
	if (!sli_p_is(P, SL_TOK_IDENT) && !sli_p_is(P, SL_TOK_STRING))
		return sli_p_error(P, "expected a resource handle");
	sli_p_next(P);
	if (sli_p_expect(P, SL_TOK_GREATER, "'>'") ||
	    sli_p_expect(P, SL_TOK_COLON, "':' and the type of the resource") ||
	    sli_p_type(P, &t))
		return -1;
	const char *e = P->tok.p;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		e--;
	add_prop(P, st, "value", new_opaque(P, s, (size_t)(e - s), loc));
	SL_VEC_PUSH(st->result_types, t);
	return 0;
}

/* Whether a constant's value is printed as dense_resource<...> : type. */
static bool
is_dense_resource(const sl_attr *v)
{
	static const char kw[] = "dense_resource<";
	return v && v->kind == SL_ATTR_OPAQUE && v->u.text.n > sizeof kw &&
	       !memcmp(v->u.text.p, kw, sizeof kw - 1) && memchr(v->u.text.p, ':', v->u.text.n);
}

/*
 * constant = attr-dict (elements-attr | dense-resource)
 *          | '(' ')' ('<' '{' value = attr '}' '>')? attr-dict ':' '(' ')' '->' type
 */
int
sli_parse_fmt_CONSTANT(sli_parser *P, sli_opstate *st)
{
	if (sli_p_accept(P, SL_TOK_LPAREN)) {
		if (sli_p_expect(P, SL_TOK_RPAREN, "')'"))
			return -1;
		if (sli_p_accept(P, SL_TOK_LESS)) {
			if (!sli_p_is(P, SL_TOK_LBRACE))
				return sli_p_error(P, "expected '{'");
			if (p_attr_dict(P, st) || sli_p_expect(P, SL_TOK_GREATER, "'>'"))
				return -1;
		}
		if (p_attr_dict(P, st))
			return -1;
		return p_functional(P, st);
	}
	if (p_attr_dict(P, st))
		return -1;
	if (sli_p_is_kw(P, "dense_resource"))
		return p_dense_resource(P, st);
	sl_loc loc = sli_p_loc(P);
	sl_attr *a;
	if (sli_p_attr(P, &a))
		return -1;
	if (a->kind != SL_ATTR_DENSE || !a->u.dense.type)
		return sli_p_error_at(P, loc, "expected elements attribute with a type");
	add_prop(P, st, "value", a);
	SL_VEC_PUSH(st->result_types, a->u.dense.type);
	return 0;
}

void
sli_print_fmt_CONSTANT(sli_printer *pr, const sl_op *op)
{
	const sl_attr *v = get(pr->ctx, op, "value");
	const sl_type *t = op->nresults ? op->results[0].type : NULL;
	if ((v && v->kind == SL_ATTR_DENSE && v->u.dense.type == t) ||
	    (t && is_dense_resource(v))) {
		pr_attrs(pr, op, NULL);
		sli_pr_putc(pr, ' ');
		sli_pr_attr(pr, v);
		return;
	}
	sli_pr_puts(pr, "()");
	if (v) {
		sli_pr_puts(pr, " <{value = ");
		sli_pr_attr(pr, v);
		sli_pr_puts(pr, "}>");
	}
	pr_attrs(pr, op, NULL);
	pr_functional(pr, op);
}

/* iota = 'dim' '=' N attr-dict ':' type */
int
sli_parse_fmt_IOTA(sli_parser *P, sli_opstate *st)
{
	sl_type *t;
	if (p_kw_int(P, st, "dim", "iota_dimension", "i64") || p_attr_dict(P, st) ||
	    sli_p_expect(P, SL_TOK_COLON, "':'") || sli_p_type(P, &t))
		return -1;
	SL_VEC_PUSH(st->result_types, t);
	return 0;
}

void
sli_print_fmt_IOTA(sli_printer *pr, const sl_op *op)
{
	sli_pr_puts(pr, " dim = ");
	pr_int_prop(pr, op, "iota_dimension");
	pr_attrs(pr, op, NULL);
	sli_pr_puts(pr, " : ");
	sli_pr_result_types(pr, op);
}

/* }====================================================================== */

/* {====== CUSTOM_CALL, COMPOSITE ============================================== */

/* custom_call = @target '(' operand-list ')' attr-dict ':' function-type */
int
sli_parse_fmt_CUSTOM_CALL(sli_parser *P, sli_opstate *st)
{
	const char *s = NULL;
	size_t n = 0;
	sl_loc loc = sli_p_loc(P);
	if (p_symbol_name(P, &s, &n))
		return -1;
	sl_attr *a = sli_attr_string(P->m, s, n);
	a->loc = loc;
	add_prop(P, st, "call_target_name", a);
	if (sli_p_expect(P, SL_TOK_LPAREN, "'('") || sli_p_operand_list(P, st) ||
	    sli_p_expect(P, SL_TOK_RPAREN, "')'") || p_attr_dict(P, st))
		return -1;
	return p_functional(P, st);
}

static bool
is_bare_symbol(const char *s, size_t n)
{
	if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!is_word(s[i]) && s[i] != '$' && s[i] != '.')
			return false;
	return true;
}

void
sli_print_fmt_CUSTOM_CALL(sli_printer *pr, const sl_op *op)
{
	const sl_attr *a = get(pr->ctx, op, "call_target_name");
	sli_pr_puts(pr, " @");
	if (a && a->kind == SL_ATTR_STRING) {
		if (is_bare_symbol(a->u.s.p, a->u.s.n))
			sli_pr_put(pr, a->u.s.p, a->u.s.n);
		else
			sli_print_string(pr->b, a->u.s.p, a->u.s.n);
	}
	sli_pr_putc(pr, '(');
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_putc(pr, ')');
	pr_attrs(pr, op, NULL);
	pr_functional(pr, op);
}

/* composite = string operand-list attr-dict ':' function-type */
int
sli_parse_fmt_COMPOSITE(sli_parser *P, sli_opstate *st)
{
	const char *s = NULL;
	size_t n = 0;
	sl_loc loc = sli_p_loc(P);
	if (!sli_p_is(P, SL_TOK_STRING))
		return sli_p_error(P, "expected string");
	if (sli_p_string(P, &s, &n))
		return -1;
	sl_attr *a = sli_attr_string(P->m, s, n);
	a->loc = loc;
	add_prop(P, st, "name", a);
	if (sli_p_operand_list(P, st) || p_attr_dict(P, st))
		return -1;
	return p_functional(P, st);
}

void
sli_print_fmt_COMPOSITE(sli_printer *pr, const sl_op *op)
{
	const sl_attr *a = get(pr->ctx, op, "name");
	sli_pr_putc(pr, ' ');
	if (a && a->kind == SL_ATTR_STRING)
		sli_print_string(pr->b, a->u.s.p, a->u.s.n);
	else
		sli_pr_puts(pr, "\"\"");
	if (op->noperands)
		sli_pr_putc(pr, ' ');
	sli_pr_operands(pr, op, 0, op->noperands);
	pr_attrs(pr, op, NULL);
	pr_functional(pr, op);
}

/* }====================================================================== */

/* {====== REDUCE ================================================================ */

/* Commutative, binary, single-result, region-free StableHLO ops. */
static bool
is_compact_reducer(sl_op_kind k)
{
	switch (k) {
	case SL_OP_ADD:
	case SL_OP_AND:
	case SL_OP_MAXIMUM:
	case SL_OP_MINIMUM:
	case SL_OP_MULTIPLY:
	case SL_OP_OR:
	case SL_OP_XOR:
		return true;
	default:
		return false;
	}
}

/* %name ':' type loc? of a reducer block argument. */
static int
p_reducer_arg(sli_parser *P, sli_argdef *d)
{
	memset(d, 0, sizeof *d);
	if (!sli_p_is(P, SL_TOK_PERCENT))
		return sli_p_error(P, "expected SSA value name");
	d->name = P->tok;
	d->loc = sli_p_loc(P);
	sli_p_next(P);
	if (sli_p_expect(P, SL_TOK_COLON, "':'") || sli_p_type(P, &d->type))
		return -1;
	return sli_p_optional_loc(P, &d->locattr) < 0 ? -1 : 0;
}

/* 'reducer' ('(' arg ',' arg ')')* region */
static int
p_reducer_region(sli_parser *P, sli_opstate *st)
{
	sli_argvec first = {0}, second = {0};
	int r = sli_p_expect_kw(P, "reducer");
	while (r == 0 && sli_p_accept(P, SL_TOK_LPAREN)) {
		sli_argdef a, b;
		r = p_reducer_arg(P, &a);
		if (r == 0)
			r = sli_p_expect(P, SL_TOK_COMMA, "','");
		if (r == 0)
			r = p_reducer_arg(P, &b);
		if (r == 0)
			r = sli_p_expect(P, SL_TOK_RPAREN, "')'");
		if (r == 0) {
			SL_VEC_PUSH(first, a);
			SL_VEC_PUSH(second, b);
		}
	}
	for (size_t i = 0; r == 0 && i < second.n; i++)
		SL_VEC_PUSH(first, second.v[i]);
	sl_region *region;
	if (r == 0)
		r = sli_p_region(P, &region, first.v, (uint32_t)first.n);
	if (r == 0)
		SL_VEC_PUSH(st->regions, region);
	SL_VEC_FREE(first);
	SL_VEC_FREE(second);
	return r;
}

/* The body { ^bb0(%a: t, %b: t): %r = inner %a, %b; return %r } of applies. */
static void
build_compact_body(sli_parser *P, sli_opstate *st, sl_sym inner, sl_type *input, sl_loc loc)
{
	sl_module *m = P->m;
	sl_type *elem = input->kind == SL_TYPE_TENSOR && input->elem ? input->elem : input;
	sl_type *t = sli_type_tensor(P->ctx, 0, NULL, elem, 0, false);
	sl_region *r = SL_NEW(&m->arena, sl_region);
	sl_block *b = sli_block_new(m, 2);
	for (int i = 0; i < 2; i++) {
		b->args[i].type = t;
		sli_arg_set_loc(m, &b->args[i], loc);
	}
	sli_block_append(r, b);
	sl_op *op = sli_op_new(m, inner, 2, 1, 0);
	op->operands[0] = &b->args[0];
	op->operands[1] = &b->args[1];
	op->results[0].type = t;
	op->loc = loc;
	op->result_locs = 1;
	sli_op_append(b, op);
	sl_op *ret = sli_op_new(m, sli_p_sym(P, "stablehlo.return"), 1, 0, 0);
	ret->operands[0] = &op->results[0];
	ret->loc = loc;
	sli_op_append(b, ret);
	SL_VEC_PUSH(st->regions, r);
}

/*
 * reduce = '(' %in 'init' ':' %init ')' (',' ...)*
 *          ('applies' op-name)? 'across' 'dimensions' '=' [..]
 *          attr-dict ':' function-type ('reducer' args region)?
 */
int
sli_parse_fmt_REDUCE(sli_parser *P, sli_opstate *st)
{
	SL_VEC(sl_value *) inits = {0};
	int r = 0;
	do {
		sl_value *v;
		if (!sli_p_accept(P, SL_TOK_LPAREN))
			break;
		r = p_operand(P, st);
		if (r == 0)
			r = sli_p_expect_kw(P, "init");
		if (r == 0)
			r = sli_p_expect(P, SL_TOK_COLON, "':'");
		if (r == 0)
			r = sli_p_operand(P, &v);
		if (r == 0)
			SL_VEC_PUSH(inits, v);
		if (r == 0)
			r = sli_p_expect(P, SL_TOK_RPAREN, "')'");
	} while (r == 0 && sli_p_accept(P, SL_TOK_COMMA));
	for (size_t i = 0; r == 0 && i < inits.n; i++)
		SL_VEC_PUSH(st->operands, inits.v[i]);
	SL_VEC_FREE(inits);
	if (r)
		return -1;

	sl_sym inner = 0;
	sl_loc inner_loc = sli_p_loc(P);
	if (sli_p_accept_kw(P, "applies")) {
		inner_loc = sli_p_loc(P);
		if (!sli_p_is(P, SL_TOK_IDENT) && !sli_p_is(P, SL_TOK_STRING))
			return sli_p_error(P, "expected operation name");
		const char *s = P->tok.p;
		size_t n = P->tok.n;
		if (sli_p_is(P, SL_TOK_STRING)) {
			s++;
			n -= 2;
		}
		sl_op_kind k = sli_op_kind_lookup(s, n);
		inner = sl_sym_intern(P->ctx, s, n);
		if (k == SL_OP_UNKNOWN)	/* MHLO's form: applies mhlo.add */
			k = sli_mhlo_kind(P, s, n, &inner);
		if (!is_compact_reducer(k))
			return sli_p_error(P, "expected the inner-op to be a commutative binary-op "
			                   "from the stablehlo dialect, with zero region, producing "
			                   "single result");
		sli_p_next(P);
	}
	if (sli_p_expect_kw(P, "across") || p_kw_array(P, st, "dimensions", "dimensions") ||
	    p_attr_dict(P, st))
		return -1;
	if (sli_p_expect(P, SL_TOK_COLON, "':'"))
		return -1;
	sli_typevec ins = {0}, outs = {0};
	sl_loc loc = sli_p_loc(P);
	r = sli_p_functional_type(P, &ins, &outs);
	if (r == 0 && inner && ins.n == 0)
		r = sli_p_error_at(P, loc, "input types missing in reduce-op function type");
	if (r == 0)
		r = set_operand_types(P, st, ins.v, ins.n, loc);
	if (r == 0) {
		push_results(st, outs.v, outs.n);
		if (inner)
			build_compact_body(P, st, inner, ins.v[0], inner_loc);
		else
			r = p_reducer_region(P, st);
	}
	SL_VEC_FREE(ins);
	SL_VEC_FREE(outs);
	return r;
}

/* The inner op when the body is `return (inner %arg0, %arg1)`, else NULL. */
static const sl_op *
compact_inner(const sl_op *op)
{
	if (op->nregions != 1 || op->noperands < 2)
		return NULL;
	const sl_block *b = op->regions[0].first;
	if (!b || !b->first || b->first == b->last || b->first->next != b->last)
		return NULL;
	const sl_op *in = b->first, *ret = b->last;
	if (!is_compact_reducer(in->kind) || in->noperands != 2 || in->nresults != 1 ||
	    in->nregions || in->nattrs || in->nprops)
		return NULL;
	const sl_type *t = in->results[0].type;
	if (in->operands[0]->type != t || in->operands[1]->type != t)
		return NULL;
	const sl_type *x = op->operands[0]->type;
	const sl_type *elem = x && x->kind == SL_TYPE_TENSOR ? x->elem : x;
	if (!t || t->kind != SL_TYPE_TENSOR || t->unranked || t->rank || t->enc ||
	    t->elem != elem)
		return NULL;
	if (b->nargs != 2 || in->operands[0] != &b->args[0] || in->operands[1] != &b->args[1])
		return NULL;
	if (ret->kind != SL_OP_SHLO_RETURN || ret->noperands != 1 ||
	    ret->operands[0] != &in->results[0] || ret->nattrs || ret->nprops)
		return NULL;
	return in;
}

void
sli_print_fmt_REDUCE(sli_printer *pr, const sl_op *op)
{
	uint32_t half = op->noperands / 2;
	for (uint32_t i = 0; i < half; i++) {
		sli_pr_puts(pr, i ? ", (" : "(");
		sli_pr_value(pr, op->operands[i]);
		sli_pr_puts(pr, " init: ");
		sli_pr_value(pr, op->operands[i + half]);
		sli_pr_putc(pr, ')');
	}
	const sl_op *inner = compact_inner(op);
	if (inner) {
		sli_pr_puts(pr, " applies ");
		sli_pr_op_name(pr, inner, false);
	}
	sli_pr_puts(pr, " across dimensions = ");
	pr_array_prop(pr, op, "dimensions");
	pr_attrs(pr, op, NULL);
	pr_functional(pr, op);
	if (inner || op->nregions != 1 || !op->regions[0].first)
		return;
	const sl_block *b = op->regions[0].first;
	sli_pr_newline(pr);
	sli_pr_puts(pr, " reducer");
	for (uint32_t i = 0; i < half && i + half < b->nargs; i++) {
		for (int k = 0; k < 2; k++) {
			const sl_value *v = &b->args[i + (uint32_t)k * half];
			sli_pr_puts(pr, k ? ", " : "(");
			sli_pr_value(pr, v);
			sli_pr_puts(pr, ": ");
			sli_pr_type(pr, v->type);
			sli_pr_loc(pr, sli_value_locattr(pr->m, v));
		}
		sli_pr_puts(pr, ") ");
	}
	sli_pr_putc(pr, ' ');
	sli_pr_region(pr, &op->regions[0], false);
}

/* }====================================================================== */

/* {====== WHILE ================================================================= */

/*
 * while = '(' (%iterArg '=' %operand (',' ...)*)? ')' (':' type-list)?
 *         ('attributes' attr-dict)? 'cond' region 'do' region
 */
int
sli_parse_fmt_WHILE(sli_parser *P, sli_opstate *st)
{
	sli_argvec args = {0};
	int r = sli_p_expect(P, SL_TOK_LPAREN, "'('");
	while (r == 0 && !sli_p_is(P, SL_TOK_RPAREN)) {
		sli_argdef d;
		memset(&d, 0, sizeof d);
		if (!sli_p_is(P, SL_TOK_PERCENT)) {
			r = sli_p_error(P, "expected SSA value name");
			break;
		}
		d.name = P->tok;
		d.loc = sli_p_loc(P);
		sli_p_next(P);
		r = sli_p_expect(P, SL_TOK_EQUAL, "'='");
		if (r == 0)
			r = p_operand(P, st);
		if (r == 0)
			SL_VEC_PUSH(args, d);
		if (r || !sli_p_accept(P, SL_TOK_COMMA))
			break;
	}
	if (r == 0)
		r = sli_p_expect(P, SL_TOK_RPAREN, "')'");
	if (r == 0 && args.n) {
		sli_typevec types = {0};
		r = sli_p_expect(P, SL_TOK_COLON, "':'");
		sl_loc loc = sli_p_loc(P);
		if (r == 0)
			r = sli_p_type_list(P, &types);
		if (r == 0)
			r = set_operand_types(P, st, types.v, types.n, loc);
		for (size_t i = 0; r == 0 && i < types.n; i++) {
			args.v[i].type = types.v[i];
			SL_VEC_PUSH(st->result_types, types.v[i]);
		}
		SL_VEC_FREE(types);
	}
	if (r == 0 && sli_p_accept_kw(P, "attributes")) {
		if (!sli_p_is(P, SL_TOK_LBRACE))
			r = sli_p_error(P, "expected '{'");
		else
			r = p_attr_dict(P, st);
	}
	sl_region *cond, *body;
	if (r == 0)
		r = sli_p_expect_kw(P, "cond");
	if (r == 0)
		r = sli_p_region(P, &cond, args.v, (uint32_t)args.n);
	if (r == 0)
		r = sli_p_expect_kw(P, "do");
	if (r == 0)
		r = sli_p_region(P, &body, args.v, (uint32_t)args.n);
	if (r == 0) {
		SL_VEC_PUSH(st->regions, cond);
		SL_VEC_PUSH(st->regions, body);
	}
	SL_VEC_FREE(args);
	return r;
}

void
sli_print_fmt_WHILE(sli_printer *pr, const sl_op *op)
{
	const sl_block *body = op->nregions == 2 ? op->regions[1].first : NULL;
	sli_pr_putc(pr, '(');
	for (uint32_t i = 0; i < op->noperands; i++) {
		if (i)
			sli_pr_puts(pr, ", ");
		if (body && i < body->nargs)
			sli_pr_value(pr, &body->args[i]);
		sli_pr_puts(pr, " = ");
		sli_pr_value(pr, op->operands[i]);
	}
	sli_pr_putc(pr, ')');
	if (op->noperands) {
		sli_pr_puts(pr, " : ");
		sli_pr_operand_types(pr, op);
	}
	if (op->nattrs || op->nprops) {
		sli_pr_puts(pr, " attributes");
		pr_attrs(pr, op, NULL);
	}
	if (op->nregions != 2)
		return;
	sli_pr_newline(pr);
	sli_pr_puts(pr, " cond ");
	sli_pr_region(pr, &op->regions[0], false);
	sli_pr_puts(pr, " do ");
	sli_pr_region(pr, &op->regions[1], false);
}

/* }====================================================================== */

/* {====== can the custom form represent the op? ================================ */

static bool
array_ok(const sl_context *ctx, const sl_op *op, const char *name, bool required)
{
	const sl_attr *a = get(ctx, op, name);
	i64vec v = {0};
	bool ok = a ? sli_attr_ints(ctx, a, &v) : !required;
	SL_VEC_FREE(v);
	return ok;
}

static bool
int_ok(const sl_context *ctx, const sl_op *op, const char *name)
{
	int64_t v;
	return attr_int(get(ctx, op, name), &v);
}

static bool
enum_ok(const sl_context *ctx, const sl_op *op, const char *name, bool required)
{
	const char *w;
	size_t n;
	const sl_attr *a = get(ctx, op, name);
	return a ? enum_word(ctx, a, &w, &n) : !required;
}

static bool
precision_ok(const sl_context *ctx, const sl_op *op)
{
	const sl_attr *a = get(ctx, op, "precision_config");
	if (!a)
		return true;
	if (a->kind != SL_ATTR_ARRAY)
		return false;
	for (uint32_t i = 0; i < a->u.arr.n; i++) {
		const char *w;
		size_t n;
		if (!enum_word(ctx, a->u.arr.v[i], &w, &n))
			return false;
	}
	return true;
}

/* Entry blocks of the regions exist and carry the while operands' types. */
static bool
while_ok(const sl_op *op)
{
	if (op->nregions != 2 || op->nresults != op->noperands)
		return false;
	for (uint32_t r = 0; r < 2; r++) {
		const sl_block *b = op->regions[r].first;
		if (!b || b->nargs != op->noperands)
			return false;
		for (uint32_t i = 0; i < b->nargs; i++)
			if (b->args[i].type != op->operands[i]->type)
				return false;
	}
	return true;
}

static bool
reduce_ok(const sl_context *ctx, const sl_op *op)
{
	if (op->nregions != 1 || op->noperands < 2 || op->noperands % 2 ||
	    !array_ok(ctx, op, "dimensions", true))
		return false;
	if (compact_inner(op))
		return true;
	const sl_block *b = op->regions[0].first;
	return b && !b->next && b->nargs == op->noperands;
}

/*
 * False when the op lacks what its custom form needs (an inherent
 * attribute missing or malformed, a region of the wrong shape), so that
 * the printer falls back to the generic form.
 */
bool
sli_stablehlo_has_custom_form(const sl_context *ctx, const sl_op *op)
{
	const sl_attr *a;
	switch (op->kind) {
	case SL_OP_WHILE:
		return while_ok(op);
	case SL_OP_REDUCE:
		return op->nresults * 2 == op->noperands && reduce_ok(ctx, op);
	default:
		break;
	}
	if (op->nregions)
		return false;
	switch (op->kind) {
	case SL_OP_SHLO_RETURN:
		return op->nresults == 0;
	case SL_OP_OPTIMIZATION_BARRIER:
		if (op->nresults != op->noperands)
			return false;
		for (uint32_t i = 0; i < op->noperands; i++)
			if (op->operands[i]->type != op->results[i].type)
				return false;
		return true;
	case SL_OP_CUSTOM_CALL:
		a = get(ctx, op, "call_target_name");
		return a && a->kind == SL_ATTR_STRING;
	case SL_OP_COMPOSITE:
		a = get(ctx, op, "name");
		return a && a->kind == SL_ATTR_STRING;
	case SL_OP_RNG_BIT_GENERATOR:
		return op->nresults == 2 && op->noperands == 1 &&
		       enum_ok(ctx, op, "rng_algorithm", true);
	default:
		break;
	}
	if (op->nresults != 1)
		return false;
	switch (op->kind) {
	case SL_OP_REVERSE:
		return op->noperands == 1 && array_ok(ctx, op, "dimensions", true);
	case SL_OP_REDUCE_PRECISION:
		return op->noperands == 1 && int_ok(ctx, op, "exponent_bits") &&
		       int_ok(ctx, op, "mantissa_bits");
	case SL_OP_COMPLEX:
		return op->noperands == 2;
	case SL_OP_SELECT:
		return op->noperands == 3;
	case SL_OP_BROADCAST_IN_DIM:
		return op->noperands == 1 && array_ok(ctx, op, "broadcast_dimensions", true);
	case SL_OP_DYNAMIC_BROADCAST_IN_DIM:
		return op->noperands == 2 && array_ok(ctx, op, "broadcast_dimensions", true);
	case SL_OP_TRANSPOSE:
		return op->noperands == 1 && array_ok(ctx, op, "permutation", true);
	case SL_OP_DYNAMIC_SLICE:
		return op->noperands >= 1 && array_ok(ctx, op, "slice_sizes", true);
	case SL_OP_CONCATENATE:
		return int_ok(ctx, op, "dimension");
	case SL_OP_GET_DIMENSION_SIZE:
		return op->noperands == 1 && int_ok(ctx, op, "dimension");
	case SL_OP_DYNAMIC_IOTA:
		return op->noperands == 1 && int_ok(ctx, op, "iota_dimension");
	case SL_OP_PAD:
		return op->noperands == 2 && array_ok(ctx, op, "edge_padding_low", true) &&
		       array_ok(ctx, op, "edge_padding_high", true) &&
		       array_ok(ctx, op, "interior_padding", true);
	case SL_OP_CHOLESKY:
		a = get(ctx, op, "lower");
		return op->noperands == 1 && (!a || a->kind == SL_ATTR_BOOL);
	case SL_OP_FFT:
		return op->noperands == 1 && enum_ok(ctx, op, "fft_type", true) &&
		       array_ok(ctx, op, "fft_length", true);
	case SL_OP_RNG:
		return op->noperands == 3 && enum_ok(ctx, op, "rng_distribution", true);
	case SL_OP_DOT:
		return op->noperands == 2 && precision_ok(ctx, op);
	case SL_OP_DOT_GENERAL: {
		const char *p, *e;
		bool ok = sli_attr_get_dot_dims(get(ctx, op, "dot_dimension_numbers")) != NULL;
		a = get(ctx, op, "algorithm");
		return ok && op->noperands == 2 && precision_ok(ctx, op) &&
		       (!a || opaque_body(a, "#stablehlo.dot_algorithm", &p, &e));
	}
	case SL_OP_COMPARE:
		return op->noperands == 2 && enum_ok(ctx, op, "comparison_direction", true) &&
		       enum_ok(ctx, op, "compare_type", false);
	case SL_OP_SLICE: {
		i64vec v[3] = {{0}, {0}, {0}};
		bool ok = sli_attr_ints(ctx, get(ctx, op, "start_indices"), &v[0]) &&
		          sli_attr_ints(ctx, get(ctx, op, "limit_indices"), &v[1]) &&
		          sli_attr_ints(ctx, get(ctx, op, "strides"), &v[2]) &&
		          v[0].n == v[1].n && v[1].n == v[2].n;
		for (int k = 0; k < 3; k++)
			SL_VEC_FREE(v[k]);
		return ok && op->noperands == 1;
	}
	case SL_OP_GET_TUPLE_ELEMENT:
		return op->noperands == 1 && int_ok(ctx, op, "index");
	case SL_OP_CONVOLUTION: {
		const sl_conv_dims *c = sli_attr_get_conv_dims(get(ctx, op, "dimension_numbers"));
		bool ok = c && !c->raw;
		for (int k = 0; k < 5 && ok; k++)
			ok = array_ok(ctx, op, window_props[k], false);
		return ok && op->noperands == 2;
	}
	case SL_OP_TUPLE:
		return op->results[0].type && op->results[0].type->kind == SL_TYPE_TUPLE;
	case SL_OP_CONSTANT:
		return op->noperands == 0 && get(ctx, op, "value");
	case SL_OP_IOTA:
		return op->noperands == 0 && int_ok(ctx, op, "iota_dimension");
	default:
		return true;
	}
}

/* }====================================================================== */
