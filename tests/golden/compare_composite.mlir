// shardlp compare --csv on a composite (composite_propagate.mlir): the ILP
// and every greedy strategy see the decomposition's body through the
// composite, as through a call, and agree on the optimum (before
// composites were read as calls, greedy stopped at the composite with a
// warning and scored 8.704e-11 s).
// SHARDLP: compare --csv
// INPUT: tests/golden/composite_propagate.mlir
// EXPECT:
// file,method,status,cost,compute_s,comm_s,peak_mem_bytes,over_budget,in_model,all_gather_n,all_gather_bytes,all_to_all_n,all_to_all_bytes,all_reduce_n,all_reduce_bytes,reduce_scatter_n,reduce_scatter_bytes,collective_permute_n,collective_permute_bytes,bound,gap,ratio,seconds
// composite_propagate.mlir,ilp,optimal,1.088e-11,1.088e-11,0,1664,0,,0,0,0,0,0,0,0,0,0,0,1.088e-11,0,1,*
// composite_propagate.mlir,basic,ok,1.088e-11,1.088e-11,0,1664,0,1,0,0,0,0,0,0,0,0,0,0,,,1,*
// composite_propagate.mlir,aggressive,ok,1.088e-11,1.088e-11,0,1664,0,1,0,0,0,0,0,0,0,0,0,0,,,1,*
// composite_propagate.mlir,op-priority,ok,1.088e-11,1.088e-11,0,1664,0,1,0,0,0,0,0,0,0,0,0,0,,,1,*
// composite_propagate.mlir,user-priority,ok,1.088e-11,1.088e-11,0,1664,0,1,0,0,0,0,0,0,0,0,0,0,,,1,*
