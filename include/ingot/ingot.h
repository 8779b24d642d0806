// ingot's public API: include this one header.
#pragma once

#include "ingot/array_ref.h"
#include "ingot/cuda.h"
#include "ingot/device.h"
#include "ingot/dtype.h"
#include "ingot/error.h"
#include "ingot/factories.h"
#include "ingot/half.h"
#include "ingot/scalar.h"
#include "ingot/shader.h"
#include "ingot/storage.h"
#include "ingot/tensor.h"
#include "ingot/threads.h"
#include "ingot/type_promotion.h"
#include "ingot/generated/functions.h"
