/*
 * cli_load.c - the inputs of shardlp's commands: a program in MLIR or a
 * sharding problem in XML, read, parsed and verified.  Not linked into
 * shardlp-opt, which reads MLIR only, as sdy_opt does, and an empty file
 * as an empty module.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* True when text holds nothing but white space and // comments. */
static bool
blank(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				i++;
		} else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			return false;
		}
	}
	return true;
}

/*
 * mlir-opt reads an empty file as an empty module; for the user's tool an
 * empty file is almost always a mistake (a wrong path, a failed export).
 */
char *
cli_source(cli_sink *sink, const char *path, size_t *len, const char **name)
{
	char *text = cli_read("shardlp", path, len);
	if (!text)
		return NULL;
	*name = strcmp(path, "-") ? path : "<stdin>";
	cli_sink_set_source(sink, *name, text, *len);
	if (blank(text, *len)) {
		fprintf(stderr, "%s:1:1: error: empty input: no module or operation\n", *name);
		cli_sink_set_source(sink, *name, NULL, 0);
		free(text);
		return NULL;
	}
	return text;
}

sl_module *
cli_load(sl_context *ctx, cli_sink *sink, const char *path, char **text)
{
	size_t len;
	const char *name;
	*text = cli_source(sink, path, &len, &name);
	if (!*text)
		return NULL;
	return cli_parse(ctx, name, *text, len);
}

/* m when it verifies; NULL (m freed) after its diagnostics otherwise. */
static sl_module *
verified(sl_module *m)
{
	if (m && sl_module_verify(m)) {
		sl_module_free(m);
		m = NULL;
	}
	return m;
}

sl_module *
cli_parse_src(sl_context *ctx, const cli_src *s)
{
	return verified(sl_module_parse_at(ctx, s->name, s->text, s->len, s->line));
}

sl_module *
cli_parse(sl_context *ctx, const char *name, const char *text, size_t len)
{
	return verified(sl_module_parse(ctx, name, text, len));
}
