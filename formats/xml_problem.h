/*
 * xml_problem.h - a program's sharding problem as XML (<shardlp-problem>,
 * shardlp-xml(5), checked against data/shardlp.xsd): its meshes and its
 * ops with their operands, results (tensors: type, shape, element type,
 * sharding), properties, regions and attributes, written from a module
 * and read back into one.  Reading validates against the compiled-in
 * schema, then builds the module through the MLIR reader from the ops'
 * generic form, laid out on the XML's lines, so that an error in an
 * attribute's text is reported at its line in the XML file.
 *
 * Ownership: the writer only reads the module (it numbers values in their
 * scratch id); the reader returns a new module the caller frees.
 */
#ifndef SL_FORMATS_XML_PROBLEM_H
#define SL_FORMATS_XML_PROBLEM_H

#include <stdbool.h>
#include <stdio.h>

#include "ir/ir.h"

/* Whether text is XML rather than MLIR: its first character other than
 * white space (and a byte order mark) is '<'. */
bool sli_xml_problem_sniff(const char *text, size_t len);

/*
 * Reads a <shardlp-problem> document into a new module.  name is the
 * file name of the diagnostics.  NULL after located diagnostics: XML not
 * well-formed, a schema violation (an operand naming no value among
 * them), or an op the MLIR reader rejects (at its line in the XML).
 */
sl_module *sli_xml_problem_parse(sl_context *ctx, const char *name,
                                 const char *text, size_t len);

#endif
