/*
 * shardlp-opt - a drop-in for Shardy's sdy_opt: reads MLIR (a file or
 * stdin), runs the passes named by its flags in order, verifying after
 * each (-verify-each: after each step of a pipeline too), and prints
 * the result.  -split-input-file treats "// -----" lines
 * as separators between independent modules; -verify-diagnostics checks
 * the diagnostics against expected-* comments as mlir-opt does.
 */
#include "cli.h"
#include "cli_out.h"
#include "formats/mlir_parser.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pass_req {
	char *name;
	char *options;
} pass_req;

/* --mlir-print-ir-*: when the module goes to stderr around a pass */
enum {
	PRINT_BEFORE = 1,	/* before every pass */
	PRINT_AFTER = 2,	/* after every pass */
	PRINT_CHANGE = 4	/* after every pass that changed it */
};

typedef struct opts {
	const char *input, *output;
	bool split, verify_diags, debuginfo, generic, verify_each;
	bool only_expected;	/* -verify-diagnostics=only-expected */
	bool verify_steps;	/* verify after each step of a pipeline too */
	unsigned print_ir;	/* PRINT_* */
	pass_req *passes;
	size_t npasses;
} opts;

static void
usage(FILE *f)
{
	fputs("usage: shardlp-opt [options] [FILE]\n"
	      "\n"
	      "Reads MLIR (FILE or standard input), runs the passes given as flags in\n"
	      "order, and prints the resulting module.\n"
	      "\n"
	      "options:\n"
	      "  -o FILE                 write the output to FILE ('-' = stdout)\n"
	      "  -split-input-file       treat '// -----' lines as module separators\n"
	      "  -verify-diagnostics     check diagnostics against expected-* comments\n"
	      "  -mlir-print-debuginfo   print locations\n"
	      "  -mlir-print-op-generic  print every op in the generic form\n"
	      "  -verify-each            verify the module after each pass and after\n"
	      "                          each step of a pipeline pass\n"
	      "  -no-verify-each         do not verify the module after each pass\n"
	      "  -pass-pipeline=PIPELINE the passes as mlir-opt writes them:\n"
	      "                          'builtin.module(p1,p2{key=value},func.func(p3))'\n"
	      "  -verify-diagnostics=all|only-expected\n"
	      "                          only-expected: diagnostics without an\n"
	      "                          expected-* comment are not errors\n"
	      "  -mlir-print-ir-before-all, -mlir-print-ir-after-all,\n"
	      "  -mlir-print-ir-after-change\n"
	      "                          print the module to stderr around passes\n"
	      "  -mlir-disable-threading, -allow-unregistered-dialect\n"
	      "                          accepted (shardlp-opt runs on one thread and\n"
	      "                          keeps ops it does not know)\n"
	      "  Every option takes one or two dashes, and a value after '=' or\n"
	      "  as the next argument.\n"
	      "  -h, --help, --version\n"
	      "\n"
	      "passes (written -NAME or -NAME=OPTIONS, OPTIONS as 'key=value ...'):\n", f);
	const char *summary;
	for (size_t i = 0; sl_pass_name(i, &summary); i++)
		fprintf(f, "  -%-38s %s\n", sl_pass_name(i, NULL), summary);
}

/* Strips one level of surrounding quotes from an option value. */
static char *
unquote(const char *s)
{
	size_t n = strlen(s);
	if (n >= 2 && ((s[0] == '"' && s[n - 1] == '"') || (s[0] == '\'' && s[n - 1] == '\'')))
		return strndup(s + 1, n - 2);
	return strdup(s);
}

static void
add_pass(opts *o, char *name, char *options)
{
	pass_req *v = realloc(o->passes, sizeof *o->passes * (o->npasses + 1));
	if (!v)
		cli_fatal("out of memory");
	o->passes = v;
	o->passes[o->npasses].name = name;
	o->passes[o->npasses].options = options;
	o->npasses++;
}

/*
 * The end of the pipeline element at p: the first ',' or unbalanced ')'
 * outside braces and parentheses.
 */
static const char *
element_end(const char *p)
{
	int paren = 0, brace = 0;
	for (; *p; p++) {
		if (*p == '{')
			brace++;
		else if (*p == '}' && brace)
			brace--;
		else if (brace)
			continue;
		else if (*p == '(')
			paren++;
		else if (*p == ')' && !paren--)
			break;
		else if (*p == ',' && !paren)
			break;
	}
	return p;
}

