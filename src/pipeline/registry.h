/*
 * registry.h - the table of every pass shardlp runs by name: the import
 * and export passes (src/passes), the populate pass (src/rules), the four
 * propagation passes (src/propagation) and the pipelines (this folder).
 * It sits above all of them, so that none of them names another's
 * passes.  shardlp-opt's flags, sl_pass_run and --help read it.
 */
#ifndef SL_PIPELINE_REGISTRY_H
#define SL_PIPELINE_REGISTRY_H

#include "passes/pass.h"

typedef struct sli_pass_info {
	const char *flag;		/* e.g. "sdy-basic-propagate" */
	sli_pass_fn *run;
	const sli_opt_family *options;	/* the options it takes */
	const char *summary;
} sli_pass_info;

extern const sli_pass_info sli_passes[];
extern const size_t sli_npasses;

const sli_pass_info *sli_pass_find(const char *flag, size_t n);
/* Parses the options of pass p ("a=1,b=true" or {a=1 b=true}; NULL: none)
 * into *out (sli_pass_opts_fini it); -1 with a message in err. */
int sli_pass_opts_parse(const sli_pass_info *p, const char *text,
                        sli_pass_opts *out, char *err, size_t errlen);

#endif
