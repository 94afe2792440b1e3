/* cli.c - diagnostic sink and file reading shared by the programs. */
#include "cli.h"
#include "cli_out.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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

/* FNV-1a over n bytes, continuing from h. */
static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211u;
	return h;
}

/* Whether d was printed before (by its hash; recorded if not). */
static bool
seen_before(cli_sink *s, const sl_diag *d)
{
	uint64_t h = 14695981039346656037u;
	const char *file = sl_sym_str(s->ctx, d->loc.file);
	h = fnv(h, file, strlen(file) + 1);
	h = fnv(h, &d->loc.line, sizeof d->loc.line);
	h = fnv(h, &d->loc.col, sizeof d->loc.col);
	h = fnv(h, &d->severity, sizeof d->severity);
	h = fnv(h, d->message, strlen(d->message));
	for (size_t i = 0; i < s->nseen; i++)
		if (s->seen[i] == h)
			return true;
	if (s->nseen == s->capseen) {
		s->capseen = s->capseen ? s->capseen * 2 : 16;
		s->seen = oom(realloc(s->seen, sizeof *s->seen * s->capseen));
	}
	s->seen[s->nseen++] = h;
	return false;
}

static void
sink(void *ud, const sl_diag *d)
{
	cli_sink *s = ud;
	if (d->severity == SL_DIAG_ERROR && !s->first_error[0]) {
		if (d->loc.line)
			snprintf(s->first_error, sizeof s->first_error, "%s:%u:%u: %s",
			         sl_sym_str(s->ctx, d->loc.file), d->loc.line, d->loc.col,
			         d->message);
		else
			snprintf(s->first_error, sizeof s->first_error, "%s", d->message);
	}
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
	if (s->once && seen_before(s, d))
		return;
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
	free(s->seen);
	s->seen = NULL;
	s->nseen = s->capseen = 0;
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
	char *p = sl_read_text(f, len);
	int err = errno;
	if (f != stdin)
		fclose(f);
	if (!p && err == ENOMEM)
		fprintf(stderr, "%s: out of memory reading '%s'\n", prog, path);
	else if (!p)
		fprintf(stderr, "%s: cannot read '%s'\n", prog, path);
	return p;
}

/* Whether the line at p is exactly "// -----" (trailing blanks allowed). */
static bool
is_separator(const char *p, const char *e)
{
	if (e - p < 8 || strncmp(p, "// -----", 8))
		return false;
	for (p += 8; p < e && *p != '\n'; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return false;
	return true;
}

cli_src *
cli_split(const char *name, const char *text, size_t len, bool split, size_t *n)
{
	cli_src *v = NULL;
	size_t cap = 0;
	const char *p = text, *e = text + len;
	unsigned line = 1;
	*n = 0;
	for (;;) {
		const char *q = p, *end = e, *next = NULL;
		unsigned lines = 0;
		for (; split && q < e; q++) {
			if ((q == text || q[-1] == '\n') && is_separator(q, e)) {
				end = q;
				const char *nl = memchr(q, '\n', (size_t)(e - q));
				next = nl ? nl + 1 : e;
				break;
			}
			lines += *q == '\n';
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 4;
			v = oom(realloc(v, cap * sizeof *v));
		}
		v[(*n)++] = (cli_src){name, p, (size_t)(end - p), line};
		if (!next)
			return v;
		line += lines + 1;
		p = next;
	}
}

/*
 * A non-negative finite number with an optional SI suffix (k M G T P
 * multiply, m u n divide) into *out.
 */
bool
cli_parse_number(const char *s, double *out)
{
	static const struct { char c; double f; } si[] = {
		{'k', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}, {'P', 1e15},
		{'m', 1e-3}, {'u', 1e-6}, {'n', 1e-9},
	};
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s)
		return false;
	for (size_t i = 0; *end && i < sizeof si / sizeof si[0]; i++)
		if (*end == si[i].c) {
			v *= si[i].f;
			end++;
			break;
		}
	if (*end || !isfinite(v) || v < 0)
		return false;
	*out = v;
	return true;
}
