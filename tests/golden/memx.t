bench's own memory and scheduler measures (bench persona): --memory-mode=stream and
--memory-mode=latency of the memory test, --threads-mode=pingpong of the threads test. The
numbers vary by host: matched by their format. Small sizes keep the runs short.

STREAM-like bandwidth: four kernels, a table row each, validated:

  $ $BENCH memory --memory-mode=stream --memory-total-size=3M --memory-passes=3 --threads=2 run | sed -n '/^Memory bandwidth/,/^General/p'
  Memory bandwidth: STREAM-like kernels, all threads, best of 3 passes
  
  3 arrays of 1MiB \(cache sized: last-level cache .*\), 2 thread\(s\), 3 passes; expected about [0-9.]+ s (re)
  Initializing worker threads...
  
  Threads started!
  
  pass 1 of 3: copy [0-9]+, scale [0-9]+, add [0-9]+, triad [0-9]+ MB/s; [0-9.]+ s, about [0-9.]+ s to go (re)
  pass 2 of 3: copy [0-9]+, scale [0-9]+, add [0-9]+, triad [0-9]+ MB/s; [0-9.]+ s, about [0-9.]+ s to go (re)
  pass 3 of 3: copy [0-9]+, scale [0-9]+, add [0-9]+, triad [0-9]+ MB/s; [0-9.]+ s, about 0.0 s to go (re)
  3 arrays of 1MiB \(([0-9.]+[KMG]?i?B|unknown) in huge pages\), 2 thread\(s\), best of 3 passes \(first excepted\), cache: last-level cache [0-9.]+[KMG]iB \((sysfs|cpuid|default)\) (re)
  Function    Best MB/s   Best MiB/s     Avg time     Min time     Max time
  Copy: +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} (re)
  Scale: +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} (re)
  Add: +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} (re)
  Triad: +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} (re)
  (MB = 10^6 bytes; 16 bytes per element for copy and scale, 24 for add and triad; validated)
  
  General statistics:

Latency by working-set size, 4 KiB to the largest (--memory-total-size here), plateaus:

  $ $BENCH memory --memory-mode=latency --memory-total-size=64K run | sed -n '/^Load-to-use/,/^General/p'
  Load-to-use latency: a random cyclic chase of 64-byte lines, best of 5 windows per size (15 from 2x the cache), one thread
  
  working sets 4KiB to 64KiB \(within the cache: last-level cache .*\), 4KiB pages, then huge pages; 5 windows of 20 ms per size, 15 from [0-9.]+[KMG]iB; expected about [0-9]+ s (re)
  Initializing worker threads...
  
  Threads started!
  
  4KiB pages +4KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  4KiB pages +8KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  4KiB pages +16KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  4KiB pages +32KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  4KiB pages +64KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  huge pages +4KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  huge pages +8KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  huge pages +16KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  huge pages +32KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  huge pages +64KiB: +[0-9]+\.[0-9]{2} ns/load, best of 5 windows of 20 ms \(worst [0-9.]+\); [0-9.]+ s (re)
  Caches \((sysfs|cpuid|default)\): L1d [0-9.]+[KMG]?i?B, L2 [0-9.]+[KMG]?i?B, L3 [0-9.]+[KMG]?i?B; THP .* (re)
  MADV_HUGEPAGE: ([0-9.]+[KMG]?i?B of 64KiB in huge pages|huge pages granted unknown) (re)
      size   ns/load   ns/load (THP)
      4KiB +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} (re)
      8KiB +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} (re)
     16KiB +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} (re)
     32KiB +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} (re)
     64KiB +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} (re)
  Plateaus \(ns per load\): L1 [0-9.]+( L2 [0-9.]+)? (re)
  Plateaus with THP: L1 [0-9.]+( L2 [0-9.]+)? (re)
  
  General statistics:

Context-switch cost, one CPU and two (the suite's hosts have two or more):

  $ $BENCH threads --threads-mode=pingpong --thread-round-trips=200 run | sed -n '/^Context/,/^General/p'
  Context-switch cost: two threads ping-ponging through a futex, 200 round trips
  
  Initializing worker threads...
  
  Threads started!
  
      same CPU \([0-9]+\): +[0-9]+\.[0-9] ns per switch \([0-9]+\.[0-9] ns per round trip\) (re)
      CPUs [0-9]+ and [0-9]+: +[0-9]+\.[0-9] ns per switch \([0-9]+\.[0-9] ns per round trip\) (re)
  
  General statistics:

One thread only for latency and ping-pong; STREAM needs two passes:

  $ $BENCH memory --memory-mode=latency --threads=2 run
  bench: memory: --memory-mode=latency runs one thread, not --threads=2
  [2]
  $ $BENCH threads --threads-mode=pingpong --threads=4 run
  bench: threads: --threads-mode=pingpong runs its own two threads, not --threads=4
  [2]
  $ $BENCH memory --memory-mode=stream --warmup-time=1 run
  bench: memory: --warmup-time does not apply to --memory-mode=stream (it measures once, to the end)
  [2]
  $ $BENCH threads --threads-mode=pingpong --warmup-time=1 run
  bench: threads: --warmup-time does not apply to --threads-mode=pingpong (it measures once, to the end)
  [2]

A worker of these modes must never outlive its run: --forced-shutdown is refused too (review).

  $ $BENCH memory --memory-mode=latency --forced-shutdown=0 run
  bench: memory: --forced-shutdown does not apply to --memory-mode=latency (it measures once, to the end)
  [2]
  $ $BENCH threads --threads-mode=pingpong --forced-shutdown=1 run
  bench: threads: --forced-shutdown does not apply to --threads-mode=pingpong (it measures once, to the end)
  [2]
  $ $BENCH memory --memory-mode=stream --memory-passes=1 run 2>&1 | head -1
  bench: --memory-passes: invalid value '1' (expected an integer 2..1000000)

The sysbench memory test is unchanged by default:

  $ $BENCH memory --memory-total-size=1M --memory-block-size=1M run | sed -n '/^Running memory/,/^$/p'
  Running memory speed test with the following options:
    block size: 1024KiB
    total size: 1MiB
    operation: write
    scope: global
  
