/*
 * gspmd.h - XLA's HLO sharding strings (`mhlo.sharding = "{devices=[2,1]0,1}"`,
 * GSPMD's form) read into a struct, and the sdy mesh that expresses a set
 * of them.  Forms: {replicated}, {manual}, {unknown}, {maximal device=N},
 * {devices=[d0,...]<device order> ...} with the device order an explicit
 * list `0,1,2,3` or an iota `<=[8]`, `<=[2,4]T(1,0)`, followed by
 * `last_tile_dim_replicate` or `last_tile_dims={manual, replicated}`, and
 * tuples {{...}, {...}}.  `metadata={...}` is skipped.
 * Ownership: arrays are allocated in the arena the caller passes.
 */
#ifndef SL_FORMATS_GSPMD_H
#define SL_FORMATS_GSPMD_H

#include "ir/arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum sli_hlo_kind {
	SLI_HLO_REPLICATED,
	SLI_HLO_MANUAL,
	SLI_HLO_UNKNOWN,
	SLI_HLO_MAXIMAL,
	SLI_HLO_TILED,
	SLI_HLO_TUPLE,
} sli_hlo_kind;

typedef struct sli_hlo_sharding {
	sli_hlo_kind kind;
	int64_t device;			/* maximal */
	/* tiled: the tile assignment's shape, data dimensions first, then
	 * the nsub subgroup dimensions, whose kinds (REPLICATED or MANUAL)
	 * are in subgroups */
	int64_t *tile;
	uint32_t ntile;
	sli_hlo_kind *subgroups;
	uint32_t nsub;
	/* the device order: an explicit list, or (devices NULL) the iota
	 * over reshape dims `iota` transposed by `perm` */
	int64_t *devices;
	uint32_t ndevices;
	int64_t *iota, *perm;
	uint32_t niota;
	bool shard_group;		/* shard_as / shard_like: no sdy form */
	struct sli_hlo_sharding *elems;	/* tuple */
	uint32_t nelems;
	/* the sharding's own text, braces included: [off, off + len) of the
	 * string read (a tuple's elements are strings of their own) */
	size_t off, len;
} sli_hlo_sharding;

/*
 * Reads text [s, s+n) into *out.  0, or -1 with a message (lowercase, no
 * period) in msg and the byte offset of the fault in *err_off.
 */
int sli_gspmd_parse(sli_arena *a, const char *s, size_t n, sli_hlo_sharding *out,
                    size_t *err_off, char *msg, size_t msglen);

/* The number of devices of a tiled sharding. */
int64_t sli_gspmd_ndevices(const sli_hlo_sharding *h);

/*
 * The sdy mesh for a set of tiled shardings over the same devices: its
 * axes split the device order (major first) at `cuts`, a sorted set of
 * prefix products.  sli_gspmd_add_cuts adds the cuts one sharding needs
 * (false if its tiles split an axis of its device order unevenly, or its
 * device list is not an iota); sli_gspmd_mesh_sizes turns cuts into axis
 * sizes (false when the cuts of different shardings cross).
 */
typedef struct sli_gspmd_cuts {
	int64_t *v;
	uint32_t n;
	size_t cap;
	int64_t ndevices;
} sli_gspmd_cuts;

bool sli_gspmd_add_cuts(sli_gspmd_cuts *c, const sli_hlo_sharding *h);
bool sli_gspmd_mesh_sizes(const sli_gspmd_cuts *c, int64_t *sizes, uint32_t *n);
void sli_gspmd_cuts_fini(sli_gspmd_cuts *c);

/*
 * The mesh axes (indices into the sizes of sli_gspmd_mesh_sizes) of each
 * tile dimension of h, major first: axes[first[i] .. first[i+1]) belong
 * to tile dimension i.  `axes` has room for the mesh's axis count, `first`
 * for h->ntile + 1 entries.  False if h does not fit the mesh.
 */
bool sli_gspmd_tile_axes(const sli_gspmd_cuts *c, const sli_hlo_sharding *h,
                         uint32_t *axes, uint32_t *first);

#endif
