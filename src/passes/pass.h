/*
 * pass.h - the pass table.  Every pass has one signature: it takes the
 * module and its parsed options, returns 0, or -1 after reporting
 * diagnostics.  shardlp-opt flags, `shardlp` subcommands and --help read
 * this table; adding a pass is one file and one row in pass.c.
 */
#ifndef SL_PASSES_PASS_H
#define SL_PASSES_PASS_H

#include "ir/ir.h"

/* key=value options of one pass invocation, e.g. "conservative-propagation=true". */
typedef struct sli_pass_opt {
	const char *key, *value;
} sli_pass_opt;

typedef struct sli_pass_opts {
	sli_pass_opt *v;
	uint32_t n;
} sli_pass_opts;

typedef int sli_pass_fn(sl_module *m, const sli_pass_opts *opts);

typedef struct sli_pass_info {
	const char *flag;		/* e.g. "sdy-basic-propagate" */
	sli_pass_fn *run;
	const char *const *options;	/* accepted option keys, NULL-terminated */
	const char *summary;
} sli_pass_info;

extern const sli_pass_info sli_passes[];
extern const size_t sli_npasses;

const sli_pass_info *sli_pass_find(const char *flag, size_t n);
/* Parses "a=1,b=true" (also {a=1 b=true}); -1 with a message in err. */
int sli_pass_opts_parse(const sli_pass_info *p, const char *text,
                        sli_pass_opts *out, char *err, size_t errlen);
void sli_pass_opts_free(sli_pass_opts *o);
/* Option value as boolean ("true"/"false"/"1"/"0"); `def` when absent. */
bool sli_pass_opt_bool(const sli_pass_opts *o, const char *key, bool def);
const char *sli_pass_opt_str(const sli_pass_opts *o, const char *key);

/* Passes defined in this folder. */
int sli_pass_canonicalize(sl_module *m, const sli_pass_opts *opts);
/* Defined in src/rules/. */
int sli_pass_populate_op_sharding_rules(sl_module *m, const sli_pass_opts *opts);

#endif
