/*
 * options.c - the option tables of the pass families and the one parser
 * of option strings (options.h).  A family's table names each option
 * once, with its type and the field it sets.
 */
#include "passes/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define FIELD(f) offsetof(sli_pass_opts, f)

static const sli_opt_spec none_specs[] = {{NULL, SLI_OPT_BOOL, 0}};

static const sli_opt_spec rules_specs[] = {
	{"conservative-propagation", SLI_OPT_BOOL, FIELD(rules.conservative)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec import_calls_specs[] = {
	{"add-data-flow-edges-on-named-computations", SLI_OPT_BOOL,
	 FIELD(import_calls.edges_on_named)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec apply_specs[] = {
	{"debug-sharding-origins", SLI_OPT_BOOL, FIELD(apply.debug_origins)},
	{"debug-propagation-edge-sharding", SLI_OPT_BOOL, FIELD(apply.debug_edges)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec pipeline_specs[] = {
	{"dedup-functions-fully", SLI_OPT_BOOL, FIELD(pipeline.dedup_fully)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec propagate_specs[] = {
	{"keep-sharding-rules", SLI_OPT_BOOL, FIELD(prop.keep_sharding_rules)},
	{"conservative-propagation", SLI_OPT_BOOL, FIELD(prop.conservative)},
	{"debug-sharding-origins", SLI_OPT_BOOL, FIELD(prop.debug_origins)},
	{"debug-propagation-edge-sharding", SLI_OPT_BOOL, FIELD(prop.debug_edges)},
	{"debug-edge-source-sharding", SLI_OPT_BOOL, FIELD(prop.debug_edge_source)},
	{"module-dump-directory", SLI_OPT_STR, FIELD(prop.dump_dir)},
	{"dump-index", SLI_OPT_INT, FIELD(prop.dump_index)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec strategy_specs[] = {
	{"propagation-strategy", SLI_OPT_STRATEGY, FIELD(prop.strategy)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec priority_specs[] = {
	{"run-op-priority-propagation", SLI_OPT_BOOL, FIELD(prop.op_priority)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec sink_specs[] = {
	{"sink-debug-sharding-origins", SLI_OPT_BOOL, FIELD(sink.debug_origins)},
	{"sink-debug-propagation-edge-sharding", SLI_OPT_BOOL, FIELD(sink.debug_edges)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec rtc_specs[] = {
	{"keep-redundant-reshards", SLI_OPT_BOOL, FIELD(rtc.keep_redundant)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec xr_specs[] = {
	{"enable-full-version", SLI_OPT_BOOL, FIELD(xr.full)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec permutation_specs[] = {
	{"enable-halo-exchange", SLI_OPT_BOOL, FIELD(pip.halo)},
	{"replica-count", SLI_OPT_INT, FIELD(pip.replicas)},
	{"partition-count", SLI_OPT_INT, FIELD(pip.partitions)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec pip_specs[] = {
	{"filter", SLI_OPT_STR, FIELD(pip.filter)},
	{NULL, SLI_OPT_BOOL, 0}
};

static const sli_opt_spec export_specs[] = {
	{"enable-insert-explicit-collectives", SLI_OPT_BOOL, FIELD(exp.collectives)},
	{"remove-all-gather-reduce-scatter-for-cmv1", SLI_OPT_BOOL, FIELD(exp.cmv1)},
	{"keep-sharding-rules", SLI_OPT_BOOL, FIELD(exp.keep_rules)},
	{"avoid-export-for-partitioning", SLI_OPT_BOOL, FIELD(exp.avoid_partitioning)},
	{"update-non-divisible-input-output-shardings", SLI_OPT_BOOL, FIELD(exp.update_io)},
	{NULL, SLI_OPT_BOOL, 0}
};

const sli_opt_family sli_opts_none = {none_specs, NULL};
const sli_opt_family sli_opts_rules = {rules_specs, NULL};
const sli_opt_family sli_opts_import_calls = {import_calls_specs, NULL};
const sli_opt_family sli_opts_apply = {apply_specs, NULL};
const sli_opt_family sli_opts_pipeline = {pipeline_specs, NULL};
/* basic: the common options; aggressive adds the strategy; the priority
 * passes add the op-priority switch. */
const sli_opt_family sli_opts_propagate = {propagate_specs, NULL};
const sli_opt_family sli_opts_strategy = {strategy_specs, &sli_opts_propagate};
const sli_opt_family sli_opts_priority = {priority_specs, &sli_opts_strategy};
const sli_opt_family sli_opts_sink = {sink_specs, NULL};
const sli_opt_family sli_opts_rtc = {rtc_specs, NULL};
const sli_opt_family sli_opts_xr = {xr_specs, NULL};
const sli_opt_family sli_opts_export = {export_specs, &sli_opts_pipeline};
const sli_opt_family sli_opts_permutation = {permutation_specs, NULL};
const sli_opt_family sli_opts_pip = {pip_specs, &sli_opts_permutation};

void
sli_pass_opts_init(sli_pass_opts *o)
{
	memset(o, 0, sizeof *o);
	o->import_calls.edges_on_named = true;
	o->exp.update_io = true;
	o->prop.strategy = SLI_STRATEGY_AGGRESSIVE;
	o->prop.op_priority = true;
	o->pip.halo = true;
}

void
sli_pass_opts_fini(sli_pass_opts *o)
{
	free((char *)o->prop.dump_dir);
	o->prop.dump_dir = NULL;
	free((char *)o->pip.filter);
	o->pip.filter = NULL;
}

static const sli_opt_spec *
find_spec(const sli_opt_family *f, const char *key)
{
	for (; f; f = f->base)
		for (const sli_opt_spec *s = f->specs; s->key; s++)
			if (!strcmp(s->key, key))
				return s;
	return NULL;
}

static const char *const strategies[] = {
	[SLI_STRATEGY_AGGRESSIVE] = "aggressive",
	[SLI_STRATEGY_BASIC] = "basic",
	[SLI_STRATEGY_BASIC_THEN_AGGRESSIVE] = "basic-then-aggressive",
};

/* Stores value into the field of s; NULL, or what a good value looks like. */
static const char *
set_value(const sli_opt_spec *s, const char *value, sli_pass_opts *o)
{
	char *field = (char *)o + s->offset;
	switch (s->type) {
	case SLI_OPT_BOOL:
		if (!strcmp(value, "true") || !strcmp(value, "1"))
			*(bool *)field = true;
		else if (!strcmp(value, "false") || !strcmp(value, "0"))
			*(bool *)field = false;
		else
			return "true or false";
		return NULL;
	case SLI_OPT_STR:
		free(*(char **)field);
		*(char **)field = sli_xstrdup(value);
		return NULL;
	case SLI_OPT_INT: {
		char *end;
		errno = 0;
		long v = strtol(value, &end, 10);
		if (errno || end == value || *end || v < 0 || v > 999999)
			return "a number from 0 to 999999";
		*(int *)field = (int)v;
		return NULL;
	}
	case SLI_OPT_STRATEGY:
		for (int i = 0; i < (int)(sizeof strategies / sizeof *strategies); i++)
			if (!strcmp(value, strategies[i])) {
				*(int *)field = i;
				return NULL;
			}
		return "basic, aggressive or basic-then-aggressive";
	}
	return NULL;
}

/* One "key[=value]" token (a key alone means key=true); 0 or -1. */
static int
parse_token(const sli_opt_family *f, const char *pass, char *tok,
            sli_pass_opts *o, char *err, size_t errlen)
{
	char *eq = strchr(tok, '=');
	if (eq)
		*eq = 0;
	const char *value = eq ? eq + 1 : "true";
	const sli_opt_spec *s = find_spec(f, tok);
	if (!s) {
		snprintf(err, errlen, "unknown option '%s' for pass '%s'", tok, pass);
		return -1;
	}
	const char *want = set_value(s, value, o);
	if (want) {
		snprintf(err, errlen, "invalid value '%s' for option '%s' of pass '%s' "
		         "(expected %s)", value, tok, pass, want);
		return -1;
	}
	return 0;
}

/*
 * Where the token at tok ends: at a space or comma, except that a string
 * option's value runs to the next space (commas included), and a quoted
 * one ('...' or "...") to its closing quote, the quotes taken off.
 */
static char *
token_end(const sli_opt_family *f, char *tok)
{
	char *eq = tok + strcspn(tok, "= ,");
	if (*eq != '=')
		return eq;
	*eq = 0;
	const sli_opt_spec *s = find_spec(f, tok);
	*eq = '=';
	if (!s || s->type != SLI_OPT_STR)
		return eq + strcspn(eq, " ,");
	char *v = eq + 1, q = *v;
	if (q != '\'' && q != '"')
		return v + strcspn(v, " ");
	char *close = strchr(v + 1, q);
	size_t n = close ? (size_t)(close - v - 1) : strlen(v + 1);
	memmove(v, v + 1, n);
	v[n] = 0;
	return close ? close : v + n;
}

int
sli_pass_opts_parse_text(const sli_opt_family *f, const char *pass,
                         const char *text, sli_pass_opts *o, char *err,
                         size_t errlen)
{
	sli_pass_opts_init(o);
	if (!text)
		return 0;
	size_t len = strlen(text);
	if (len >= 2 && text[0] == '{' && text[len - 1] == '}') {
		text++;
		len -= 2;
	}
	char *buf = sli_xstrndup(text, len);
	int rc = 0;
	for (char *p = buf; !rc;) {
		p += strspn(p, " ,");
		if (!*p)
			break;
		char *tok = p;
		p = token_end(f, tok);
		if (*p)
			*p++ = 0;
		rc = parse_token(f, pass, tok, o, err, errlen);
	}
	free(buf);
	if (rc) {
		sli_pass_opts_fini(o);
		sli_pass_opts_init(o);
		return -1;
	}
	o->prop.debug_edges |= o->prop.debug_edge_source;
	return 0;
}
