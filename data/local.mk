### Example programs

EXTRA_DIST += \
	%reldir%/attention.mlir \
	%reldir%/diagnostics/split.mlir \
	%reldir%/gspmd.mlir \
	%reldir%/manual.mlir \
	%reldir%/mlp.mlir \
	%reldir%/transformer.mlir \
	%reldir%/unsharded.mlir \
	%reldir%/while.mlir

## `make demo`: the main job on the default example.  With `shardlp
## compare` built in, it compares greedy propagation with the optimal (ILP)
## shardings, then runs a batch over the examples and a few generated
## programs into demo-out/ and draws its plot (demo-out/plot.svg); else,
## with the propagation pipeline, it propagates; else it parses, verifies
## and prints.
DEMO_INPUT = $(srcdir)/%reldir%/mlp.mlir
DEMO_GEN = mlp attention dag
demo: shardlp$(EXEEXT) shardlp-opt$(EXEEXT)
	@if ./shardlp$(EXEEXT) --help 2>&1 | grep -q '^  compare '; then \
	  echo "./shardlp compare $(DEMO_INPUT)"; \
	  ./shardlp$(EXEEXT) compare $(DEMO_INPUT) || exit 1; \
	  rm -rf demo-out && mkdir -p demo-out/gen && \
	  for m in $(DEMO_GEN); do for s in 1 2 3; do \
	    ./shardlp$(EXEEXT) gen $$m --layers 4 --hidden 64 --seq 16 --seed $$s \
	      -o demo-out/gen/$$m-$$s.mlir || exit 1; done; done; \
	  echo "./shardlp batch -j 2 --mesh data=2,model=4 --out demo-out $(srcdir)/%reldir%/*.mlir demo-out/gen"; \
	  ./shardlp$(EXEEXT) batch -j 2 --mesh data=2,model=4 --out demo-out \
	    $(srcdir)/%reldir%/*.mlir demo-out/gen || exit 1; \
	  echo "./shardlp plot -o demo-out/plot.svg demo-out/summary.csv"; \
	  ./shardlp$(EXEEXT) plot -o demo-out/plot.svg demo-out/summary.csv; \
	elif ./shardlp-opt$(EXEEXT) --help 2>&1 | grep -q -e '-sdy-propagation-pipeline'; then \
	  echo "./shardlp-opt -sdy-propagation-pipeline $(DEMO_INPUT)"; \
	  ./shardlp-opt$(EXEEXT) -sdy-propagation-pipeline $(DEMO_INPUT); \
	else \
	  echo "./shardlp-opt $(DEMO_INPUT)"; \
	  ./shardlp-opt$(EXEEXT) $(DEMO_INPUT); \
	fi
.PHONY: demo

### The XML schema (installed, for xmllint) and an example mesh description

dist_pkgdata_DATA = %reldir%/shardlp.xsd
EXTRA_DIST += %reldir%/mesh-4x2.xml

### Cluster presets (shardlp-cost(7), CLUSTERS), installed for --cluster

clusterdir = $(pkgdatadir)/clusters
dist_cluster_DATA = \
	%reldir%/clusters/h100-4x8.xml \
	%reldir%/clusters/h100-8.xml \
	%reldir%/clusters/tpu-v5e-4x4.xml

## what `make demo` leaves
clean-local: clean-demo
clean-demo:
	rm -rf demo-out
.PHONY: clean-demo
