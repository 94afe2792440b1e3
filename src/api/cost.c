/*
 * cost.c - the public face of the cost model (shardlp.h): parameters,
 * the XML mesh description, scoring a module and comparing the
 * shardings of two modules.  Each function converts and calls src/cost
 * or formats/xml_mesh.
 */
#include "api/cost.h"

#include <stdlib.h>
#include <string.h>

#include "formats/xml_mesh.h"

_Static_assert(SL_COST_MAX_AXES == SLI_COST_MAX_AXES, "one axis limit");
_Static_assert(SL_COST_MAX_TYPES == SLI_XML_MESH_MAX_TYPES, "one type limit");
_Static_assert((unsigned)SL_COST_GIVEN_MEMORY_BUDGET == SLI_XML_MESH_MEMORY_BUDGET &&
               (unsigned)SL_COST_GIVEN_FLOPS == SLI_XML_MESH_FLOPS &&
               (unsigned)SL_COST_GIVEN_HBM == SLI_XML_MESH_HBM,
               "the keep bits of sli_xml_mesh_apply");
_Static_assert((int)SL_COLL_KINDS == (int)SLI_COLL_KINDS &&
               (int)SL_COLL_ALL_REDUCE == (int)SLI_COLL_ALL_REDUCE, "one list of kinds");

void
sli_api_cost_from(sli_api_cost *c, const sl_cost_params *p)
{
	sli_cost_params_init(&c->p);
	if (!p)
		return;
	c->p.bandwidth = p->bandwidth;
	c->p.latency = p->latency;
	c->p.flops = p->flops;
	c->p.hbm = p->hbm;
	c->p.memory_budget = p->memory_budget == SL_COST_BUDGET_HBM ? SLI_COST_BUDGET_HBM
	                                                           : p->memory_budget;
	c->p.conservative = p->conservative;
	c->p.sub_axes = p->sub_axes;
	c->p.sub_axes_primes = p->sub_axes_primes;
	c->p.sub_axes_anywhere = p->sub_axes_anywhere;
	/* a count past the array's end is the caller's slip: what the
	 * struct can hold is what there is */
	uint32_t n = p->naxes < 2 * SL_COST_MAX_AXES ? p->naxes : 2 * SL_COST_MAX_AXES;
	for (uint32_t i = 0; i < n; i++) {
		c->axes[i].name = p->axes[i].name;
		c->axes[i].bandwidth = p->axes[i].bandwidth;
		c->axes[i].latency = p->axes[i].latency;
	}
	if (n) {
		c->p.axes = c->axes;
		c->p.naxes = n;
	}
	n = p->ntype_flops < SL_COST_MAX_TYPES ? p->ntype_flops : SL_COST_MAX_TYPES;
	for (uint32_t i = 0; i < n; i++) {
		c->types[i].type = p->type_flops[i].type;
		c->types[i].flops = p->type_flops[i].flops;
	}
	if (n) {
		c->p.type_flops = c->types;
		c->p.ntype_flops = n;
	}
}

void
sli_api_parts_to(sl_cost_parts *out, const sli_cost_parts *in)
{
	memset(out, 0, sizeof *out);
	out->compute = in->compute / SLI_COST_UNIT;
	out->communication = in->communication / SLI_COST_UNIT;
	out->total = in->total / SLI_COST_UNIT;
	out->peak_bytes = in->peak_bytes;
	out->budget = in->budget;
	for (int k = 0; k < SL_COLL_KINDS; k++) {
		out->ncoll[k] = in->ncoll[k];
		out->coll_bytes[k] = in->coll_bytes[k];
	}
}

void
sl_cost_params_init(sl_cost_params *p)
{
	sli_cost_params d;
	sli_cost_params_init(&d);
	memset(p, 0, sizeof *p);
	p->bandwidth = d.bandwidth;
	p->latency = d.latency;
	p->flops = d.flops;
	p->hbm = d.hbm;
	p->memory_budget = d.memory_budget == SLI_COST_BUDGET_HBM ? SL_COST_BUDGET_HBM
	                                                          : d.memory_budget;
	p->conservative = d.conservative;
	p->sub_axes = d.sub_axes;
	p->sub_axes_primes = d.sub_axes_primes;
	p->sub_axes_anywhere = d.sub_axes_anywhere;
}

int
sl_cost_params_read_mesh_xml(sl_context *ctx, const char *path,
                             const sl_module *m, sl_cost_params *p,
                             unsigned keep)
{
	sli_xml_mesh mesh;
	sli_api_cost c;
	if (sli_xml_read_mesh_costs(ctx, path, &mesh, NULL) < 0 ||
	    sli_xml_mesh_check(&mesh, m) < 0)
		return -1;
	sli_api_cost_from(&c, p);
	sli_xml_mesh_apply(&mesh, &c.p, keep);
	p->flops = c.p.flops;
	p->hbm = c.p.hbm;
	p->memory_budget = c.p.memory_budget;
	p->ntype_flops = 0;
	for (uint32_t i = 0; i < c.p.ntype_flops && i < SL_COST_MAX_TYPES; i++)
		p->type_flops[p->ntype_flops++] =
			(sl_cost_flops){c.p.type_flops[i].type, c.p.type_flops[i].flops};
	p->naxes = 0;
	for (uint32_t i = 0; i < c.p.naxes && i < 2 * SL_COST_MAX_AXES; i++) {
		p->axes[i].name = c.p.axes[i].name;
		p->axes[i].bandwidth = c.p.axes[i].bandwidth;
		p->axes[i].latency = c.p.axes[i].latency;
		p->naxes++;
	}
	return 0;
}

int
sl_cost_eval(sl_module *m, const sl_cost_params *p, sl_cost_parts *out)
{
	sli_api_cost c;
	sli_cost_parts parts;
	sli_buf why;
	sli_api_cost_from(&c, p);
	sli_buf_init(&why);
	int rc = sli_cost_eval(m, &c.p, &parts, &why);
	if (rc && why.n)	/* a failure without a location of its own */
		sli_error(m->ctx, sli_loc_none(), "%.*s", (int)why.n, why.p);
	sli_buf_fini(&why);
	if (rc)
		memset(&parts, 0, sizeof parts);
	sli_api_parts_to(out, &parts);
	return rc ? -1 : 0;
}

struct sl_assignment {
	sli_cost_asg *q;	/* per tensor of the model */
	size_t n;
};

sl_assignment *
sl_assignment_read(sl_module *m, const sl_cost_params *p)
{
	sli_api_cost c;
	sli_cost_model cm;
	sli_api_cost_from(&c, p);
	if (sli_cost_model_build(m, &c.p, &cm))
		return NULL;
	sl_assignment *a = sli_xcalloc(1, sizeof *a);
	a->n = cm.tensors.n;
	a->q = sli_xcalloc(a->n + 1, sizeof *a->q);
	if (sli_cost_read(&cm, a->q, NULL)) {
		sl_assignment_free(a);
		a = NULL;
	}
	sli_cost_model_fini(&cm);
	return a;
}

void
sl_assignment_free(sl_assignment *a)
{
	if (!a)
		return;
	free(a->q);
	free(a);
}

long
sl_assignment_diff(const sl_assignment *a, const sl_assignment *b)
{
	if (!a || !b || a->n != b->n)
		return -1;
	long n = 0;
	for (size_t t = 0; t < a->n; t++)
		n += memcmp(&a->q[t], &b->q[t], sizeof *a->q) != 0;
	return n;
}
