#!/bin/bash
# run.sh - builds a libFuzzer target (fuzz_$FUZZ_TARGET.c: mlir, the MLIR
# reader; sdy, the sdy attribute parser and the arithmetic behind it; xml,
# the XML readers) with clang, ASan and UBSan over the library sources that
# src/local.mk, formats/local.mk and solver/local.mk list, and runs it.
#
# usage: tests/fuzz/run.sh [SECONDS] [libFuzzer options...]
#   SECONDS   run time (default 60); 0 builds only
# Environment: FUZZ_TARGET (mlir, sdy or xml; default mlir), FUZZ_DIR
# (build and corpus directory; default /tmp/shardlp-fuzz), FUZZ_JOBS
# (parallel fuzzing jobs, default 1).
# Crashes land in $FUZZ_DIR/crashes/ as crash-*, leak-*, timeout-*, oom-*;
# reproduce one with: $FUZZ_DIR/fuzz_mlir $FUZZ_DIR/crashes/crash-...
# clang is installed with apt-get when missing (as root, or through sudo).
set -eu
LC_ALL=C
export LC_ALL

top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
dir=${FUZZ_DIR:-/tmp/shardlp-fuzz}
target=${FUZZ_TARGET:-mlir}
case $target in
mlir) corpus=$dir/corpus seeds=$top/tests/fuzz/seeds ;;
sdy | xml) corpus=$dir/corpus-$target seeds=$top/tests/fuzz/seeds-$target ;;
*) echo "run.sh: unknown FUZZ_TARGET '$target' (mlir, sdy, xml)" >&2; exit 2 ;;
esac
dict=
[ ! -f "$top/tests/fuzz/$target.dict" ] || dict=-dict=$top/tests/fuzz/$target.dict
mkdir -p "$corpus" "$dir/crashes"

CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null 2>&1; then
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "run.sh: installing clang"
	$sudo apt-get update
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clang
fi

# The library's C files: every .c named in the src, formats and solver
# fragments (the core library's source lists), except the programs' own;
# comments are not lists.
sources() {
	sed -e '/^#/d' -e 's|%reldir%|'"$1"'|g' "$top/$1/local.mk" |
		tr ' \t\\' '\n\n\n' | grep '\.c$' | grep -v '/cli/'
}
srcs=$(for d in src formats solver; do sources "$d"; done | sort -u)

# config.h: the configured one if the tree is configured, else a minimal one.
inc="-I$top/src -I$top -I$top/formats"
if [ ! -f "$top/config.h" ]; then
	version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$top/configure.ac")
	mkdir -p "$dir/include"
	printf '#define PACKAGE_VERSION "%s"\n' "$version" >"$dir/include/config.h"
	inc="-I$dir/include $inc"
fi

echo "run.sh: building $dir/fuzz_$target"
# shellcheck disable=SC2086
# -D_GNU_SOURCE as Makefile.am's AM_CPPFLAGS: without it memmem and
# aligned_alloc are implicit declarations returning a truncated int.
(cd "$top" && "$CLANG" -std=gnu99 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	$inc $(pkg-config --cflags libxml-2.0 jansson) \
	-o "$dir/fuzz_$target" "tests/fuzz/fuzz_$target.c" $srcs \
	$(pkg-config --libs libxml-2.0 jansson) -lz -lglpk -lm)

[ "$secs" -gt 0 ] || exit 0

echo "run.sh: fuzzing $target for $secs s; corpus $corpus, crashes in $dir/crashes"
cd "$dir/crashes"
par=
[ "${FUZZ_JOBS:-1}" -le 1 ] || par="-jobs=$FUZZ_JOBS -workers=$FUZZ_JOBS"
set +e
# shellcheck disable=SC2086
"$dir/fuzz_$target" -max_total_time="$secs" -max_len=65536 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 $par $dict \
	"$@" "$corpus" "$seeds"
rc=$?
set -e
n=$(find "$dir/crashes" -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' | wc -l)
echo "run.sh: exit $rc, $n reproducer(s) in $dir/crashes"
exit $rc
