// How the CPU loops treat data larger than the caches: the loops bound by arithmetic rather than
// bandwidth (vector math, max/argmax over rows) and the reductions' reading order. Chosen once per
// process from the CPU, since the machines measured want opposite things (docs/cpu.md "Memory
// policy", bench/RESULTS.md 2026-12-04).
#pragma once

namespace ingot::cpu {

// True ("assisted", Intel and other CPUs): the arithmetic-bound loops prefetch their inputs 4 KiB
// ahead in software, the dense flavor writes large outputs of vector-math ops with streaming stores
// (through a block buffer), and reductions read one sequential stream (except max/min over an outer
// dim, eight rows a pass under both). On the H200 host's Xeon this took SLEEF's exp over 16M float32
// from 0.83-0.96 ns an element to 0.48-0.68, and a float32 sum over dim 0 read one row a pass in
// 2.32-2.37 ms against 2.54-2.56 eight at a time. False ("plain", AMD
// CPUs): no prefetch or streaming stores for vector math (on Zen 4 the hardware prefetchers keep up
// and both cost time: the same exp 0.30 plain, 0.40 assisted; on Zen 3 no difference measured), and
// reductions read several streams at once: long rows in four parts, rows of 1Ki-64Ki elements four
// at a time, an outer dim eight rows a pass (on the Zen 3 dev box a float32 max over 4096 rows of
// 4096 went from 5.2-6.4 ms to 3.7-4.4 in a harness; reduce_simd.h, reduce_loops.h). Results are
// the same bits under both. INGOT_CPU_MEMORY=assisted or =plain in the environment overrides the
// choice.
bool assisted_memory();

// "assisted" or "plain", for ingot.config().
const char* memory_policy();

}  // namespace ingot::cpu
