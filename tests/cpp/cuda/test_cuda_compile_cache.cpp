// The kernel cache's contract (issue 7, criterion 5), tested without NVRTC: modules come from a
// fake compiler, so that only the cache is under test.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "backend/cuda/cache_file.h"
#include "backend/cuda/compile_cache.h"
#include "scoped_env.h"

namespace cuda = ingot::cuda;
namespace fs = std::filesystem;

namespace {

cuda::CompiledModule fake_module(const std::string& image) {
  cuda::CompiledModule m;
  m.kind = cuda::BinaryKind::Cubin;
  m.arch = 90;
  m.image = image;
  m.lowered_names = {{"fill<float>", "_Z4fillIfEvPT_S_"}};
  return m;
}

class CudaKernelCache : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("ingot_cache_test_" + std::to_string(getpid()) + "_" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // get_or_compile with a compiler that counts its calls.
  std::shared_ptr<const cuda::CompiledModule> get(cuda::KernelCache& cache, const std::string& key,
                                                  const std::string& image = "IMAGE") {
    return cache.get_or_compile(key, [&] {
      ++compiles_;
      return fake_module(image);
    });
  }
  std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  void write_file(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
  }

  fs::path dir_;
  int compiles_ = 0;
  const std::string key_ = std::string(64, 'a');
};

}  // namespace

TEST_F(CudaKernelCache, MissCompilesThenMemoryHits) {
  cuda::KernelCache cache({dir_});
  auto first = get(cache, key_);
  auto second = get(cache, key_);
  EXPECT_EQ(compiles_, 1);
  EXPECT_EQ(first, second);
  EXPECT_EQ(cache.stats().misses, 1u);
  EXPECT_EQ(cache.stats().memory_hits, 1u);
  EXPECT_EQ(cache.stats().disk_writes, 1u);
}

TEST_F(CudaKernelCache, ANewProcessHitsTheDisk) {
  const std::string image("CUBIN\0BYTES", 11);  // binary, with a NUL inside
  get(*std::make_unique<cuda::KernelCache>(cuda::KernelCacheConfig{dir_}), key_, image);
  cuda::KernelCache later({dir_});
  auto m = get(later, key_);
  EXPECT_EQ(compiles_, 1);
  EXPECT_EQ(later.stats().disk_hits, 1u);
  EXPECT_EQ(m->image, image);
  ASSERT_NE(m->lowered_name("fill<float>"), nullptr);
  EXPECT_EQ(*m->lowered_name("fill<float>"), "_Z4fillIfEvPT_S_");
}

// Truncated at every length: a miss each time, never a crash, and the next store repairs it.
TEST_F(CudaKernelCache, TruncatedFileIsAMissAndIsReplaced) {
  cuda::KernelCache writer({dir_});
  get(writer, key_);
  const std::string good = read_file(writer.file_for(key_));
  for (std::size_t size = 0; size < good.size(); size += 7) {
    write_file(writer.file_for(key_), good.substr(0, size));
    cuda::KernelCache reader({dir_});
    EXPECT_EQ(reader.find(key_), nullptr) << "size " << size;
    EXPECT_EQ(reader.stats().rejected_files, 1u) << "size " << size;
  }
  cuda::KernelCache repair({dir_});
  get(repair, key_);
  EXPECT_EQ(read_file(repair.file_for(key_)), good);
}

TEST_F(CudaKernelCache, CorruptedPayloadIsAMiss) {
  cuda::KernelCache writer({dir_});
  get(writer, key_);
  std::string bytes = read_file(writer.file_for(key_));
  bytes[bytes.size() - 3] ^= 0x40;
  write_file(writer.file_for(key_), bytes);
  cuda::KernelCache reader({dir_});
  EXPECT_EQ(reader.find(key_), nullptr);
  EXPECT_EQ(reader.stats().rejected_files, 1u);
}

