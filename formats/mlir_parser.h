/*
 * mlir_parser.h - the recursive-descent MLIR reader's internal interface,
 * shared by the core parser (mlir_parser.c: module, func, generic ops,
 * builtin attributes and types) and the custom-syntax parsers of the sdy
 * ops and attributes (mlir_sdy.c) and StableHLO ops (mlir_stablehlo.c).
 *
 * Conventions: every sli_p_* function that can fail returns 0 on success
 * and -1 after reporting an error at the current token; "optional"
 * functions return 1 when they parsed something, 0 when absent, -1 on
 * error.  After the first error the parser stops (errors do not cascade).
 */
#ifndef SL_FORMATS_MLIR_PARSER_H
#define SL_FORMATS_MLIR_PARSER_H

#include <string.h>

#include "formats/mlir_lexer.h"
#include "ir/ir.h"

typedef struct sli_parser sli_parser;

/* A named value under construction: operands, types, attributes, regions. */
typedef struct sli_opstate {
	sl_sym name;
	sl_op_kind kind;
	sl_loc loc;
	uint32_t nresults;	/* from the result list "%0:2 =" */
	SL_VEC(sl_value *) operands;
	SL_VEC(sl_type *) result_types;
	SL_VEC(sl_named_attr) attrs;	/* discardable, any order */
	SL_VEC(sl_named_attr) props;	/* inherent (<{...}> or custom syntax) */
	SL_VEC(sl_region *) regions;
} sli_opstate;

/* A block argument declared before its region is parsed. */
typedef struct sli_argdef {
	sli_token name;		/* %name token */
	sl_type *type;
	sl_named_attr *attrs;
	uint32_t nattrs;
	sl_attr *locattr;
	sl_loc loc;
} sli_argdef;

/* A name interned before: its first and last eight bytes, and the rest
 * compared with the interned text when longer than 16 (sli_p_intern). */
typedef struct sli_namecache_ent {
	uint64_t first, last;
	const char *text;
	uint32_t n;
	sl_sym sym;
} sli_namecache_ent;

#define SLI_NAMECACHE_BITS 6

struct sli_parser {
	sl_context *ctx;
	sl_module *m;
	sli_lexer lx;
	sli_token tok;		/* current token */
	sl_sym file;
	int failed;
	int depth;		/* nesting depth, bounded */
	struct sli_scope *scope;
	struct sli_names *names;
	/* attribute and type aliases (#name = ..., !name = ...) */
	struct sli_alias *aliases;
	size_t naliases, calias;
	/* cache of source spellings of types -> uniqued type */
	struct sli_typecache *typecache;
	/* op states by nesting of ops, reused (parse_op) */
	struct sli_opslot **opslots;
	uint32_t nopslots, opdepth;
	/* op and attribute names met recently, by a hash of their ends */
	sli_namecache_ent names_seen[1u << SLI_NAMECACHE_BITS];
};

/* --- tokens --------------------------------------------------------- */
void sli_p_next(sli_parser *P);
static inline bool
sli_p_is(const sli_parser *P, sli_tok_kind k)
{
	return P->tok.kind == k;
}
/* Consumes the current token if it has kind k. */
bool sli_p_accept(sli_parser *P, sli_tok_kind k);
/* Consumes a token of kind k or reports "expected <what>". */
int sli_p_expect(sli_parser *P, sli_tok_kind k, const char *what);
/* Location of the current token. */
sl_loc sli_p_loc(const sli_parser *P);
sl_loc sli_p_tok_loc(const sli_parser *P, const sli_token *t);

