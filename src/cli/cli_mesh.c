/*
 * cli_mesh.c - preparing a program: import of its encodings and the
 * auto-sharding options (cli_mesh.h).
 */
#include "cli_mesh.h"

#include <stdio.h>
#include <string.h>

const char cli_mesh_help[] =
	"auto-sharding options:\n"
	"  --mesh AXIS=SIZE,...  a mesh for a program that has none, such as\n"
	"                        data=2,model=4 (sdy.mesh @mesh)\n"
	"  --replace-mesh        --mesh replaces the program's own mesh\n"
	"  --pin ARGS:DIM=AXES   pin dimension DIM of main's arguments ARGS (N,\n"
	"                        N-M or *) to the mesh axes AXES (AXIS,...);\n"
	"                        may be repeated\n"
	"  --no-import           keep mhlo.sharding and xla.sdy.* strings as\n"
	"                        they are (by default they become sdy, as\n"
	"                        `shardlp import` does)\n";

int
cli_mesh_option(cli_mesh_opts *o, int c, const char *arg)
{
	switch (c) {
	case CLI_OPT_MESH:
		o->mesh = arg;
		return 0;
	case CLI_OPT_REPLACE_MESH:
		o->replace = true;
		return 0;
	case CLI_OPT_NO_IMPORT:
		o->no_import = true;
		return 0;
	case CLI_OPT_PIN:
		if (o->npins == CLI_MAX_PINS) {
			fprintf(stderr, "%s: at most %d --pin options\n", cli_prog, CLI_MAX_PINS);
			return -1;
		}
		o->pins[o->npins++] = arg;
		return 0;
	default:
		return 1;
	}
}

int
cli_mesh_apply(const cli_mesh_opts *o, sl_module *m, const char *path, bool tell)
{
	char err[256];
	/* tuples where XLA flattens them: Shardy shards their elements */
	if (sl_pass_run(m, "flatten-tuples", "", err, sizeof err) || sl_module_verify(m))
		return -1;
	/* the encodings of JAX, XLA and torch-xla first: they may hold the mesh */
	if (!o->no_import) {
		int rc = sl_pass_run(m, "sdy-import-xla", "", err, sizeof err);
		if (rc == -2) {
			fprintf(stderr, "%s: %s\n", cli_prog, err);
			return -1;
		}
		if (rc || sl_module_verify(m))
			return -1;
	}
	if (o->replace && !o->mesh) {
		fprintf(stderr, "%s: --replace-mesh needs --mesh\n", cli_prog);
		return -1;
	}
	if (o->mesh) {
		int rc = sl_module_set_mesh(m, o->mesh, o->replace, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "%s: %s: --mesh: %s\n", cli_prog, path, err);
			return -1;
		}
		/* a replaced mesh may leave shardings on axes it no longer has */
		if (rc == 1 && o->replace && sl_module_verify(m))
			return -1;
	}
	for (unsigned i = 0; i < o->npins; i++)
		if (sl_module_pin_args(m, o->pins[i], err, sizeof err) < 0) {
			fprintf(stderr, "%s: %s: %s\n", cli_prog, path, err);
			return -1;
		}
	if (tell && o->mesh && !sl_module_sharding_count(m))
		fprintf(stderr, "%s: %s: note: no value carries a sharding: greedy "
		        "propagation leaves every tensor replicated (--pin pins "
		        "some)\n", cli_prog, path);
	return 0;
}
