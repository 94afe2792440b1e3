// shardlp compare --csv on data/attention.mlir, single-head self-attention;
// pins the cost of the ILP and of each greedy strategy, and its parts.
// Checked (the cost is a step time in seconds on the default cluster of
// shardlp-cost(7)): the ILP row's bound as --no-decompose (the whole
// model) gives it (its answer is another optimum of the model, which
// the export prices at 1.00426138e-05 s: shardlp-cost(7), "Ties");
// in every row cost = compute_s + comm_s, and the ILP's cost is at
// most each greedy strategy's.  Wall-clock seconds read "*".
// SHARDLP: compare --csv
// INPUT: data/attention.mlir
// EXPECT:
// file,method,status,cost,compute_s,comm_s,peak_mem_bytes,over_budget,in_model,all_gather_n,all_gather_bytes,all_to_all_n,all_to_all_bytes,all_reduce_n,all_reduce_bytes,reduce_scatter_n,reduce_scatter_bytes,collective_permute_n,collective_permute_bytes,bound,gap,ratio,seconds
// attention.mlir,ilp,optimal,1.00323738e-05,1.65376e-09,1.003072e-05,28680,0,,1,2048,1,1024,0,0,0,0,0,0,1.00323738e-05,0,1,*
// attention.mlir,basic,ok,2.00631091e-05,1.66912e-09,2.006144e-05,20488,0,1,0,0,0,0,2,6144,0,0,0,0,,,1.99983669,*
// attention.mlir,aggressive,ok,2.00631091e-05,1.66912e-09,2.006144e-05,20488,0,1,0,0,0,0,2,6144,0,0,0,0,,,1.99983669,*
// attention.mlir,op-priority,ok,2.00631091e-05,1.66912e-09,2.006144e-05,20488,0,1,0,0,0,0,2,6144,0,0,0,0,,,1.99983669,*
// attention.mlir,user-priority,ok,2.00631091e-05,1.66912e-09,2.006144e-05,20488,0,1,0,0,0,0,2,6144,0,0,0,0,,,1.99983669,*