/*
 * The passes of a textual pipeline, "builtin.module(a,b{k=v},
 * func.func(c))", appended in order: an anchor (builtin.module,
 * func.func, any op name followed by '(') runs its passes on the whole
 * module, where shardlp's passes act.  -1 with a message.
 */
static int
add_pipeline(opts *o, const char *p, const char *e)
{
	while (p < e) {
		while (p < e && (*p == ' ' || *p == ','))
			p++;
		if (p == e)
			return 0;
		const char *end = element_end(p);
		if (end > e)
			end = e;
		const char *paren = memchr(p, '(', (size_t)(end - p));
		const char *brace = memchr(p, '{', (size_t)(end - p));
		if (paren && (!brace || paren < brace)) {
			/* an anchor: its nested pipeline, without the ')' */
			const char *close = end;
			while (close > paren && close[-1] == ' ')
				close--;
			if (close[-1] != ')') {
				fprintf(stderr, "shardlp-opt: --pass-pipeline: missing ')' after "
				        "'%.*s'\n", (int)(end - p), p);
				return -1;
			}
			if (add_pipeline(o, paren + 1, close - 1))
				return -1;
		} else {
			size_t n = (size_t)((brace ? brace : end) - p);
			while (n && p[n - 1] == ' ')
				n--;
			char *name = cli_xstrndup(p, n);
			if (!sl_pass_exists(name)) {
				fprintf(stderr, "shardlp-opt: --pass-pipeline: unknown pass '%s'\n",
				        name);
				free(name);
				return -1;
			}
			char *options = NULL;
			if (brace) {
				const char *close = memchr(brace, '}', (size_t)(end - brace));
				if (!close) {
					fprintf(stderr, "shardlp-opt: --pass-pipeline: missing '}' in "
					        "'%.*s'\n", (int)(end - p), p);
					free(name);
					return -1;
				}
				options = cli_xstrndup(brace, (size_t)(close - brace) + 1);
			}
			add_pass(o, name, options);
		}
		p = end < e ? end + 1 : e;
	}
	return 0;
}

/* Options that take a value: the value after '=', or the next argument. */
static const char *const valued[] = {"o", "pass-pipeline", "verify-diagnostics"};

static int
parse_args(int argc, char **argv, opts *o)
{
	memset(o, 0, sizeof *o);
	o->verify_each = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o")) {
			if (++i >= argc) {
				fputs("shardlp-opt: option '-o' needs an argument\n", stderr);
				return -1;
			}
			o->output = argv[i];
			continue;
		}
		if (!strcmp(a, "-") || a[0] != '-') {
			if (o->input) {
				fprintf(stderr, "shardlp-opt: more than one input file: '%s'\n", a);
				return -1;
			}
			o->input = a;
			continue;
		}
		const char *flag = a + 1 + (a[1] == '-');
		/* an option that takes a value, written with a space before it */
		const char *value = NULL;
		for (size_t k = 0; k < sizeof valued / sizeof *valued; k++) {
			size_t n = strlen(valued[k]);
			if (!strncmp(flag, valued[k], n) && flag[n] == '=') {
				value = flag + n + 1;
			} else if (!strcmp(flag, valued[k]) && strcmp(flag, "verify-diagnostics")) {
				if (++i >= argc) {
					fprintf(stderr, "shardlp-opt: option '%s' needs a value\n", a);
					return -1;
				}
				value = argv[i];
			} else {
				continue;
			}
			if (!strcmp(valued[k], "o")) {
				o->output = value;
			} else if (!strcmp(valued[k], "pass-pipeline")) {
				if (add_pipeline(o, value, value + strlen(value)))
					return -1;
			} else if (!strcmp(value, "all") || !strcmp(value, "only-expected")) {
				o->verify_diags = true;
				o->only_expected = !strcmp(value, "only-expected");
			} else {
				fprintf(stderr, "shardlp-opt: option '-verify-diagnostics' takes "
				        "'all' or 'only-expected', not '%s'\n", value);
				return -1;
			}
			break;
		}
		if (value)
			continue;
		if (!strcmp(flag, "help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(cli_out_finish("shardlp-opt", EXIT_OK));
		}
		if (!strcmp(flag, "version")) {
			printf("shardlp-opt %s\n", sl_version());
			exit(cli_out_finish("shardlp-opt", EXIT_OK));
		}
		if (!strcmp(flag, "split-input-file")) {
			o->split = true;
		} else if (!strcmp(flag, "verify-diagnostics")) {
			o->verify_diags = true;
		} else if (!strcmp(flag, "mlir-print-debuginfo")) {
			o->debuginfo = true;
		} else if (!strcmp(flag, "mlir-print-op-generic")) {
			o->generic = true;
		} else if (!strcmp(flag, "verify-each") || !strcmp(flag, "verify-each=true")) {
			o->verify_each = o->verify_steps = true;
		} else if (!strcmp(flag, "no-verify-each") || !strcmp(flag, "verify-each=false")) {
			o->verify_each = o->verify_steps = false;
		} else if (!strcmp(flag, "allow-unregistered-dialect") ||
		           !strcmp(flag, "mlir-disable-threading")) {
			/* unknown ops are always kept; one thread always */
		} else if (!strcmp(flag, "mlir-print-ir-before-all")) {
			o->print_ir |= PRINT_BEFORE;
		} else if (!strcmp(flag, "mlir-print-ir-after-all")) {
			o->print_ir |= PRINT_AFTER;
		} else if (!strcmp(flag, "mlir-print-ir-after-change")) {
			o->print_ir |= PRINT_CHANGE;
		} else {
			const char *eq = strchr(flag, '=');
			size_t n = eq ? (size_t)(eq - flag) : strlen(flag);
			char *name = strndup(flag, n);
			if (!sl_pass_exists(name)) {
				fprintf(stderr, "shardlp-opt: unknown option '%s'\n", a);
				free(name);
				return -1;
			}
			add_pass(o, name, eq ? unquote(eq + 1) : NULL);
		}
	}
	if (!o->input)
		o->input = "-";
	return 0;
}

