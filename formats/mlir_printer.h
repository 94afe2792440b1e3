/*
 * mlir_printer.h - the MLIR writer's internal interface, shared by the core
 * printer (mlir_printer.c) and the custom-syntax printers of sdy
 * (mlir_sdy.c) and StableHLO (mlir_stablehlo.c).  Output goes to a byte
 * buffer flushed to the FILE in large chunks.  Values are named as MLIR
 * names them: %0, %1, ... per isolated region, %argN for entry block
 * arguments, %c/%cst for constants, %iterArg for while arguments.
 */
#ifndef SL_FORMATS_MLIR_PRINTER_H
#define SL_FORMATS_MLIR_PRINTER_H

#include "ir/ir.h"
#include "shardlp.h"

typedef struct sli_printer {
	const sl_module *m;
	const sl_context *ctx;
	sli_buf *b;
	FILE *out;		/* NULL: print to b only */
	int indent;
	bool debuginfo;
	bool generic;
	bool mhlo;		/* StableHLO ops under MHLO's names (mlir_mhlo.c) */
	bool werr;
	struct sli_names_state *names;
} sli_printer;

static inline void
sli_pr_putc(sli_printer *pr, char c)
{
	sli_buf_putc(pr->b, c);
}
void sli_pr_puts(sli_printer *pr, const char *s);
void sli_pr_put(sli_printer *pr, const char *s, size_t n);
void sli_pr_sym(sli_printer *pr, sl_sym s);
void sli_pr_i64(sli_printer *pr, int64_t v);
void sli_pr_newline(sli_printer *pr);	/* newline + indentation */
/* Writes out the buffer if it is large (call between ops). */
void sli_pr_maybe_flush(sli_printer *pr);

void sli_pr_value(sli_printer *pr, const sl_value *v);
/* %a, %b, ... of op operands [from, to). */
void sli_pr_operands(sli_printer *pr, const sl_op *op, uint32_t from, uint32_t to);
void sli_pr_type(sli_printer *pr, const sl_type *t);
/* (t1, t2) -> t3, from op operand/result types. */
void sli_pr_functional_type(sli_printer *pr, const sl_op *op);
/* t1, t2 of the operands (or results). */
void sli_pr_operand_types(sli_printer *pr, const sl_op *op);
void sli_pr_result_types(sli_printer *pr, const sl_op *op);
void sli_pr_attr(sli_printer *pr, const sl_attr *a);
/*
 * " {a = 1, b}" of the op's attributes and inherent attributes merged and
 * sorted, skipping the names in `elide` (0-terminated, may be NULL); prints
 * nothing when empty.  The leading space is included.
 */
void sli_pr_attr_dict(sli_printer *pr, const sl_op *op, const sl_sym *elide);
void sli_pr_named_dict(sli_printer *pr, const sl_named_attr *v, uint32_t n,
                       const sl_sym *elide);
/* The op's name, or under pr->mhlo its MHLO counterpart's where the
 * reader reads that back as the same op (mlir_mhlo.c); `generic` says
 * which form the op is printed in. */
void sli_pr_op_name(sli_printer *pr, const sl_op *op, bool generic);
bool sli_mhlo_prints_as(const sl_context *ctx, const sl_op *op, bool generic);
/* A region in braces: entry block arguments printed as ^bb0(...) only
 * when print_entry_args; ops indented. */
void sli_pr_region(sli_printer *pr, const sl_region *r, bool print_entry_args);
/* "%arg0: tensor<..> {attrs}" for the entry block arguments of r. */
void sli_pr_block_arg_list(sli_printer *pr, const sl_block *b, bool with_attrs);
/* Trailing " loc(...)" under debuginfo. */
void sli_pr_loc(sli_printer *pr, const sl_attr *loc);

/* Printers of attributes into a plain buffer (also used in messages). */
void sli_print_attr(sli_buf *b, const sl_context *ctx, const sl_attr *a);
void sli_print_axis_ref(sli_buf *b, const sl_context *ctx, const sl_axis_ref *r);
void sli_print_axis_list(sli_buf *b, const sl_context *ctx, const sl_axis_list *l);
void sli_print_mesh_body(sli_buf *b, const sl_context *ctx, const sl_mesh *mesh);
/* <@mesh, [{"a"}, {}]> (stripped form) and #sdy.sharding<...> (full). */
void sli_print_sharding(sli_buf *b, const sl_context *ctx, const sl_sharding *s, bool full);
/* #sdy.* attribute of any kind (full form); stripped when !full. */
void sli_print_sdy_attr(sli_buf *b, const sl_context *ctx, const sl_attr *a, bool full);
/* MLIR string literal with escapes. */
void sli_print_string(sli_buf *b, const char *s, size_t n);

/* False when a StableHLO op lacks what its custom form needs (an inherent
 * attribute missing or malformed, regions of the wrong shape): the printer
 * then prints it in the generic form (mlir_stablehlo.c). */
bool sli_stablehlo_has_custom_form(const sl_context *ctx, const sl_op *op);

/* Custom-syntax printers, chosen by format; print after the result list
 * "%0 = " and the op name have been printed. */
typedef void sli_op_print_fn(sli_printer *pr, const sl_op *op);
#define X(f) void sli_print_fmt_##f(sli_printer *pr, const sl_op *op);
FMTS(X)
#undef X

#endif
