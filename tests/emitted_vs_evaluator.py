#!/usr/bin/env python3
"""emitted_vs_evaluator.py - issue 14's second measure: for each program,
the collectives the evaluator prices for a sharding against those Shardy's
export inserts for it.  The sharding is the propagation pipeline's (the
user-priority strategy of `shardlp compare`, whose CSV gives the
evaluator's counts and bytes per kind); the emitted collectives are those
of `shardlp propagate --pipeline --collectives`, one per op.  The bytes
each device sends are worked out here from each emitted op alone (its
type, out_sharding, axes and the mesh's axis sizes), apart from shardlp's
evaluator:
  all_gather          the operand's bytes (out_sharding with the gathered
                      axes added) times the gathered sizes, less them
  reduce_scatter      the operand's bytes (the scattered axes removed)
                      less the result's
  all_to_all          per axis of size n, (n-1)/n of the operand's bytes
  all_reduce          per axis in order, 2(n-1)/n of what is left of the
                      result's bytes after the axes before it
  collective_permute  the result's bytes
A program agrees when every kind has the same count and (within 1e-6) the
same bytes.  The two propagations (compare's user-priority strategy on the
imported program, the pipeline's) may reach different shardings; a second
measure therefore feeds the pipeline's output (`propagate --pipeline`,
without collectives) to both sides again, so that both price the one
sharding.  Prints N of M for counts and for bytes, each measure, and the
programs that disagree; exit 0 (a report) unless --require: then 1 when
any program disagrees on the second measure.
Usage: emitted_vs_evaluator.py [--require] [-j N] BUILDDIR FILE|DIR...
       emitted_vs_evaluator.py [--require] [-j N] BUILDDIR --cases CONFORMANCEDIR
(--cases: the propagation cases of ilp_vs_greedy.py)"""
import concurrent.futures, csv, io, math, os, re, subprocess, sys, tempfile

from ilp_vs_greedy import cases, options  # the same cases and options

KINDS = ("all_gather", "all_to_all", "all_reduce", "reduce_scatter", "collective_permute")
COLL = re.compile(r"sdy\.(all_gather|all_to_all|all_reduce|collective_permute|reduce_scatter)"
                  r"\s*(.*?)\s*%[\w#]+ out_sharding=<@(\w+), \[(.*?)\]"
                  r"(?:, unreduced=\w*\{[^}]*\})?>.*?: tensor<([^>]*)>")
MESH = re.compile(r"sdy\.mesh @(\w+) = <\[(.*?)\]")
AXIS = re.compile(r'"([^"]*)"(?::\((\d+)\)(\d+))?')
A2A = re.compile(r'\{(.*?)\}:\s*(\d+)\s*->\s*(\d+)')
BYTES = {"f64": 8, "i64": 8, "ui64": 8, "f32": 4, "i32": 4, "ui32": 4, "f16": 2, "bf16": 2,
         "i16": 2, "ui16": 2, "i8": 1, "ui8": 1, "i1": 1}


def axes(text, mesh):
    """Sizes of the axis refs of text, in order."""
    return [int(m.group(3)) if m.group(3) else mesh.get(m.group(1), 1)
            for m in AXIS.finditer(text)]


def dims(text):
    """The per-dimension lists of `{..}, {..}`, as text."""
    return re.findall(r"\{([^}]*)\}", text)


def tensor(ty):
    parts = ty.split("x")
    shape = [int(p) if p.isdigit() else 1 for p in parts[:-1]]
    el = parts[-1]
    return shape, BYTES.get(el, 4)