/* Reports an error at the current token (first error only); returns -1. */
int sli_p_error(sli_parser *P, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sli_p_error_at(sli_parser *P, sl_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* True if the current token is the identifier kw (inline: kw is most
 * often a literal, whose length and comparison the compiler folds). */
static inline bool
sli_p_is_kw(const sli_parser *P, const char *kw)
{
	size_t n = strlen(kw);
	return P->tok.kind == SL_TOK_IDENT && P->tok.n == n && memcmp(P->tok.p, kw, n) == 0;
}
/* Consumes the identifier kw if it is the current token. */
static inline bool
sli_p_accept_kw(sli_parser *P, const char *kw)
{
	if (!sli_p_is_kw(P, kw))
		return false;
	sli_p_next(P);
	return true;
}
/* Consumes the identifier kw or reports "expected 'kw'". */
static inline int
sli_p_expect_kw(sli_parser *P, const char *kw)
{
	return sli_p_accept_kw(P, kw) ? 0 : sli_p_error(P, "expected '%s'", kw);
}

/* --- values ---------------------------------------------------------- */
/* %name or %name#N: looks the value up; error if undefined. */
int sli_p_operand(sli_parser *P, sl_value **out);
/* Zero or more operands separated by commas, appended to st->operands. */
int sli_p_operand_list(sli_parser *P, sli_opstate *st);
/* An optional operand (returns 1 if one was parsed). */
int sli_p_optional_operand(sli_parser *P, sl_value **out);

/* --- scalars --------------------------------------------------------- */
/* An integer with optional leading '-' that fits int64_t. */
int sli_p_int(sli_parser *P, int64_t *out);
/* A string literal, escapes decoded into the module arena. */
int sli_p_string(sli_parser *P, const char **s, size_t *n);
/* [1, 2, 3] of integers (also []), allocated in the module arena. */
int sli_p_int_list(sli_parser *P, int64_t **v, uint32_t *n);

/* --- types and attributes --------------------------------------------- */
int sli_p_type(sli_parser *P, sl_type **out);
/* t1, t2, ... (at least one) appended to vec. */
typedef SL_VEC(sl_type *) sli_typevec;
int sli_p_type_list(sli_parser *P, sli_typevec *out);
/* (t1, t2) -> t3 or (t1) -> (t2, t3) into ins/outs. */
int sli_p_functional_type(sli_parser *P, sli_typevec *ins, sli_typevec *outs);
/* The same as one function type (uniqued), its inputs then its results. */
int sli_p_fn_type(sli_parser *P, sl_type **out);
/* Any attribute: builtin, #alias, #sdy.*, #dialect..., with `: type`. */
int sli_p_attr(sli_parser *P, sl_attr **out);
/* {name = attr, unitname, ...}: returns 1 if a dictionary was present. */
typedef SL_VEC(sl_named_attr) sli_namedvec;
int sli_p_optional_attr_dict(sli_parser *P, sli_namedvec *out);
/* `attributes {..}` as in module/func headers. */
int sli_p_optional_attr_dict_with_keyword(sli_parser *P, sli_namedvec *out);
/* loc(...) (returns 1 if present). */
int sli_p_optional_loc(sli_parser *P, sl_attr **out);

/* --- regions ----------------------------------------------------------- */
/*
 * { ops } or { ^bb0(%a: t): ops ^bb1: ... }.  When args is non-NULL the
 * entry block takes these already declared arguments (custom syntax such
 * as sdy.manual_computation or stablehlo.while) and the region may not
 * start with a block label.  The region is allocated in the module arena.
 */
int sli_p_region(sli_parser *P, sl_region **out, const sli_argdef *args,
                 uint32_t nargs);
/* (%a: t {attrs} loc(..), ...): a parenthesised argument list. */
typedef SL_VEC(sli_argdef) sli_argvec;
int sli_p_arg_list(sli_parser *P, sli_argvec *out, bool allow_attrs);

/* --- building ------------------------------------------------------------ */
sl_attr *sli_p_named_get(const sli_namedvec *v, sl_sym name);
void sli_p_named_add(sli_namedvec *v, sl_sym name, sl_attr *a);
sl_sym sli_p_sym(sli_parser *P, const char *s);
/* sl_sym_intern(P->ctx, s, n), through a small cache of recent names. */
sl_sym sli_p_intern(sli_parser *P, const char *s, uint32_t n);

/*
 * Custom-syntax parsers: called with the current token just after the op
 * name; fill st (operands, result_types, props/attrs, regions).  Return 0
 * or -1.  Defined in mlir_sdy.c and mlir_stablehlo.c, chosen by format.
 */
typedef int sli_op_parse_fn(sli_parser *P, sli_opstate *st);
#define X(f) int sli_parse_fmt_##f(sli_parser *P, sli_opstate *st);
FMTS(X)
#undef X

/* sdy attributes: the body after "#sdy.<mnemonic>" (at '<'), or stripped. */
int sli_p_sdy_attr(sli_parser *P, const char *mnemonic, size_t n, sl_attr **out);
int sli_p_sharding(sli_parser *P, sl_attr **out);	/* <@mesh, [...]> */
int sli_p_sharding_list(sli_parser *P, sl_attr **out);	/* [<...>, ...] */
int sli_p_mesh_body(sli_parser *P, sl_mesh *out);	/* <["a"=2], device_ids=[..]> */

/* The op name s (n bytes) mhlo.X read as stablehlo.X (mlir_mhlo.c): its
 * kind, and *name set; else SL_OP_UNKNOWN. */
sl_op_kind sli_mhlo_kind(sli_parser *P, const char *s, size_t n, sl_sym *name);
/* The same for an op read in the generic form: st's kind and name set
 * where the op is alike in the two dialects. */
void sli_mhlo_generic(sli_parser *P, sli_opstate *st);

/*
 * One attribute read from text (e.g. the contents of a string attribute)
 * into m's arena; diagnostics name `file` and count lines from `line`.
 * NULL after an error, or when text holds more than one attribute.
 */
sl_attr *sli_parse_attr_text(sl_module *m, sl_sym file, const char *text, size_t len,
                             unsigned line);

/*
 * sl_module_parse_at for MLIR text only (formats/read.c adds the XML
 * problems): what shardlp-opt and the passes' own copies read, so that
 * they link without the XML reader and libxml2.
 */
sl_module *sli_mlir_parse_at(sl_context *ctx, const char *name, const char *text,
                             size_t len, unsigned first_line);

#endif