/* ==================================================================== */
/* -verify-diagnostics                                                    */
/* ==================================================================== */

typedef struct expect {
	sl_severity severity;
	unsigned line;
	char *text;
	bool re, matched;
} expect;

static bool
is_designator_only(const char *line, size_t n)
{
	const char *p = memmem(line, n, "expected-", 9);
	if (!p)
		return false;
	for (const char *q = line; q < p; q++)
		if (*q != ' ' && *q != '\t' && *q != '/')
			return false;
	return true;
}

/* Collects the expected-* comments of text[start..end) (lines from first). */
static size_t
collect_expects(const char *text, size_t len, unsigned first, expect **out)
{
	size_t n = 0, cap = 0;
	expect *v = NULL;
	/* index the line starts */
	size_t nlines = 1;
	for (size_t i = 0; i < len; i++)
		nlines += text[i] == '\n';
	const char **starts = malloc(sizeof *starts * (nlines + 1));
	size_t k = 0;
	starts[k++] = text;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			starts[k++] = text + i + 1;
	starts[k] = text + len + 1;
	static const char *const kinds[] = {"error", "warning", "remark", "note"};
	for (size_t l = 0; l < nlines; l++) {
		const char *line = starts[l];
		size_t ln = (size_t)(starts[l + 1] - line) - 1;
		const char *p = line, *e = line + ln;
		while ((p = memmem(p, (size_t)(e - p), "expected-", 9))) {
			p += 9;
			int kind = -1;
			for (int i = 0; i < 4; i++)
				if ((size_t)(e - p) >= strlen(kinds[i]) && !strncmp(p, kinds[i], strlen(kinds[i]))) {
					kind = i;
					p += strlen(kinds[i]);
					break;
				}
			if (kind < 0)
				continue;
			bool re = false;
			if (e - p >= 3 && !strncmp(p, "-re", 3)) {
				re = true;
				p += 3;
			}
			long target = (long)l;
			while (p < e && *p == ' ')
				p++;
			if (p < e && *p == '@') {
				p++;
				if (*p == '+' || *p == '-') {
					long d = strtol(p, (char **)&p, 10);
					target = (long)l + d;
				} else if (!strncmp(p, "above", 5)) {
					p += 5;
					target = (long)l - 1;
					while (target >= 0 && is_designator_only(starts[target],
					                                        (size_t)(starts[target + 1] - starts[target]) - 1))
						target--;
				} else if (!strncmp(p, "below", 5)) {
					p += 5;
					target = (long)l + 1;
					while ((size_t)target < nlines && is_designator_only(starts[target],
					                                        (size_t)(starts[target + 1] - starts[target]) - 1))
						target++;
				} else if (!strncmp(p, "unknown", 7)) {
					p += 7;
					target = -1 - (long)first;
				}
			}
			while (p < e && *p == ' ')
				p++;
			if (e - p < 2 || strncmp(p, "{{", 2))
				continue;
			const char *close = NULL;
			for (const char *q = e - 2; q >= p + 2; q--)
				if (q[0] == '}' && q[1] == '}') {
					close = q;
					break;
				}
			if (!close)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				v = realloc(v, sizeof *v * cap);
			}
			v[n].severity = (sl_severity)kind;
			v[n].line = (unsigned)(target + (long)first);
			v[n].text = strndup(p + 2, (size_t)(close - p - 2));
			v[n].re = re;
			v[n].matched = false;
			n++;
			p = close;
		}
	}
	free(starts);
	*out = v;
	return n;
}

