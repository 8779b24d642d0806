// compile_shader reads kernel signatures from the source text: what it finds and how it types them.
#include <gtest/gtest.h>

#include "ingot/error.h"
#include "shader/signature.h"

namespace ingot::shader {
namespace {

TEST(ShaderSignature, FindsKernelsPastCommentsStringsLaunchBoundsAndExternC) {
  const auto kernels = parse_kernels(R"src(
// __global__ void commented_out(int* x) {}
/* __global__ void also_not(int* x) {} */
const char* s = "__global__ void in_a_string(int* x)";
extern "C" __global__ void __launch_bounds__(256, 2) plain(const float* __restrict__ x,
                                                           float* y,   // trailing comment
                                                           int n = 4) {}
__global__ void declared_only(double* d);
template <typename T, int N = 2>
__global__ void templated(const T* in, T* const* outs, unsigned long long k) {}
__device__ int helper(int x) { return x; }
)src");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].name, "plain");
  ASSERT_EQ(kernels[0].params.size(), 3u);
  EXPECT_EQ(kernels[0].params[0].name, "x");
  EXPECT_EQ(kernels[0].params[2].name, "n");
  EXPECT_TRUE(kernels[0].template_params.empty());
  EXPECT_EQ(kernels[1].name, "declared_only");
  EXPECT_EQ(kernels[2].name, "templated");
  EXPECT_EQ(kernels[2].template_params, (std::vector<std::string>{"T", "N"}));
}

TEST(ShaderSignature, ClassifiesParametersByDeclaredType) {
  const auto k = parse_kernels(
      "template <typename T> __global__ void f(const T* __restrict__ a, T* const* b, T c, "
      "unsigned long long d, ingot::ErrorBuffer* e, void* f, Pair g, int& h) {}")[0];
  const std::vector<std::string> args = {"unsigned int"};
  std::vector<ParamType> t;
  for (const ParsedParam& p : k.params) t.push_back(classify_param(p, k.template_params, {"float"}));
  EXPECT_EQ(t[0].kind, ParamKind::Pointer);
  EXPECT_EQ(t[0].ctype, CType::F32);
  EXPECT_EQ(t[0].spelled, "const float* __restrict__");
  EXPECT_EQ(t[1].kind, ParamKind::PointerArray);
  EXPECT_EQ(t[2].kind, ParamKind::Scalar);
  EXPECT_EQ(t[3].ctype, CType::U64);
  EXPECT_EQ(t[4].kind, ParamKind::ErrorBuffer);
  EXPECT_EQ(t[5].kind, ParamKind::Pointer);
  EXPECT_EQ(t[5].ctype, CType::Void);
  EXPECT_EQ(t[6].kind, ParamKind::Unsupported);
  EXPECT_EQ(t[7].kind, ParamKind::Unsupported);
  // A multi-word template argument substitutes as a whole type.
  EXPECT_EQ(classify_param(k.params[2], k.template_params, args).ctype, CType::U32);
}

TEST(ShaderSignature, KernelRequestsSplitTemplateArguments) {
  const KernelRequest r = parse_kernel_request("scale< float , 4 >");
  EXPECT_EQ(r.base, "scale");
  EXPECT_EQ(r.template_args, (std::vector<std::string>{"float", "4"}));
  EXPECT_TRUE(parse_kernel_request("scale").template_args.empty());
  EXPECT_THROW(parse_kernel_request("scale<float"), ValueError);
}

}  // namespace
}  // namespace ingot::shader
