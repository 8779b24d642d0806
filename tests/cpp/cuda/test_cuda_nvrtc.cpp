// NVRTC needs no GPU: these run wherever the CUDA toolkit or the NVRTC wheel is installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "backend/cuda/compile_cache.h"
#include "backend/cuda/embedded_sources.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cuda/sha256.h"
#include "ingot/error.h"
#include "scoped_env.h"

namespace cuda = ingot::cuda;
namespace fs = std::filesystem;

namespace {

#define SKIP_WITHOUT_NVRTC() \
  if (!cuda::nvrtc_is_available()) GTEST_SKIP() << "NVRTC not found"

// A module source that uses the embedded kernel headers, the way the kernel library will.
cuda::CompileRequest add_kernel_request(int major, int minor) {
  cuda::CompileRequest r;
  r.name = "add_smoke.cu";
  r.source = R"(#include "kernels/ops/binary.h"
extern "C" __global__ void add_float32(float* out, const float* a, const float* b, float alpha,
                                       unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = ingot::add_functor()(a[i], b[i], alpha);
}
)";
  const auto sources = cuda::embedded_kernel_sources();
  r.headers.assign(sources.begin(), sources.end());
  r.options = {"--std=c++17"};
  r.arch_major = major;
  r.arch_minor = minor;
  return r;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

TEST(CudaNvrtc, CandidatesStartWithTheExplicitPathThenSonames) {
  ScopedEnv path("INGOT_NVRTC_PATH", "/opt/my/libnvrtc.so.13");
  const std::vector<std::string> c = cuda::nvrtc_library_candidates();
  ASSERT_GE(c.size(), 4u);
  EXPECT_EQ(c[0], "/opt/my/libnvrtc.so.13");
  EXPECT_EQ(c[1], "libnvrtc.so.13");
  EXPECT_EQ(c[2], "libnvrtc.so.12");
  EXPECT_EQ(c[3], "libnvrtc.so");
}

TEST(CudaNvrtc, CandidatesIncludeTheWheelLayoutsOfEachSearchDirectory) {
  const fs::path site =
      fs::temp_directory_path() / ("ingot_nvrtc_site_" + std::to_string(getpid()));
  fs::create_directories(site / "nvidia" / "cu13" / "lib");
  fs::create_directories(site / "nvidia" / "cuda_nvrtc" / "lib");
  std::ofstream(site / "nvidia" / "cu13" / "lib" / "libnvrtc.so.13");
  std::ofstream(site / "nvidia" / "cuda_nvrtc" / "lib" / "libnvrtc.so.12");
  std::ofstream(site / "nvidia" / "cuda_nvrtc" / "lib" / "libnvrtc-builtins.so.12.9");
  ScopedEnv search("INGOT_NVRTC_SEARCH_PATH", "/nonexistent:" + site.string());
  const std::vector<std::string> c = cuda::nvrtc_library_candidates();
  const std::string cu13 = (site / "nvidia" / "cu13" / "lib" / "libnvrtc.so.13").string();
  const std::string cu12 = (site / "nvidia" / "cuda_nvrtc" / "lib" / "libnvrtc.so.12").string();
  const auto at = [&](const std::string& s) { return std::find(c.begin(), c.end(), s); };
  EXPECT_NE(at(cu13), c.end());
  EXPECT_LT(at(cu13), at(cu12));  // the CUDA 13 wheel first
  for (const std::string& s : c) EXPECT_EQ(s.find("builtins"), std::string::npos) << s;
  fs::remove_all(site);
}

TEST(CudaNvrtc, ChoosesCubinForASupportedArchElsePtxForTheNewestOlderOne) {
  const std::vector<int> supported = {75, 80, 86, 89, 90, 100, 120};
  EXPECT_EQ(cuda::choose_code_target(90, supported).kind, cuda::BinaryKind::Cubin);
  EXPECT_EQ(cuda::choose_code_target(90, supported).arch, 90);
  EXPECT_EQ(cuda::choose_code_target(87, supported).kind, cuda::BinaryKind::Ptx);
  EXPECT_EQ(cuda::choose_code_target(87, supported).arch, 86);
  EXPECT_EQ(cuda::choose_code_target(130, supported).arch, 120);
  EXPECT_THROW(cuda::choose_code_target(70, supported), ingot::CompileError);
}

TEST(CudaNvrtc, ReportsItsVersionAndArchs) {
  SKIP_WITHOUT_NVRTC();
  EXPECT_GE(cuda::nvrtc_version(), 12000);
  EXPECT_FALSE(cuda::nvrtc_supported_archs().empty());
  EXPECT_FALSE(cuda::nvrtc_library_path().empty());
}

// The acceptance smoke test: the embedded kernels/ headers compile under NVRTC for the H200.
TEST(CudaNvrtc, CompilesAnAddKernelFromTheEmbeddedHeadersToSm90Cubin) {
  auto start = std::chrono::steady_clock::now();
  SKIP_WITHOUT_NVRTC();  // loads NVRTC when this test runs first in the process
  const double load_ms = milliseconds_since(start);
  start = std::chrono::steady_clock::now();
  const cuda::CompiledModule first = cuda::compile(add_kernel_request(9, 0));
  const double first_ms = milliseconds_since(start);
  start = std::chrono::steady_clock::now();
  const cuda::CompiledModule second = cuda::compile(add_kernel_request(9, 0));
  const double second_ms = milliseconds_since(start);
  std::cout << "[ timing ] NVRTC load " << load_ms << " ms; compile of add_float32: first "
            << first_ms << " ms, again " << second_ms << " ms\n";
  EXPECT_EQ(first.kind, cuda::BinaryKind::Cubin);
  EXPECT_EQ(first.arch, 90);
  ASSERT_GE(first.image.size(), 4u);
  EXPECT_EQ(first.image.substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(first.image, second.image);  // deterministic, which the disk cache relies on
}

TEST(CudaNvrtc, AnArchWithoutSassGetsPtxForAnOlderOne) {
  SKIP_WITHOUT_NVRTC();
  const cuda::CompiledModule m = cuda::compile(add_kernel_request(9, 9));  // no sm_99
  EXPECT_EQ(m.kind, cuda::BinaryKind::Ptx);
  EXPECT_NE(m.image.find(".target sm_" + std::to_string(m.arch)), std::string::npos);
  EXPECT_NE(m.image.find("add_float32"), std::string::npos);
}

TEST(CudaNvrtc, ACompileErrorCarriesTheFullLog) {
  SKIP_WITHOUT_NVRTC();
  cuda::CompileRequest r;
  r.name = "broken.cu";
  r.source = "extern \"C\" __global__ void k() { undeclared_thing(); }\n";
  try {
    cuda::compile(r);
    FAIL() << "no throw";
  } catch (const ingot::CompileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("broken.cu"), std::string::npos) << msg;
    EXPECT_NE(msg.find("undeclared_thing"), std::string::npos) << msg;
    EXPECT_NE(msg.find("sm_90"), std::string::npos) << msg;
  }
}

TEST(CudaNvrtc, ReportsLoweredNamesOfTemplateKernels) {
  SKIP_WITHOUT_NVRTC();
  cuda::CompileRequest r;
  r.source = "template <typename T> __global__ void fill(T* p, T v) { p[threadIdx.x] = v; }\n";
  r.name_expressions = {"fill<float>", "fill<int>"};
  const cuda::CompiledModule m = cuda::compile(r);
  ASSERT_NE(m.lowered_name("fill<float>"), nullptr);
  EXPECT_EQ(m.lowered_name("fill<float>")->rfind("_Z4fillIfE", 0), 0u)
      << *m.lowered_name("fill<float>");
  EXPECT_NE(m.image.find(*m.lowered_name("fill<int>")), std::string::npos);
  EXPECT_EQ(m.lowered_name("fill<double>"), nullptr);
}

TEST(CudaEmbeddedSources, HoldTheKernelsAndThePortableHeadersByIncludePath) {
  std::vector<std::string> names;
  for (const auto& s : cuda::embedded_kernel_sources()) {
    names.emplace_back(s.name);
    EXPECT_EQ(s.text.data()[s.text.size()], '\0') << s.name;
  }
  for (const char* want : {"kernels/ops/binary.h", "kernels/elementwise.h", "ingot/half.h",
                           "ingot/portable.h", "ingot/scalar_type.h"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

// The path the kernel library takes: key with the embedded digest, compile once, then a later
// process (a fresh cache) loads the module from disk.
TEST(CudaNvrtc, ARealModuleRoundTripsThroughTheDiskCache) {
  SKIP_WITHOUT_NVRTC();
  const fs::path dir =
      fs::temp_directory_path() / ("ingot_nvrtc_cache_" + std::to_string(getpid()));
  fs::remove_all(dir);
  cuda::CompileRequest request = add_kernel_request(9, 0);
  request.headers_digest = std::string(cuda::embedded_kernel_sources_digest());
  const auto compiled = cuda::KernelCache({dir}).get_or_compile(request);
  cuda::KernelCache later({dir});
  const auto start = std::chrono::steady_clock::now();
  const auto loaded = later.get_or_compile(request);
  std::cout << "[ timing ] disk cache hit (key + read + verify): " << milliseconds_since(start)
            << " ms for " << loaded->image.size() << " bytes\n";
  EXPECT_EQ(later.stats().disk_hits, 1u);
  EXPECT_EQ(loaded->image, compiled->image);
  fs::remove_all(dir);
}

// The generator hashes with Python's hashlib; the same digest here checks both sides.
TEST(CudaEmbeddedSources, DigestMatchesTheEmbeddedTexts) {
  cuda::Sha256 h;
  for (const auto& source : ingot::cuda::embedded_kernel_sources()) {
    h.update_field(source.name).update_field(source.text);
  }
  EXPECT_EQ(cuda::Sha256::hex(h.finish()), ingot::cuda::embedded_kernel_sources_digest());
}
