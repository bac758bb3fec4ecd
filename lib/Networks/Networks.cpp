//===- Networks.cpp - MobileNet v1/v2, ResNet-50, VGG-16 ------------------===//
//
// The layer sequences of the published networks (Keras applications'
// definitions), inference form: batch norm after each convolution, ReLU6
// in the MobileNets, ReLU elsewhere, global average pooling and a softmax
// classifier (VGG-16 keeps its flatten and two 4096-wide dense layers).
//
//===----------------------------------------------------------------------===//

#include "Builder.h"

using namespace plaidml;
using namespace plaidml::networks;
using namespace plaidml::networks::detail;
using op::Padding;

Network detail::buildMobileNet(const NetworkOptions &options) {
  NetBuilder b(options);
  Tensor x = b.convBn(b.getImage(), 3, 3, b.ch(32), 2, Act::Relu6,
                      Padding::SameUpper, "conv1");
  struct Block {
    int64_t out, stride;
  };
  const Block blocks[] = {{64, 1},  {128, 2},  {128, 1}, {256, 2}, {256, 1},
                          {512, 2}, {512, 1},  {512, 1}, {512, 1}, {512, 1},
                          {512, 1}, {1024, 2}, {1024, 1}};
  int i = 1;
  for (const Block &blk : blocks) {
    std::string name = "block" + std::to_string(i++);
    x = b.depthwiseBn(x, 3, blk.stride, Act::Relu6, name + "_dw");
    x = b.convBn(x, 1, 1, b.ch(blk.out), 1, Act::Relu6, Padding::Valid,
                 name + "_pw");
  }
  return b.finish("mobilenet", b.classifier(x));
}

Network detail::buildMobileNetV2(const NetworkOptions &options) {
  NetBuilder b(options);
  Tensor x = b.convBn(b.getImage(), 3, 3, b.ch(32), 2, Act::Relu6,
                      Padding::SameUpper, "conv1");
  struct Stage {
    int64_t expansion, out, repeats, stride;
  };
  const Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2},
                          {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2},
                          {6, 320, 1, 1}};
  int i = 0;
  for (const Stage &s : stages)
    for (int64_t r = 0; r < s.repeats; ++r) {
      std::string name = "block" + std::to_string(i++);
      int64_t in = x.getShape().back();
      int64_t stride = r == 0 ? s.stride : 1;
      Tensor y = x;
      if (s.expansion != 1)
        y = b.convBn(y, 1, 1, in * s.expansion, 1, Act::Relu6, Padding::Valid,
                     name + "_expand");
      y = b.depthwiseBn(y, 3, stride, Act::Relu6, name + "_dw");
      y = b.convBn(y, 1, 1, b.ch(s.out), 1, Act::None, Padding::Valid,
                   name + "_project");
      x = stride == 1 && in == y.getShape().back() ? x + y : y;
    }
  x = b.convBn(x, 1, 1, std::max<int64_t>(1280, b.ch(1280)), 1, Act::Relu6,
               Padding::Valid, "conv_last");
  return b.finish("mobilenet_v2", b.classifier(x));
}

Network detail::buildResNet50(const NetworkOptions &options) {
  NetBuilder b(options);
  Tensor x = b.convBn(b.getImage(), 7, 7, b.ch(64), 2, Act::Relu,
                      Padding::SameUpper, "conv1");
  x = b.maxPool(x, 3, 2, Padding::SameUpper);
  struct Stage {
    int64_t width, blocks, stride;
  };
  const Stage stages[] = {{64, 3, 1}, {128, 4, 2}, {256, 6, 2}, {512, 3, 2}};
  int si = 2;
  for (const Stage &s : stages) {
    for (int64_t blk = 0; blk < s.blocks; ++blk) {
      std::string name =
          "res" + std::to_string(si) + static_cast<char>('a' + blk);
      int64_t stride = blk == 0 ? s.stride : 1;
      int64_t w = b.ch(s.width), out = b.ch(s.width * 4);
      Tensor shortcut = x;
      if (blk == 0)
        shortcut = b.convBn(x, 1, 1, out, stride, Act::None, Padding::Valid,
                            name + "_branch1");
      Tensor y = b.convBn(x, 1, 1, w, stride, Act::Relu, Padding::Valid,
                          name + "_branch2a");
      y = b.convBn(y, 3, 3, w, 1, Act::Relu, Padding::SameUpper,
                   name + "_branch2b");
      y = b.convBn(y, 1, 1, out, 1, Act::None, Padding::Valid,
                   name + "_branch2c");
      x = op::relu(y + shortcut);
    }
    ++si;
  }
  return b.finish("resnet50", b.classifier(x));
}

Network detail::buildVgg16(const NetworkOptions &options) {
  if (options.imageSize < 32)
    throw edsl::Error("vgg16: the image size must be at least 32, not " +
                      std::to_string(options.imageSize));
  NetBuilder b(options);
  Tensor x = b.getImage();
  const int64_t blocks[5][2] = {
      {64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}};
  for (int blk = 0; blk < 5; ++blk) {
    for (int64_t c = 0; c < blocks[blk][1]; ++c)
      x = b.convBias(x, 3, b.ch(blocks[blk][0]), Act::Relu,
                     "block" + std::to_string(blk + 1) + "_conv" +
                         std::to_string(c + 1));
    x = b.maxPool(x, 2, 2, Padding::Valid);
  }
  x = op::flatten(x, 1);
  x = op::relu(b.dense(x, b.ch(4096), "fc1"));
  x = op::relu(b.dense(x, b.ch(4096), "fc2"));
  return b.finish("vgg16", op::softmax(b.dense(x, options.classes, "logits")));
}
