/*
 * cli_mesh.h - how `solve`, `compare`, `batch` and `propagate` prepare a
 * program they read: the sharding encodings of JAX, XLA and torch-xla
 * (mhlo.sharding, xla.sdy.* strings) turned into sdy (-sdy-import-xla;
 * --no-import skips it); --mesh AXIS=SIZE,... gives a program without a
 * mesh one, --replace-mesh replaces the program's own, --pin
 * ARGS:DIM=AXES pins dimensions of the main function's arguments
 * (sl_module_set_mesh, sl_module_pin_args).
 */
#ifndef SL_CLI_CLI_MESH_H
#define SL_CLI_CLI_MESH_H

#include "cli.h"

enum {
	CLI_OPT_MESH = 2100,
	CLI_OPT_REPLACE_MESH,
	CLI_OPT_PIN,
	CLI_OPT_NO_IMPORT
};

#define CLI_MESH_LONGOPTS \
	{"mesh", required_argument, NULL, CLI_OPT_MESH}, \
	{"replace-mesh", no_argument, NULL, CLI_OPT_REPLACE_MESH}, \
	{"pin", required_argument, NULL, CLI_OPT_PIN}, \
	{"no-import", no_argument, NULL, CLI_OPT_NO_IMPORT}

#define CLI_MAX_PINS 64

typedef struct cli_mesh_opts {
	const char *mesh;	/* --mesh, or NULL */
	bool replace;
	const char *pins[CLI_MAX_PINS];
	unsigned npins;
	bool no_import;		/* keep JAX/XLA encodings as they are */
} cli_mesh_opts;

/* Handles one of the options above: 0 taken, 1 not one of them, -1 bad. */
int cli_mesh_option(cli_mesh_opts *o, int c, const char *arg);
/*
 * Applies the options to m, just read from path: 0, or -1 after a
 * message on stderr.  With tell and --mesh, says on stderr when m then
 * carries no sharding at all (greedy propagation has nothing to start
 * from).
 */
int cli_mesh_apply(const cli_mesh_opts *o, sl_module *m, const char *path, bool tell);
extern const char cli_mesh_help[];

#endif
