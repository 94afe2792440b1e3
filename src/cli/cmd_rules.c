#include "cli/cli.h"

int
cmd_rules(int argc, char **argv)
{
	return EXIT_USAGE;
}
