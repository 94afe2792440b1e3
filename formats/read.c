/*
 * read.c - sl_module_parse and its kin: a program's text, in MLIR or as a
 * sharding problem in XML (shardlp-xml(5)).  Apart from the MLIR parser so
 * that what reads only MLIR (shardlp-opt, through sli_mlir_parse_at)
 * links without the XML reader and libxml2: loading libxml2 and the
 * libraries it needs took 4-6 ms of every start of shardlp-opt, more than
 * the whole run on most of Shardy's test cases.
 */
#include "shardlp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats/mlir_parser.h"
#include "formats/xml_problem.h"
#include "ir/context.h"
#include "util.h"

sl_module *
sl_module_parse(sl_context *ctx, const char *name, const char *text, size_t len)
{
	return sl_module_parse_at(ctx, name, text, len, 1);
}

sl_module *
sl_module_parse_at(sl_context *ctx, const char *name, const char *text, size_t len,
                   unsigned first_line)
{
	/* a sharding problem in XML reads as its program */
	if (sli_xml_problem_sniff(text, len))
		return sli_xml_problem_parse(ctx, name, text, len);
	return sli_mlir_parse_at(ctx, name, text, len, first_line);
}

sl_module *
sl_module_parse_file(sl_context *ctx, const char *path)
{
	size_t len;
	char *text = sli_read_file(path, &len);
	if (!text) {
		sli_error(ctx, sli_loc_none(), "cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	sl_module *m = sl_module_parse(ctx, strcmp(path, "-") ? path : "<stdin>", text, len);
	free(text);
	return m;
}
