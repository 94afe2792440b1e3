/*
 * mlir_stablehlo_attrs.h - the text of StableHLO dimension numbers
 * (#stablehlo.dot<..>, #stablehlo.conv<..>, #stablehlo.gather<..>,
 * #stablehlo.scatter<..>), enum values (#stablehlo<precision HIGH>) and
 * replica group meshes (#stablehlo.replica_group_mesh_axes<..>):
 * read once into the typed attributes of ir/stablehlo_attrs.h, printed
 * back from them.  The only code that scans their text.
 */
#ifndef SL_FORMATS_MLIR_STABLEHLO_ATTRS_H
#define SL_FORMATS_MLIR_STABLEHLO_ATTRS_H

#include "ir/ir.h"
#include "ir/stablehlo_attrs.h"

/*
 * The typed attribute for the text [s, s + n) of a dimension-number
 * attribute (white space as the generic reader leaves it), built in m's
 * arena; NULL when the text is another attribute or is malformed, which
 * the caller then keeps as opaque text (and rules report as malformed).
 */
sl_attr *sli_stablehlo_attr_from_text(sl_module *m, const char *s, size_t n, sl_loc loc);

/* The attribute as MLIR prints it, e.g. #stablehlo.dot<lhs_batching_dimensions = [0]>. */
void sli_print_stablehlo_attr(sli_buf *b, const sl_context *ctx, const sl_attr *a);

/* SL_CONV_B/F/I/O for letter c in group g (SL_CONV_INPUT...), or 0. */
int64_t sli_conv_letter_code(int g, char c);
/* Group g of a layout names each of its two letters exactly once. */
bool sli_conv_group_ok(int g, const int64_t *v, size_t n);
/* [b, 0, f]x[0, i, o]->[b, 0, f] of a layout (not raw). */
void sli_print_conv_layout(sli_buf *b, const sl_conv_dims *c);

#endif
