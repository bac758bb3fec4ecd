//===- Inception.cpp - Inception-v3 ---------------------------------------===//
//
// Inception-v3 as in Keras applications: the stem, three A blocks, the B
// reduction, four C blocks with factorized 7x7 convolutions, the D
// reduction and two E blocks, then the classifier. Every convolution is
// followed by batch norm and ReLU.
//
//===----------------------------------------------------------------------===//

#include "Builder.h"

using namespace plaidml;
using namespace plaidml::networks;
using namespace plaidml::networks::detail;
using op::Padding;

namespace {
struct Inception {
  NetBuilder &b;
  int counter = 0;

  Tensor conv(const Tensor &x, int64_t out, int64_t kh, int64_t kw,
              int64_t stride = 1, Padding padding = Padding::SameUpper) {
    return b.convBn(x, kh, kw, b.ch(out), stride, Act::Relu, padding,
                    "conv" + std::to_string(counter++));
  }
  Tensor avgPool3(const Tensor &x) {
    return b.avgPool(x, 3, 1, Padding::SameUpper);
  }

  Tensor blockA(const Tensor &x, int64_t poolFeatures) {
    Tensor b1 = conv(x, 64, 1, 1);
    Tensor b5 = conv(conv(x, 48, 1, 1), 64, 5, 5);
    Tensor b3 = conv(conv(conv(x, 64, 1, 1), 96, 3, 3), 96, 3, 3);
    Tensor bp = conv(avgPool3(x), poolFeatures, 1, 1);
    return op::concat({b1, b5, b3, bp}, -1);
  }
  Tensor blockB(const Tensor &x) {
    Tensor b3 = conv(x, 384, 3, 3, 2, Padding::Valid);
    Tensor bd =
        conv(conv(conv(x, 64, 1, 1), 96, 3, 3), 96, 3, 3, 2, Padding::Valid);
    Tensor bp = b.maxPool(x, 3, 2, Padding::Valid);
    return op::concat({b3, bd, bp}, -1);
  }
  Tensor blockC(const Tensor &x, int64_t c7) {
    Tensor b1 = conv(x, 192, 1, 1);
    Tensor b7 = conv(conv(conv(x, c7, 1, 1), c7, 1, 7), 192, 7, 1);
    Tensor bd = conv(x, c7, 1, 1);
    bd = conv(conv(bd, c7, 7, 1), c7, 1, 7);
    bd = conv(conv(bd, c7, 7, 1), 192, 1, 7);
    Tensor bp = conv(avgPool3(x), 192, 1, 1);
    return op::concat({b1, b7, bd, bp}, -1);
  }
  Tensor blockD(const Tensor &x) {
    Tensor b3 = conv(conv(x, 192, 1, 1), 320, 3, 3, 2, Padding::Valid);
    Tensor b7 = conv(conv(conv(x, 192, 1, 1), 192, 1, 7), 192, 7, 1);
    b7 = conv(b7, 192, 3, 3, 2, Padding::Valid);
    Tensor bp = b.maxPool(x, 3, 2, Padding::Valid);
    return op::concat({b3, b7, bp}, -1);
  }
  Tensor blockE(const Tensor &x) {
    Tensor b1 = conv(x, 320, 1, 1);
    Tensor b3 = conv(x, 384, 1, 1);
    b3 = op::concat({conv(b3, 384, 1, 3), conv(b3, 384, 3, 1)}, -1);
    Tensor bd = conv(conv(x, 448, 1, 1), 384, 3, 3);
    bd = op::concat({conv(bd, 384, 1, 3), conv(bd, 384, 3, 1)}, -1);
    Tensor bp = conv(avgPool3(x), 192, 1, 1);
    return op::concat({b1, b3, bd, bp}, -1);
  }
};
} // namespace

Network detail::buildInceptionV3(const NetworkOptions &options) {
  if (options.imageSize < 75)
    throw edsl::Error("inception_v3: the image size must be at least 75, "
                      "not " +
                      std::to_string(options.imageSize));
  NetBuilder b(options);
  Inception n{b};
  Tensor x = n.conv(b.getImage(), 32, 3, 3, 2, Padding::Valid);
  x = n.conv(x, 32, 3, 3, 1, Padding::Valid);
  x = n.conv(x, 64, 3, 3);
  x = b.maxPool(x, 3, 2, Padding::Valid);
  x = n.conv(x, 80, 1, 1, 1, Padding::Valid);
  x = n.conv(x, 192, 3, 3, 1, Padding::Valid);
  x = b.maxPool(x, 3, 2, Padding::Valid);
  x = n.blockA(x, 32);
  x = n.blockA(x, 64);
  x = n.blockA(x, 64);
  x = n.blockB(x);
  for (int64_t c7 : {128, 160, 160, 192})
    x = n.blockC(x, c7);
  x = n.blockD(x);
  x = n.blockE(x);
  x = n.blockE(x);
  return b.finish("inception_v3", b.classifier(x));
}
