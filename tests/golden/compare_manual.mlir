// shardlp compare --csv on data/manual.mlir: a manual computation; pins the
// cost of the ILP and of each greedy strategy, and its parts.
// Checked (the cost is a step time in seconds on the default cluster of
// shardlp-cost(7)): the ILP row as --no-decompose (the whole model)
// gives it; in every row cost = compute_s + comm_s, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// By hand, the ILP's bound: flops 2*8*16*8 + 64 + 64 = 2176 at 1e14
// FLOP/s, 2.176e-11 s, no communication (the body's dot_general split
// over "y"); the greedy strategies leave it replicated over "y" and
// compute twice as much.  The evaluator scores the model's optimum above
// the greedy incumbent, so the ILP answers with the incumbent, labelled
// feasible with gap 0.5 against the model's bound.
// SHARDLP: compare --csv
// INPUT: data/manual.mlir
// EXPECT:
// file,method,status,cost,compute_s,comm_s,peak_mem_bytes,over_budget,in_model,all_gather_n,all_gather_bytes,all_to_all_n,all_to_all_bytes,all_reduce_n,all_reduce_bytes,reduce_scatter_n,reduce_scatter_bytes,collective_permute_n,collective_permute_bytes,bound,gap,ratio,seconds
// manual.mlir,ilp,feasible,4.352e-11,4.352e-11,0,3584,0,,0,0,0,0,0,0,0,0,0,0,2.176e-11,0.5,1,*
// manual.mlir,basic,ok,4.352e-11,4.352e-11,0,3584,0,1,0,0,0,0,0,0,0,0,0,0,,,1,*
// manual.mlir,aggressive,ok,4.352e-11,4.352e-11,0,3584,0,1,0,0,0,0,0,0,0,0,0,0,,,1,*
// manual.mlir,op-priority,ok,4.352e-11,4.352e-11,0,3584,0,1,0,0,0,0,0,0,0,0,0,0,,,1,*
// manual.mlir,user-priority,ok,4.352e-11,4.352e-11,0,3584,0,1,0,0,0,0,0,0,0,0,0,0,,,1,*
