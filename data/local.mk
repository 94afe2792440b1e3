### Example programs

EXTRA_DIST += \
	%reldir%/attention.mlir \
	%reldir%/manual.mlir \
	%reldir%/mlp.mlir \
	%reldir%/transformer.mlir \
	%reldir%/while.mlir

## `make demo`: the main job on the default example.  It propagates when
## shardlp-opt knows the propagation pipeline, else parses, verifies and
## prints.
DEMO_INPUT = $(srcdir)/%reldir%/mlp.mlir
demo: shardlp-opt$(EXEEXT)
	@if ./shardlp-opt$(EXEEXT) --help 2>&1 | grep -q -e '-sdy-propagation-pipeline'; then \
	  echo "./shardlp-opt -sdy-propagation-pipeline $(DEMO_INPUT)"; \
	  ./shardlp-opt$(EXEEXT) -sdy-propagation-pipeline $(DEMO_INPUT); \
	else \
	  echo "./shardlp-opt $(DEMO_INPUT)"; \
	  ./shardlp-opt$(EXEEXT) $(DEMO_INPUT); \
	fi
.PHONY: demo
