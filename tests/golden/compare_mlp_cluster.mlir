// shardlp compare --csv on data/mlp.mlir on the cluster of
// data/mesh-4x2.xml (x: 25e9 bytes/s, 10 us; y: 100e9 bytes/s, 1 us;
// 1e14 FLOP/s) with --axis y=50G:2u over the file: the links reach both
// the ILP and the evaluator, and an option wins over the file.
// By hand, the ILP row: one all-to-all over "y" of a 4096-byte piece,
// (2 - 1) (2e-6 + 4096 / 2 / 50e9) = 2.04096e-06 s (with the file's y,
// 1.02048e-06 s); the greedy strategies' all-reduce of a 2048-byte result,
// 2 (2 - 1) (2e-6 + 2048 / 2 / 50e9) = 4.04096e-06 s.
// Checked: the ILP row's cost as --no-decompose gives it.  Wall-clock
// seconds read "*".
// SHARDLP: compare --csv --cluster mesh-4x2.xml --axis y=50G:2u
// INPUT: data/mlp.mlir
// EXPECT:
// file,method,status,cost,compute_s,comm_s,peak_mem_bytes,over_budget,in_model,all_gather_n,all_gather_bytes,all_to_all_n,all_to_all_bytes,all_reduce_n,all_reduce_bytes,reduce_scatter_n,reduce_scatter_bytes,collective_permute_n,collective_permute_bytes,bound,gap,ratio,seconds
// mlp.mlir,ilp,optimal,2.04360448e-06,2.64448e-09,2.04096e-06,113924,0,,0,0,1,2048,0,0,0,0,0,0,2.04360448e-06,0,1,*
// mlp.mlir,basic,ok,4.04360704e-06,2.64704e-09,4.04096e-06,80644,0,1,0,0,0,0,1,2048,0,0,0,0,,,1.97866421,*
// mlp.mlir,aggressive,ok,4.04360704e-06,2.64704e-09,4.04096e-06,80644,0,1,0,0,0,0,1,2048,0,0,0,0,,,1.97866421,*
// mlp.mlir,op-priority,ok,4.04360704e-06,2.64704e-09,4.04096e-06,80644,0,1,0,0,0,0,1,2048,0,0,0,0,,,1.97866421,*
// mlp.mlir,user-priority,ok,4.04360704e-06,2.64704e-09,4.04096e-06,80644,0,1,0,0,0,0,1,2048,0,0,0,0,,,1.97866421,*