/* Turns "a {{re}} b" into an extended regex with the literal parts escaped. */
static bool
regex_match(const char *pattern, const char *msg)
{
	size_t n = strlen(pattern);
	char *re = malloc(n * 2 + 1);
	size_t k = 0;
	const char *p = pattern;
	while (*p) {
		if (!strncmp(p, "{{", 2)) {
			const char *c = strstr(p + 2, "}}");
			if (!c)
				break;
			memcpy(re + k, p + 2, (size_t)(c - p - 2));
			k += (size_t)(c - p - 2);
			p = c + 2;
			continue;
		}
		if (strchr(".[]()*+?{}|^$\\", *p))
			re[k++] = '\\';
		re[k++] = *p++;
	}
	re[k] = 0;
	regex_t r;
	bool ok = false;
	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB) == 0) {
		ok = regexec(&r, msg, 0, NULL, 0) == 0;
		regfree(&r);
	}
	free(re);
	return ok;
}

static bool
expect_matches(const expect *x, const cli_diag *d)
{
	if (x->severity != d->severity || x->line != d->line)
		return false;
	if (x->re)
		return regex_match(x->text, d->message);
	return strstr(d->message, x->text) != NULL;
}

/* Checks recorded diagnostics against expectations; prints mismatches. */
static int
verify_expectations(const char *file, cli_sink *sink, expect *xs, size_t nx,
                    bool only_expected)
{
	static const char *const kinds[] = {"error", "warning", "remark", "note"};
	int bad = 0;
	for (size_t i = 0; i < sink->n; i++) {
		cli_diag *d = &sink->v[i];
		if (d->severity == SL_DIAG_NOTE && strstr(d->message, "see current operation"))
			continue;
		bool ok = false;
		for (size_t j = 0; j < nx; j++)
			if (expect_matches(&xs[j], d)) {
				xs[j].matched = true;
				ok = true;
			}
		if (!ok && !only_expected) {
			fprintf(stderr, "%s:%u:%u: error: unexpected %s: %s\n", file, d->line, d->col,
			        kinds[d->severity], d->message);
			bad = 1;
		}
	}
	for (size_t j = 0; j < nx; j++)
		if (!xs[j].matched) {
			fprintf(stderr, "%s:%u:1: error: expected %s \"%s\" was not produced\n", file,
			        xs[j].line, kinds[xs[j].severity], xs[j].text);
			bad = 1;
		}
	return bad;
}

/* ==================================================================== */
/* Processing                                                             */
/* ==================================================================== */

