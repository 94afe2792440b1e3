/*
 * xml_mesh.h - the XML mesh (cluster) description (shardlp-xml(5)): a
 * mesh's axes, the bandwidth and latency of the links along each axis,
 * and the device (peak FLOP/s per element type, HBM, memory budget),
 * read with libxml2 and validated against
 * the schema data/shardlp.xsd (compiled in).  It fills the cost model's
 * parameters (cost/cost.h) and can be held against a module's sdy.mesh.
 *
 * Ownership: an sli_xml_mesh is caller-owned and holds no heap memory;
 * its names are interned in the context, which must outlive it.  Cost
 * parameters filled from it point into it, so it must outlive them too.
 */
#ifndef SL_FORMATS_XML_MESH_H
#define SL_FORMATS_XML_MESH_H

#include "cost/cost.h"

/* Which optional fields the file gave (sli_xml_mesh.set). */
enum {
	SLI_XML_MESH_MEMORY_BUDGET = 1u << 0,
	SLI_XML_MESH_FLOPS = 1u << 1,
	SLI_XML_MESH_HBM = 1u << 2
};

#define SLI_XML_MESH_MAX_TYPES 8	/* <flops type=..> entries */

typedef struct sli_xml_mesh_axis {
	sl_sym name;
	int64_t size;
	double bandwidth;	/* bytes/s; 0 without a <link>: the default */
	double latency;		/* seconds; -1 without a <link>: the default */
	sl_loc loc;		/* of <axis> */
	sl_loc size_loc;	/* of its size attribute */
} sli_xml_mesh_axis;

typedef struct sli_xml_mesh {
	sl_sym name;		/* <shardlp-mesh name=..>, 0 when absent */
	sl_loc loc;		/* of <shardlp-mesh> */
	sli_xml_mesh_axis axes[SLI_COST_MAX_AXES];
	uint32_t naxes;
	unsigned set;		/* SLI_XML_MESH_* */
	double flops, hbm, memory_budget;	/* <device> */
	sli_cost_flops types[SLI_XML_MESH_MAX_TYPES];	/* <flops> */
	uint32_t ntypes;
	/* what sli_xml_mesh_apply points sli_cost_params.axes at */
	sli_cost_axis links[2 * SLI_COST_MAX_AXES];
} sli_xml_mesh;

/*
 * Reads the mesh description in the file at path into *mesh and, when
 * params is not NULL, applies all of it (sli_xml_mesh_apply, keep 0).  Returns 0, or -1
 * after `file:line:col` diagnostics: not well-formed XML, a schema
 * violation, a root other than <shardlp-mesh>, a <link> to an unknown
 * axis, a bandwidth that is not a positive finite number, more axes than
 * the cost model takes.  On -1 params is untouched and *mesh unspecified.
 */
int sli_xml_read_mesh_costs(sl_context *ctx, const char *path,
                            sli_xml_mesh *mesh, sli_cost_params *params);
/* The same on text in memory; name is the file name of the diagnostics. */
int sli_xml_mesh_parse(sl_context *ctx, const char *name, const char *text,
                       size_t len, sli_xml_mesh *mesh);

/*
 * Fills p from the description: the device figures and the budget the
 * file gives replace p's, except those whose SLI_XML_MESH_* bit is in keep (options
 * given on the command line); p->axes becomes the file's links followed
 * by the entries p already had (from --axis), which therefore win for the
 * same axis (the cost model takes the last entry of a name); its per-type
 * FLOP/s replace p's when it gives any.  p points
 * into mesh afterwards.  Applying twice does not repeat the links.
 */
void sli_xml_mesh_apply(sli_xml_mesh *mesh, sli_cost_params *p, unsigned keep);

/*
 * Holds the description against m's sdy.mesh: the one named like it, or
 * the module's only mesh with axes when the description has no name.
 * The axes must agree in names, order and sizes.  Returns 0, or -1 after
 * an error located in the XML file and a note at the module's mesh.
 * mesh must have been read with m's context.
 */
int sli_xml_mesh_check(const sli_xml_mesh *mesh, const sl_module *m);

/*
 * Validates any shardlp XML document (a mesh description or a report of
 * formats/xml_report.c) against the schema.  Returns 0, or -1 after
 * located diagnostics.
 */
int sli_xml_validate(sl_context *ctx, const char *name, const char *text,
                     size_t len);

/* The schema, data/shardlp.xsd, compiled in (formats/xml_schema.c). */
extern const char sli_xml_schema[];
extern const size_t sli_xml_schema_len;

#endif
