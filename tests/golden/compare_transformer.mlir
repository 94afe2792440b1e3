// shardlp compare --csv on data/transformer.mlir, a one-layer transformer
// block; pins the cost of the ILP and of each greedy strategy, and its
// parts.
// Checked (the cost is a step time in seconds on the default cluster of
// shardlp-cost(7)): the ILP row as --no-decompose (the whole model)
// gives it; in every row cost = compute_s + comm_s, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// SHARDLP: compare --csv
// INPUT: data/transformer.mlir
// EXPECT:
// file,method,status,cost,compute_s,comm_s,peak_mem_bytes,over_budget,in_model,all_gather_n,all_gather_bytes,all_to_all_n,all_to_all_bytes,all_reduce_n,all_reduce_bytes,reduce_scatter_n,reduce_scatter_bytes,collective_permute_n,collective_permute_bytes,bound,gap,ratio,seconds
// transformer.mlir,ilp,optimal,1.51407802e-05,1.790016e-08,1.512288e-05,172288,0,,1,4096,0,0,1,8192,0,0,0,0,1.51407802e-05,0,1,*
// transformer.mlir,basic,ok,2.01804397e-05,1.659968e-08,2.016384e-05,164096,0,1,0,0,0,0,2,16384,0,0,0,0,,,1.33285336,*
// transformer.mlir,aggressive,ok,2.01804397e-05,1.659968e-08,2.016384e-05,164096,0,1,0,0,0,0,2,16384,0,0,0,0,,,1.33285336,*
// transformer.mlir,op-priority,ok,2.01804397e-05,1.659968e-08,2.016384e-05,164096,0,1,0,0,0,0,2,16384,0,0,0,0,,,1.33285336,*
// transformer.mlir,user-priority,ok,2.01804397e-05,1.659968e-08,2.016384e-05,164096,0,1,0,0,0,0,2,16384,0,0,0,0,,,1.33285336,*