def per_device(shape, el, shards):
    b = el
    for d, n in zip(shape, shards + [1] * len(shape)):
        b *= -(-d // n)
    return b


def sent(kind, args, sharding, ty, mesh):
    shape, el = tensor(ty)
    out = [math.prod(axes(d, mesh)) for d in dims(sharding)]
    if kind == "all_gather":
        src = [o * math.prod(axes(g, mesh)) for o, g in zip(out, dims(args))]
        b = per_device(shape, el, src)
        return b * math.prod(axes(args, mesh)) - b
    if kind == "reduce_scatter":
        src = [o // math.prod(axes(g, mesh)) for o, g in zip(out, dims(args))]
        b = per_device(shape, el, src)
        return b - b / math.prod(axes(args, mesh))
    if kind == "all_to_all":
        total = 0
        for m in A2A.finditer(args):
            src, tgt, n = int(m.group(2)), int(m.group(3)), math.prod(axes(m.group(1), mesh))
            sh = list(out)
            sh[tgt] //= n
            sh[src] *= n
            b = per_device(shape, el, sh)
            total += sum((k - 1) * b / k for k in axes(m.group(1), mesh))
        return total
    b = per_device(shape, el, out)
    if kind == "collective_permute":
        return b
    total = 0
    for n in axes(args, mesh):
        total += 2 * (n - 1) * b / n
        b /= n
    return total


def emitted(text):
    meshes = {m.group(1): {a.group(1): int(s) for a, s in
                           ((AXIS.match(x.split("=")[0].strip()), x.split("=")[1])
                            for x in m.group(2).split(",") if "=" in x)}
              for m in MESH.finditer(text)}
    n = {k: 0 for k in KINDS}
    b = {k: 0.0 for k in KINDS}
    for m in COLL.finditer(text):
        kind = m.group(1)
        n[kind] += 1
        b[kind] += sent(kind, m.group(2), m.group(4), m.group(5), meshes.get(m.group(3), {}))
    return n, b


def files(args):
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                for f in sorted(names):
                    if f.endswith(".mlir"):
                        yield os.path.join(root, f)
        else:
            yield a


def one(build, p):
    """None when a side has no answer; else (counts agree, bytes agree, line)
    for p as it is, then for the pipeline's output of p (or None)."""
    first = side(build, p)
    if not first:
        return None
    e = subprocess.run([os.path.join(build, "shardlp"), "propagate", "--pipeline", p],
                       capture_output=True, text=True, timeout=300)
    # the call-graph form Shardy's tests write (sdy.func_data_flow_edge
    # left in the output): compare takes it as imported, the pipeline
    # imports it again, so the two propagate it differently
    if e.returncode or "sdy.func_data_flow_edge" in e.stdout:
        return first, None
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
        f.write(e.stdout)
        f.flush()
        return first, side(build, f.name, p + " (propagated)")


def side(build, p, name=None):
    shardlp = os.path.join(build, "shardlp")
    c = subprocess.run([shardlp, "compare", "--csv", "--methods", "user-priority", p],
                       capture_output=True, text=True, timeout=300)
    rows = [r for r in csv.DictReader(io.StringIO(c.stdout)) if r["status"] == "ok"]
    if not rows:
        return None
    e = subprocess.run([shardlp, "propagate", "--pipeline", "--collectives", p],
                       capture_output=True, text=True, timeout=300)
    if e.returncode:
        return None
    get = lambda k: float(rows[0].get(k) or 0)
    evn = {k: int(get(k + "_n")) for k in KINDS}
    evb = {k: get(k + "_bytes") for k in KINDS}
    emn, emb = emitted(e.stdout)
    n_ok = evn == emn
    b_ok = n_ok and all(abs(evb[k] - emb[k]) <= 1e-6 * max(1, emb[k]) for k in KINDS)
    line = "  %s: evaluator %s; emitted %s" % (
        name or p, " ".join("%s=%d/%g" % (k, evn[k], evb[k]) for k in KINDS if evn[k] or evb[k]),
        " ".join("%s=%d/%g" % (k, emn[k], emb[k]) for k in KINDS if emn[k] or emb[k]))
    return n_ok, b_ok, line


def main():
    require, jobs, args = options(sys.argv[1:])
    build = args[0]
    paths = sorted(cases(args[2])) if args[1:2] == ["--cases"] else list(files(args[1:]))
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        both = [r for r in ex.map(lambda p: one(build, p), paths) if r]
    bad = []
    for k, what in ((0, "the program's"), (1, "the pipeline's")):
        res = [r[k] for r in both if r[k]]
        print("evaluator's collectives = the export's, %s sharding: counts %d, bytes %d "
              "of %d programs" % (what, sum(r[0] for r in res), sum(r[1] for r in res),
                                  len(res)))
        bad = [r[2] for r in res if not r[1]]
        print("\n".join(bad))
    sys.exit(1 if require and bad else 0)


main()