TEST_F(CudaKernelCache, WrongHeaderIsAMiss) {
  const std::string good = cuda::encode_cache_file(key_, fake_module("X"));
  ASSERT_TRUE(cuda::decode_cache_file(good, key_).has_value());
  std::string magic = good;
  magic[0] = 'X';
  std::string version = good;
  version[8] = 9;
  std::string length = good;
  length[16] ^= 1;
  for (const std::string& bad : {magic, version, length, std::string("garbage")}) {
    EXPECT_FALSE(cuda::decode_cache_file(bad, key_).has_value());
  }
  EXPECT_FALSE(cuda::decode_cache_file(good, std::string(64, 'b')).has_value());  // other key
}

TEST_F(CudaKernelCache, TwoThreadsStoringOneKeyLeaveOneValidEntry) {
  cuda::KernelCache a({dir_});
  cuda::KernelCache b({dir_});
  auto hammer = [&](cuda::KernelCache& cache) {
    for (int i = 0; i < 50; ++i) {
      cache.store(key_, fake_module("SAME IMAGE"));
      cache.clear_memory();
    }
  };
  std::thread ta(hammer, std::ref(a));
  std::thread tb(hammer, std::ref(b));
  ta.join();
  tb.join();
  cuda::KernelCache reader({dir_});
  auto m = reader.find(key_);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->image, "SAME IMAGE");
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
  }
}

TEST_F(CudaKernelCache, TwoProcessesStoringOneKeyLeaveOneValidEntry) {
  std::vector<pid_t> children;
  for (int p = 0; p < 2; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      cuda::KernelCache cache({dir_});
      for (int i = 0; i < 50; ++i) cache.store(key_, fake_module("SAME IMAGE"));
      _exit(cache.stats().disk_writes == 1 ? 0 : 1);  // store() writes once per process
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  cuda::KernelCache reader({dir_});
  auto m = reader.find(key_);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->image, "SAME IMAGE");
}

// Root ignores permission bits, so the directory is made uncreatable by a file in its path.
TEST_F(CudaKernelCache, UnusableDirectoryWarnsOnceAndKeepsWorkingInMemory) {
  fs::create_directories(dir_);
  write_file(dir_ / "a_file", "not a directory");
  cuda::detail::reset_disk_cache_warning_for_testing();
  testing::internal::CaptureStderr();
  cuda::KernelCache first({dir_ / "a_file" / "kernels"});
  cuda::KernelCache second({dir_ / "a_file" / "kernels"});
  get(first, key_);
  get(first, std::string(64, 'b'));
  get(second, key_);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(compiles_, 3);
  EXPECT_FALSE(first.disk_enabled());
  EXPECT_NE(err.find("kernel cache directory"), std::string::npos) << err;
  EXPECT_EQ(err.find("kernel cache directory"), err.rfind("kernel cache directory")) << err;
  get(first, key_);
  EXPECT_EQ(compiles_, 3);  // still cached in memory
}

TEST_F(CudaKernelCache, EnvironmentSelectsOrDisablesTheDirectory) {
  ScopedEnv disable("INGOT_DISABLE_DISK_CACHE", std::nullopt);
  ScopedEnv dir("INGOT_CACHE_DIR", dir_.string());
  EXPECT_EQ(cuda::KernelCacheConfig::from_environment().directory, dir_);
  {
    ScopedEnv off("INGOT_DISABLE_DISK_CACHE", "1");
    EXPECT_TRUE(cuda::KernelCacheConfig::from_environment().directory.empty());
    cuda::KernelCache cache(cuda::KernelCacheConfig::from_environment());
    get(cache, key_);
    EXPECT_FALSE(fs::exists(dir_));
  }
  ScopedEnv no_dir("INGOT_CACHE_DIR", std::nullopt);
  ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
  EXPECT_EQ(cuda::KernelCacheConfig::from_environment().directory, fs::path("/xdg/ingot/kernels"));
  ScopedEnv relative_xdg("XDG_CACHE_HOME", "relative");
  ScopedEnv home("HOME", "/home/someone");
  EXPECT_EQ(cuda::KernelCacheConfig::from_environment().directory,
            fs::path("/home/someone/.cache/ingot/kernels"));
}