/* The module as it prints, in a heap string (NULL when out of memory). */
static char *
module_text(const sl_module *m, const opts *o, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	sl_print_opts po = {o->debuginfo, o->generic, false};
	int rc = sl_module_print(m, f, &po);
	if (fclose(f) || rc) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * --mlir-print-ir-*: "// -----// IR Dump After SdyBasicPropagate
 * (sdy-basic-propagate) //----- //" and the module, on stderr, as
 * mlir-opt prints them (the pass's name in CamelCase of its flag).
 */
static void
dump_ir(const char *when, const char *pass, const char *text, size_t len)
{
	fprintf(stderr, "// -----// IR Dump %s ", when);
	for (const char *p = pass; *p; p++)
		if (*p != '-')
			fputc(p == pass || p[-1] == '-' ? toupper((unsigned char)*p) : *p, stderr);
	fprintf(stderr, " (%s) //----- //\n", pass);
	fwrite(text, 1, len, stderr);
	fputc('\n', stderr);
}

/* Runs one module chunk; appends its output to out. 0 ok, 1 failed, 2 usage. */
static int
process(const opts *o, sl_context *ctx, cli_sink *sink, const char *name,
        const char *text, size_t len, unsigned first_line, FILE *out)
{
	sl_module *m = sli_mlir_parse_at(ctx, name, text, len, first_line);
	int rc = 0;
	if (!m || sl_module_verify(m)) {
		rc = 1;
		goto done;
	}
	for (size_t i = 0; i < o->npasses; i++) {
		char err[256];
		size_t blen = 0, alen = 0;
		char *before = o->print_ir ? module_text(m, o, &blen) : NULL;
		if (before && (o->print_ir & PRINT_BEFORE))
			dump_ir("Before", o->passes[i].name, before, blen);
		int r = sl_pass_run(m, o->passes[i].name, o->passes[i].options, err, sizeof err);
		char *after = o->print_ir & (PRINT_AFTER | PRINT_CHANGE) && r != -2
		              ? module_text(m, o, &alen) : NULL;
		if (after && ((o->print_ir & PRINT_AFTER) ||
		              !before || alen != blen || memcmp(before, after, alen)))
			dump_ir(r ? "After Failed" : "After", o->passes[i].name, after, alen);
		free(before);
		free(after);
		if (r == -2) {
			fprintf(stderr, "shardlp-opt: %s\n", err);
			rc = 2;
			goto done;
		}
		if (r || (o->verify_each && sl_module_verify(m))) {
			rc = 1;
			goto done;
		}
	}
	sl_print_opts po = {o->debuginfo, o->generic, false};
	if (sl_module_print(m, out, &po)) {
		fprintf(stderr, "shardlp-opt: write error\n");
		rc = 1;
	}
done:
	sl_module_free(m);
	return rc;
}

int
main(int argc, char **argv)
{
	opts o;
	cli_prog = "shardlp-opt";
	sl_set_fatal_hook(cli_fatal);
	if (parse_args(argc, argv, &o)) {
		fputs("usage: shardlp-opt [options] [FILE]; try 'shardlp-opt --help'\n", stderr);
		return EXIT_USAGE;
	}
	size_t len;
	char *text = cli_read("shardlp-opt", o.input, &len);
	if (!text)
		return EXIT_INPUT;
	cli_out co;
	FILE *out = cli_out_open(&co, "shardlp-opt", o.output);
	if (!out) {
		free(text);
		return EXIT_INPUT;
	}
	const char *name = strcmp(o.input, "-") ? o.input : "<stdin>";
	sl_context *ctx = sl_context_new();
	sl_context_set_verify_each(ctx, o.verify_steps);
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	cli_sink_set_source(&sink, name, text, len);
	sink.record = o.verify_diags;

	int status = EXIT_OK;
	size_t nchunks;
	cli_src *chunks = cli_split(name, text, len, o.split, &nchunks);
	for (size_t k = 0; k < nchunks; k++) {
		const cli_src *c = &chunks[k];
		if (k)
			fputs("// -----\n", out);
		int rc = process(&o, ctx, &sink, name, c->text, c->len, c->line, out);
		if (rc == 2) {
			status = EXIT_USAGE;
			break;
		}
		if (o.verify_diags) {
			expect *xs;
			size_t nx = collect_expects(c->text, c->len, c->line, &xs);
			if (verify_expectations(name, &sink, xs, nx, o.only_expected))
				status = EXIT_INPUT;
			for (size_t i = 0; i < nx; i++)
				free(xs[i].text);
			free(xs);
			cli_sink_clear(&sink);
		} else if (rc) {
			status = EXIT_INPUT;
		}
	}
	free(chunks);
	/* kept even when a chunk failed: the other chunks' output is valid */
	if (cli_out_close(&co, "shardlp-opt", true))
		status = EXIT_INPUT;
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	for (size_t i = 0; i < o.npasses; i++) {
		free(o.passes[i].name);
		free(o.passes[i].options);
	}
	free(o.passes);
	free(text);
	return status;
}
