#!/usr/bin/env python3
"""Cost model of a shared training round (docs/mpi-scaling.md).

A round robin of P pairings x G openings is P*G tasks; task t runs on rank
t mod N, each rank runs its tasks on T threads (list scheduling), then one
all-reduce sums 8*P + 1 + N u64 (the tallies, the plies, and a busy time
per rank). Round time = the slowest rank's makespan (resampled from
measured task times) + the all-reduce (alpha*ceil(log2 N) + 2*bytes/beta).

usage: model.py TIMES_FILE... [--openings G] [--pairings P] [--threads T]
                [--cap-ms MS] [--need]
TIMES_FILE: lines "nanoseconds plies plies" from
    cargo run --release --example task_times -- SPEC N SEED [BOOK]
"""
import argparse, heapq, math, random, statistics as st

NETWORKS = {"local": (0.4e-6, 10.5e9), "IB": (1.5e-6, 10e9), "10GbE": (35e-6, 1.0e9)}


def load(files, cap_ms=None):
    times = []
    for f in files:
        for line in open(f):
            t = int(line.split()[0]) * 1e-9
            if cap_ms is None or t < cap_ms * 1e-3:
                times.append(t)
    return times


def makespan(tasks, threads):
    if len(tasks) <= threads:
        return max(tasks, default=0.0)
    heap = [0.0] * threads
    for t in tasks:
        heapq.heappush(heap, heapq.heappop(heap) + t)
    return max(heap)


def slowest_rank(samples, ntasks, ranks, threads, trials):
    worst = []
    for _ in range(trials):
        worst.append(max(makespan(random.choices(samples, k=(ntasks - r + ranks - 1) // ranks), threads)
                         for r in range(ranks)))
    return st.mean(worst)


def allreduce(ranks, nbytes, net):
    alpha, beta = NETWORKS[net]
    return 0.0 if ranks == 1 else alpha * math.ceil(math.log2(ranks)) + 2 * nbytes / beta


def round_time(samples, G, ranks, threads, net, pairings, trials=None):
    ntasks = pairings * G
    work = ntasks * st.mean(samples) / (ranks * threads)
    trials = trials or max(2, min(20, int(4e5 / ntasks)))
    slowest = slowest_rank(samples, ntasks, ranks, threads, trials)
    comm = allreduce(ranks, 8 * (8 * pairings + 1 + ranks), net)
    return dict(work=work, idle=slowest - work, comm=comm, total=slowest + comm,
                efficiency=work / (slowest + comm))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("times", nargs="+")
    p.add_argument("--openings", type=int, default=2000)
    p.add_argument("--pairings", type=int, default=10)
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--cap-ms", type=float)
    p.add_argument("--need", action="store_true", help="openings per pairing for 90%% efficiency")
    a = p.parse_args()
    random.seed(1)
    s = load(a.times, a.cap_ms)
    print(f"{len(s)} task times: mean {st.mean(s)*1e3:.4f} ms, sd {st.stdev(s)*1e3:.4f} ms, max {max(s)*1e3:.3f} ms")
    one = slowest_rank(s, a.pairings * a.openings, 1, a.threads, 2)
    for net in ("IB", "10GbE"):
        for n in (16, 100, 1000):
            r = round_time(s, a.openings, n, a.threads, net, a.pairings)
            print(f"{net:6} N={n:5}  work {r['work']*1e3:9.3f} ms  idle {r['idle']*1e3:9.3f} ms  "
                  f"all-reduce {r['comm']*1e3:7.4f} ms  round {r['total']*1e3:9.3f} ms  "
                  f"speed-up {one / r['total']:7.1f}  efficiency {r['efficiency']*100:5.1f}%")
            if a.need:
                g = a.openings
                while round_time(s, g, n, a.threads, net, a.pairings, trials=2)["efficiency"] < 0.9 and g < 4_000_000:
                    g *= 2
                print(f"        openings per pairing for >= 90%: <= {g} (doubling from {a.openings})")


if __name__ == "__main__":
    main()