TEST(CudaCacheKey, ChangesWithEverythingThatChangesTheBinary) {
  cuda::CompileRequest base;
  base.source = "extern \"C\" __global__ void k() {}";
  base.headers = {{"kernels/a.h", "int a;"}, {"ingot/b.h", "int b;"}};
  base.options = {"--std=c++17"};
  const std::string key = cuda::cache_key(base, 13000);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(cuda::cache_key(base, 13000), key);  // stable

  std::vector<cuda::CompileRequest> variants(7, base);
  variants[0].source += " ";
  variants[1].headers[1].text = "int b ;";
  variants[2].headers[0].name = "kernels/c.h";
  variants[3].options.push_back("-lineinfo");
  variants[4].arch_minor = 9;
  variants[5].name_expressions = {"k"};
  variants[6].headers_digest = "f00d";
  for (std::size_t i = 0; i < variants.size(); ++i) {
    EXPECT_NE(cuda::cache_key(variants[i], 13000), key) << "variant " << i;
  }
  EXPECT_NE(cuda::cache_key(base, 12080), key);  // NVRTC version
}

TEST(CudaHeaderDigests, QuotedIncludesAreFoundInEveryFormAndAngleOnesAreNot) {
  const auto names = cuda::quoted_includes(
      "#include \"a.h\"\n  #  include   \"dir/b.h\"  // c\n#include <vector>\nint x; // #include \"no.h\"\n"
      "#include \"last.h\"");
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[0], "a.h");
  EXPECT_EQ(names[1], "dir/b.h");
  EXPECT_EQ(names[2], "last.h");
}

// A module's digest covers the headers it reaches through includes, and only those: an edit to
// one header changes the keys of the modules that include it (directly or not), no others.
TEST(CudaHeaderDigests, ChangeOnlyWithTheHeadersAModuleReaches) {
  std::vector<std::string> texts = {"#include \"k/b.h\"\nint a;", "int b;", "int c;",
                                    "#include \"k/e.h\"\nint d;", "#include \"k/d.h\"\nint e;"};
  auto headers_of = [&](const std::vector<std::string>& t) {
    return std::vector<cuda::HeaderSource>{{"k/a.h", t[0]}, {"k/b.h", t[1]}, {"k/c.h", t[2]},
                                           {"k/d.h", t[3]}, {"k/e.h", t[4]}};
  };
  const auto base_headers = headers_of(texts);
  const cuda::HeaderDigests base(base_headers);
  const std::string uses_a = "#include \"k/a.h\"\n", uses_c = "#include \"k/c.h\"\n",
                    uses_d = "#include \"k/d.h\"\n", uses_nothing = "int k;";
  const std::string a0 = base.digest_for(uses_a), c0 = base.digest_for(uses_c);
  EXPECT_EQ(a0.size(), 64u);
  EXPECT_EQ(base.digest_for(uses_a), a0);  // stable
  EXPECT_NE(a0, c0);
  EXPECT_NE(base.digest_for(uses_d), a0);  // d and e include each other: the walk ends
  EXPECT_NE(base.digest_for(uses_nothing), a0);

  auto edited = texts;
  edited[1] = "int b ;";  // k/b.h, reached from k/a.h only
  const auto edited_headers = headers_of(edited);
  const cuda::HeaderDigests after(edited_headers);
  EXPECT_NE(after.digest_for(uses_a), a0);
  EXPECT_EQ(after.digest_for(uses_c), c0);
  EXPECT_EQ(after.digest_for(uses_d), base.digest_for(uses_d));

  // An include that names no header of the set: the digest of them all, which any edit changes.
  const std::string unknown = "#include \"k/missing.h\"\n";
  EXPECT_NE(base.digest_for(unknown), a0);
  EXPECT_NE(after.digest_for(unknown), base.digest_for(unknown));
}
