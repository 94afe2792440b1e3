// shardlp compare --csv on data/while.mlir: a while loop; pins the cost of
// the ILP and of each greedy strategy, and its parts.
// Checked (the cost is a step time in seconds on the default cluster of
// shardlp-cost(7)): the ILP row as --no-decompose (the whole model) gives
// it.  Each method runs between the pipeline's import and export steps,
// and the loop's operand and body result are priced as reshards into its
// carried value; each row's score of the module before the export steps
// equals that after them (checked through the public API,
// sl_run_import/sl_run_export).  In every row cost = compute_s + comm_s,
// and the ILP's cost is at most each greedy strategy's (aggressive finds
// the optimum, with the same peak).  Wall-clock seconds read "*".
// SHARDLP: compare --csv
// INPUT: data/while.mlir
// EXPECT:
// file,method,status,cost,compute_s,comm_s,peak_mem_bytes,over_budget,in_model,all_gather_n,all_gather_bytes,all_to_all_n,all_to_all_bytes,all_reduce_n,all_reduce_bytes,reduce_scatter_n,reduce_scatter_bytes,collective_permute_n,collective_permute_bytes,bound,gap,ratio,seconds
// while.mlir,ilp,optimal,5.01610114e-06,7.4114e-10,5.01536e-06,44556,0,,1,1536,0,0,0,0,0,0,0,0,5.01610114e-06,0,1,*
// while.mlir,basic,ok,5.01610114e-06,7.4114e-10,5.01536e-06,44556,0,1,1,1536,0,0,0,0,0,0,0,0,,,1,*
// while.mlir,aggressive,ok,5.01610114e-06,7.4114e-10,5.01536e-06,43020,0,1,1,1536,0,0,0,0,0,0,0,0,,,1,*
// while.mlir,op-priority,ok,5.01610114e-06,7.4114e-10,5.01536e-06,43020,0,1,1,1536,0,0,0,0,0,0,0,0,,,1,*
// while.mlir,user-priority,ok,5.01610114e-06,7.4114e-10,5.01536e-06,43020,0,1,1,1536,0,0,0,0,0,0,0,0,,,1,*
