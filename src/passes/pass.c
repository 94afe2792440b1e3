/* pass.c - the pass table, option parsing and sl_pass_run. */
#include "passes/pass.h"

#include <stdlib.h>
#include <string.h>

static const char *const no_options[] = {NULL};
static const char *const rule_options[] = {"conservative-propagation", NULL};

const sli_pass_info sli_passes[] = {
	{"canonicalize", sli_pass_canonicalize, no_options,
	 "fold redundant sdy reshards and collectives"},
	{"sdy-populate-op-sharding-rules", sli_pass_populate_op_sharding_rules, rule_options,
	 "attach the sharding rule of every op as sdy.sharding_rule"},
};
const size_t sli_npasses = sizeof sli_passes / sizeof *sli_passes;

const sli_pass_info *
sli_pass_find(const char *flag, size_t n)
{
	for (size_t i = 0; i < sli_npasses; i++)
		if (strlen(sli_passes[i].flag) == n && !memcmp(sli_passes[i].flag, flag, n))
			return &sli_passes[i];
	return NULL;
}

int
sli_pass_opts_parse(const sli_pass_info *p, const char *text, sli_pass_opts *out,
                    char *err, size_t errlen)
{
	out->v = NULL;
	out->n = 0;
	if (!text)
		return 0;
	size_t len = strlen(text);
	if (len >= 2 && text[0] == '{' && text[len - 1] == '}') {
		text++;
		len -= 2;
	}
	char *buf = sli_xstrndup(text, len);
	char *save = NULL;
	for (char *tok = strtok_r(buf, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save)) {
		char *eq = strchr(tok, '=');
		if (eq)
			*eq = 0;
		const char *key = tok, *value = eq ? eq + 1 : "true";
		bool known = false;
		for (const char *const *k = p->options; *k; k++)
			known |= !strcmp(*k, key);
		if (!known) {
			snprintf(err, errlen, "unknown option '%s' for pass '%s'", key, p->flag);
			free(buf);
			sli_pass_opts_free(out);
			return -1;
		}
		out->v = sli_xrealloc(out->v, sizeof *out->v * (out->n + 1));
		out->v[out->n].key = sli_xstrdup(key);
		out->v[out->n].value = sli_xstrdup(value);
		out->n++;
	}
	free(buf);
	return 0;
}

void
sli_pass_opts_free(sli_pass_opts *o)
{
	for (uint32_t i = 0; i < o->n; i++) {
		free((char *)o->v[i].key);
		free((char *)o->v[i].value);
	}
	free(o->v);
	o->v = NULL;
	o->n = 0;
}

const char *
sli_pass_opt_str(const sli_pass_opts *o, const char *key)
{
	const char *v = NULL;
	for (uint32_t i = 0; o && i < o->n; i++)
		if (!strcmp(o->v[i].key, key))
			v = o->v[i].value;
	return v;
}

bool
sli_pass_opt_bool(const sli_pass_opts *o, const char *key, bool def)
{
	const char *v = sli_pass_opt_str(o, key);
	if (!v)
		return def;
	return !strcmp(v, "true") || !strcmp(v, "1");
}

bool
sl_pass_exists(const char *name)
{
	return sli_pass_find(name, strlen(name)) != NULL;
}

const char *
sl_pass_name(size_t i, const char **summary)
{
	if (i >= sli_npasses)
		return NULL;
	if (summary)
		*summary = sli_passes[i].summary;
	return sli_passes[i].flag;
}

int
sl_pass_run(sl_module *m, const char *name, const char *options, char *err, size_t errlen)
{
	const sli_pass_info *p = sli_pass_find(name, strlen(name));
	if (!p) {
		snprintf(err, errlen, "unknown pass '%s'", name);
		return -2;
	}
	sli_pass_opts opts;
	if (sli_pass_opts_parse(p, options, &opts, err, errlen))
		return -2;
	int rc = p->run(m, &opts);
	sli_pass_opts_free(&opts);
	return rc ? -1 : 0;
}
