#!/usr/bin/env python3
"""ilp_vs_greedy.py - issue 14's measure on Shardy's propagation cases: on
every case of ../shared/conformance whose flags run a propagation pass (and
that expects no diagnostics), where some greedy strategy gives a result:
does the ILP give one (answered), is its cost at most every greedy
strategy's (<= greedy), is every greedy result a point of the ILP's model
(in model: compare's in_model column), and is `shardlp solve`'s output left unchanged by
`shardlp-opt -sdy-propagation-pipeline` in every sharding (stable: the
texts are compared with what is no sharding left out: the symbol suffixes
the pipeline's function dedup renames, sharding rules the export drops,
stablehlo.mesh annotations, replicated shardings of rank-0 values, and
the spelling of constants and SSA names: the pipeline's import turns a
stablehlo.constant into an sdy.constant, which its export leaves, and the
printer then names the values %0, %1, ... instead of %c, %c_0, ...; and
the order of the functions, which the pipeline's call import may change).
Costs are the evaluator's (the collectives the export emits); the ILP's
bound is the model's (shardlp-cost(7), "The ILP's bound"), and a fifth
line, a report that --require leaves out, says where it is at most every
greedy cost (bound <= greedy).  Prints N of M for each
and the cases that fail, one per line; exit 0 always (a report, not a
test) unless --require is given: then exit 1 when any count falls short
of the cases where greedy gives a result.
Usage: ilp_vs_greedy.py [--require] [-j N] BUILDDIR CONFORMANCEDIR"""
import concurrent.futures, csv, io, os, re, subprocess, sys

PASSES = ("propagate", "propagation-pipeline")


def cases(conf):
    with open(os.path.join(conf, "manifest.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for r in rows:
        if any(p in r["flags"] for p in PASSES) and "verify-diagnostics" not in r["flags"] \
                and r["expected_diags"] in ("", "0"):
            yield os.path.join(conf, r["path"])


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


NOISE = [
    (re.compile(r" \{stablehlo\.mesh = \{.*\}\}$", re.M), ""),
    (re.compile(r",? sdy\.sharding_rule = #sdy\.op_sharding_rule<.*?\}>"), ""),
    (re.compile(r" \{\}"), ""),
    (re.compile(r" \{sdy\.sharding = #sdy\.sharding<@\w+, \[\]>\}"), ""),
    (re.compile(r"(@[A-Za-z]\w*?)(_\d+)+\b"), r"\1"),
]


SSA = re.compile(r"%[A-Za-z_][\w$.-]*|%\d+")


def shardings(text):
    for rx, rep in NOISE:
        text = rx.sub(rep, text)
    text = text.replace("sdy.constant", "stablehlo.constant")
    parts = re.split(r"(?m)^(?=  func\.func )", text)
    if len(parts) > 1:
        end = re.search(r"(?m)^\}\s*\Z", parts[-1])
        tail = parts[-1][end.start():] if end else ""
        parts[-1] = parts[-1][:end.start()] if end else parts[-1]
        text = parts[0] + "".join(sorted(parts[1:])) + tail
    names = {}
    return SSA.sub(lambda m: names.setdefault(m.group(0), "%%v%d" % len(names)), text)


def one(build, path):
    shardlp = os.path.join(build, "shardlp")
    opt = os.path.join(build, "shardlp-opt")
    out = {"path": path, "greedy": False, "answered": False, "le": False,
           "stable": False, "in_model": False, "bound_le": False, "why": ""}
    c = run([shardlp, "compare", "--csv", "--time-limit", "60", path])
    rows = list(csv.DictReader(io.StringIO(c.stdout)))
    greedy = [float(r["cost"]) for r in rows if r["method"] != "ilp" and r["status"] == "ok"
              and r["cost"]]
    ilp = [r for r in rows if r["method"] == "ilp"]
    out["greedy"] = bool(greedy)
    ins = [r["in_model"] for r in rows if r["method"] != "ilp" and r["status"] == "ok"]
    out["in_model"] = bool(ins) and all(v == "1" for v in ins)
    if not greedy:
        return out
    if not ilp or ilp[0]["status"] not in ("optimal", "feasible") or not ilp[0]["cost"]:
        out["why"] = "ilp %s: %s" % (ilp[0]["status"] if ilp else "missing",
                                     c.stderr.strip().splitlines()[-1:] if c.stderr.strip() else "")
        return out
    out["answered"] = True
    cost = float(ilp[0]["cost"])
    out["le"] = cost <= min(greedy) * (1 + 1e-9)
    if not out["le"]:
        out["why"] = "ilp %.9g > greedy %.9g" % (cost, min(greedy))
    bound = float(ilp[0]["bound"] or "nan")
    out["bound_le"] = bound <= min(greedy) * (1 + 1e-9)
    s = run([shardlp, "solve", "-q", "--time-limit", "60", path])
    if s.returncode != 0:
        out["why"] += " solve exit %d" % s.returncode
        return out
    a = run([opt, "-sdy-propagation-pipeline", "-"], input=s.stdout)
    b = run([opt, "-"], input=s.stdout)
    out["stable"] = a.returncode == 0 and shardings(a.stdout) == shardings(b.stdout)
    if not out["stable"]:
        out["why"] += " unstable"
    return out


def options(argv):
    """(require, jobs, the other arguments) of [--require] [-j N] ARGS...;
    emitted_vs_evaluator.py takes the same."""
    args = [a for a in argv if a != "--require"]
    jobs = 2
    if "-j" in args:
        i = args.index("-j")
        jobs = int(args[i + 1])
        del args[i:i + 2]
    return "--require" in argv, jobs, args


def main():
    require, jobs, args = options(sys.argv[1:])
    build, conf = args
    paths = sorted(cases(conf))
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        res = list(ex.map(lambda p: one(build, p), paths))
    g = [r for r in res if r["greedy"]]
    print("ILP vs greedy on %d propagation cases; greedy gives a scored result "
          "on %d" % (len(res), len(g)))
    short = False
    for key, what in (("answered", "answered"), ("le", "<= greedy"), ("stable", "stable"),
                      ("in_model", "in model")):
        n = sum(r[key] for r in g)
        short |= n < len(g)
        print("  %-10s %d of %d" % (what, n, len(g)))
    print("  %-10s %d of %d" % ("bound <= greedy", sum(r["bound_le"] for r in g), len(g)))
    for r in g:
        if not (r["answered"] and r["le"] and r["stable"] and r["in_model"]):
            print("  %s: %s" % (os.path.relpath(r["path"], conf), r["why"].strip()))
    sys.exit(1 if require and short else 0)


if __name__ == "__main__":
    main()
