// How the CPU loops that are bound by arithmetic rather than bandwidth (vector math, max/argmax
// over rows) treat data larger than the caches: chosen once per process from the CPU, since the two
// machines measured want opposite things (docs/cpu.md "Memory policy", bench/RESULTS.md
// 2026-12-04).
#pragma once

namespace ingot::cpu {

// True ("assisted"): those loops prefetch their inputs 4 KiB ahead in software, and the dense
// flavor writes large outputs of vector-math ops with streaming stores (through a block buffer). On
// the H200 host's Xeon this took SLEEF's exp over 16M float32 from 0.83-0.96 ns an element to
// 0.48-0.68. False ("plain"): neither, on AMD CPUs with AVX-512 (Zen 4 and later), where the
// hardware prefetchers keep up and both cost time (the same exp: 0.30 plain, 0.40 assisted).
// INGOT_CPU_MEMORY=assisted or =plain in the environment overrides the choice.
bool assisted_memory();

// "assisted" or "plain", for ingot.config().
const char* memory_policy();

}  // namespace ingot::cpu
