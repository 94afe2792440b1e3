/*
 * xla_sdy.h - the strings in which XLA and JAX carry sdy attributes through
 * HLO (Shardy's round-trip form), e.g. `mhlo.frontend_attributes =
 * {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22a\22}]>"}`: the text of
 * such a string read as the attribute it spells, and positions inside a
 * string attribute as written, so that errors point into the string.
 * Ownership: attributes are built in the module's arena.
 */
#ifndef SL_FORMATS_XLA_SDY_H
#define SL_FORMATS_XLA_SDY_H

#include "ir/ir.h"

/*
 * The attribute spelled by the text of string attribute `str` (any
 * attribute the reader knows: #sdy.sharding<...>, a dictionary of meshes,
 * #sdy.op_sharding_rule<...>, 21 : i64), or NULL after an error located
 * inside the string.
 */
sl_attr *sli_xla_sdy_parse(sl_module *m, const sl_attr *str);

/*
 * Where byte `off` of the decoded text of string attribute `str` was
 * written: the opening quote's line, and its column plus one plus the
 * width each earlier byte takes as MLIR prints strings (`\22` for a
 * quote, `\\`, `\XX` for other unprintable bytes).  A string written with
 * `\"` escapes is off by one column per earlier quote.
 */
sl_loc sli_string_loc(const sl_attr *str, size_t off);

#endif
