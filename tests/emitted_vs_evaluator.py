#!/usr/bin/env python3
"""emitted_vs_evaluator.py - issue 14's second measure: for each program,
the collectives the evaluator counts for a sharding against those Shardy's
export inserts for it.  The sharding is the propagation pipeline's (the
user-priority strategy of `shardlp compare`, whose CSV gives the
evaluator's counts: one per mesh axis, by kind); the emitted collectives
are those of `shardlp propagate --pipeline --collectives`, each counted
once per mesh axis it spans (its sub-axes together).  A program agrees when every kind (all-gather,
all-to-all, all-reduce) has the same count and no other collective (a
collective permute, a reduce-scatter) is emitted.  Prints N of M and the
programs that disagree with both counts; exit 0 (a report).
Usage: emitted_vs_evaluator.py BUILDDIR FILE|DIR..."""
import csv, io, os, re, subprocess, sys

KINDS = ("all_gather", "all_to_all", "all_reduce")
OP = re.compile(r"sdy\.(all_gather|all_to_all|all_reduce|collective_permute|reduce_scatter)"
                r"\s*(\[[^\]]*\]|\{[^}]*\})?")


def emitted(text):
    n = {k: 0 for k in KINDS + ("collective_permute", "reduce_scatter")}
    for m in OP.finditer(text):
        kind, axes = m.group(1), m.group(2) or ""
        # one per mesh axis: the sub-axes of one axis ("c":(1)4, "c":(4)2) count once
        names = set(re.findall(r'"([^"]*)"', axes))
        n[kind] += max(1, len(names)) if kind != "collective_permute" else 1
    return n


def files(args):
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                for f in sorted(names):
                    if f.endswith(".mlir"):
                        yield os.path.join(root, f)
        else:
            yield a


def main():
    build, paths = sys.argv[1], list(files(sys.argv[2:]))
    shardlp = os.path.join(build, "shardlp")
    agree = total = 0
    bad = []
    for p in paths:
        c = subprocess.run([shardlp, "compare", "--csv", "--methods", "user-priority", p],
                           capture_output=True, text=True, timeout=300)
        rows = [r for r in csv.DictReader(io.StringIO(c.stdout)) if r["status"] == "ok"]
        if not rows:
            continue
        e = subprocess.run([shardlp, "propagate", "--pipeline", "--collectives", p],
                           capture_output=True, text=True, timeout=300)
        if e.returncode:
            continue
        total += 1
        ev = {k: int(float(rows[0][k + "_n"] or 0)) for k in KINDS}
        em = emitted(e.stdout)
        ok = all(ev[k] == em[k] for k in KINDS) and not em["collective_permute"] \
            and not em["reduce_scatter"]
        agree += ok
        if not ok:
            bad.append("  %s: evaluator %s, emitted %s" % (
                p, " ".join("%s=%d" % (k, ev[k]) for k in KINDS),
                " ".join("%s=%d" % (k, v) for k, v in em.items() if v)))
    print("evaluator's collectives = the export's: %d of %d programs" % (agree, total))
    print("\n".join(bad))


main()
