// shardlp compare --csv on data/mlp.mlir: the default example; pins the
// cost of the ILP and of each greedy strategy, and its parts.
// Checked (the cost is a step time in seconds on the default cluster of
// shardlp-cost(7)): the ILP row as --no-decompose (the whole model)
// gives it; in every row cost = compute_s + comm_s, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// By hand (shardlp-cost(7)), the ILP row: flops 2*8*64*128 + 1024 +
// 1024 + 2*8*128*64 + 256 = 264448 per device at 1e14 FLOP/s, compute
// 2.64448e-09 s; one all-to-all over "y" (2 devices) of a 4096-byte
// piece, (2 - 1) (5e-6 + 4096 / 2 / 100e9) = 5.02048e-06 s, each device
// sending 2048 bytes (the greedy strategies' all-reduce of the second
// dot_general's result takes two steps: 1.002e-05 s).
// SHARDLP: compare --csv
// INPUT: data/mlp.mlir
// EXPECT:
// file,method,status,cost,compute_s,comm_s,peak_mem_bytes,over_budget,in_model,all_gather_n,all_gather_bytes,all_to_all_n,all_to_all_bytes,all_reduce_n,all_reduce_bytes,reduce_scatter_n,reduce_scatter_bytes,collective_permute_n,collective_permute_bytes,bound,gap,ratio,seconds
// mlp.mlir,ilp,optimal,5.02312448e-06,2.64448e-09,5.02048e-06,113924,0,,0,0,1,2048,0,0,0,0,0,0,5.02312448e-06,0,1,*
// mlp.mlir,basic,ok,1.0023127e-05,2.64704e-09,1.002048e-05,80644,0,1,0,0,0,0,1,2048,0,0,0,0,,,1.9953969,*
// mlp.mlir,aggressive,ok,1.0023127e-05,2.64704e-09,1.002048e-05,80644,0,1,0,0,0,0,1,2048,0,0,0,0,,,1.9953969,*
// mlp.mlir,op-priority,ok,1.0023127e-05,2.64704e-09,1.002048e-05,80644,0,1,0,0,0,0,1,2048,0,0,0,0,,,1.9953969,*
// mlp.mlir,user-priority,ok,1.0023127e-05,2.64704e-09,1.002048e-05,80644,0,1,0,0,0,0,1,2048,0,0,0,0,,,1.9953969,*
