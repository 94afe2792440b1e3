/* cli.c - diagnostic sink and file reading shared by the programs. */
#include "cli.h"
#include "cli_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *cli_prog = "shardlp";

void
cli_fatal(const char *message)
{
	fprintf(stderr, "%s: %s\n", cli_prog, message);
}

int
cli_usage_error(const char *cmd, const char *usage, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", cmd);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fputs(usage, stderr);
	return EXIT_USAGE;
}

static const char *const kinds[] = {"error", "warning", "remark", "note"};

static void
print_caret(const cli_sink *s, const sl_diag *d)
{
	if (!s->text || !d->loc.line || !s->name ||
	    strcmp(sl_sym_str(s->ctx, d->loc.file), s->name) != 0)
		return;
	const char *p = s->text, *e = s->text + s->len;
	for (unsigned line = 1; line < d->loc.line && p < e; line++) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			return;
		p = nl + 1;
	}
	const char *nl = memchr(p, '\n', (size_t)(e - p));
	size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);
	if (n > 200 || d->loc.col > n + 1)
		return;
	fprintf(stderr, "%.*s\n%*s^\n", (int)n, p, (int)d->loc.col - 1, "");
}

static void *
oom(void *p)
{
	if (!p) {
		fputs("shardlp: out of memory\n", stderr);
		abort();
	}
	return p;
}

char *
cli_xstrdup(const char *s)
{
	return oom(strdup(s));
}

char *
cli_xstrndup(const char *s, size_t n)
{
	return oom(strndup(s, n));
}

static void
sink(void *ud, const sl_diag *d)
{
	cli_sink *s = ud;
	if (s->record) {
		if (s->n == s->cap) {
			s->cap = s->cap ? s->cap * 2 : 16;
			s->v = oom(realloc(s->v, sizeof *s->v * s->cap));
		}
		cli_diag *c = &s->v[s->n++];
		c->severity = d->severity;
		c->line = d->loc.line;
		c->col = d->loc.col;
		c->file = strdup(sl_sym_str(s->ctx, d->loc.file));
		c->message = strdup(d->message);
		return;
	}
	if (d->loc.line)
		fprintf(stderr, "%s:%u:%u: %s: %s\n", sl_sym_str(s->ctx, d->loc.file),
		        d->loc.line, d->loc.col, kinds[d->severity], d->message);
	else
		fprintf(stderr, "%s: %s: %s\n", cli_prog, kinds[d->severity], d->message);
	print_caret(s, d);
}

void
cli_sink_init(cli_sink *s, sl_context *ctx)
{
	memset(s, 0, sizeof *s);
	s->ctx = ctx;
	sl_context_set_diag(ctx, sink, s);
}

void
cli_sink_clear(cli_sink *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].file);
		free(s->v[i].message);
	}
	s->n = 0;
}

void
cli_sink_fini(cli_sink *s)
{
	cli_sink_clear(s);
	free(s->v);
	s->v = NULL;
}

void
cli_sink_set_source(cli_sink *s, const char *name, const char *text, size_t len)
{
	s->name = name;
	s->text = text;
	s->len = len;
}

char *
cli_read(const char *prog, const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "%s: cannot open '%s': %s\n", prog, path, strerror(errno));
		return NULL;
	}
	if (f != stdin)
		cli_out_note_input(fileno(f));
	size_t cap = 1 << 16, n = 0;
	char *p = malloc(cap);
	while (p) {
		if (n + 1 >= cap) {
			char *q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				p = NULL;
				break;
			}
			p = q;
			cap *= 2;
		}
		size_t got = fread(p + n, 1, cap - n - 1, f);
		n += got;
		if (!got)
			break;
	}
	int err = ferror(f);
	if (f != stdin)
		fclose(f);
	if (!p) {
		fprintf(stderr, "%s: out of memory reading '%s'\n", prog, path);
		return NULL;
	}
	if (err) {
		fprintf(stderr, "%s: cannot read '%s'\n", prog, path);
		free(p);
		return NULL;
	}
	p[n] = 0;
	*len = n;
	return p;
}

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

sl_module *
cli_parse(sl_context *ctx, const char *name, const char *text, size_t len)
{
	sl_module *m = sl_module_parse(ctx, name, text, len);
	if (m && sl_module_verify(m)) {
		sl_module_free(m);
		m = NULL;
	}
	return m;
}
