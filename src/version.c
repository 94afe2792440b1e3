/* version.c - the library version string. */
#include "config.h"
#include "shardlp.h"

const char *
sl_version(void)
{
	return PACKAGE_VERSION;
}
