#!/usr/bin/env python3
# ===- train_digits.py - Train a small CNN on scikit-learn's digits -------===#
#
# Trains a convolutional network on the 8x8 digit images shipped with
# scikit-learn (1797 images, no download) through the plaidml package: the
# forward pass, the loss (cross-entropy or MSE), the backward pass built by
# plaidml.edsl.gradients and the optimizer update (Adam or SGD with
# momentum) form one program, compiled once and run once per batch. Prints
# a progress bar per epoch with the loss and accuracy, the held-out test
# accuracy at the end, and writes a PNG of the curves (matplotlib).
#
#   .venv/bin/python3 examples/train_digits.py --device cpu --epochs 15
#
# The weights and the optimizer state stay on the device: each step's
# updated tensors (DeviceTensors of Executable.run_on_device) are the next
# step's inputs, so a step uploads only its batch and reads back only the
# loss and the logits (for the progress bar).
#
# ===----------------------------------------------------------------------===#

import argparse
import sys
import time

import numpy as np

import plaidml
import plaidml.exec
import plaidml.op as op
from plaidml.edsl import DType, Placeholder, gradients, relu, reshape, sqrt

F32 = DType.FLOAT32


def init_params(rng):
    """He-initialized weights: conv 3x3x1x16, conv 3x3x16x32, dense 128x64, dense 64x10."""

    def he(shape, fan_in):
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

    return {
        'w1': he([3, 3, 1, 16], 9),
        'b1': np.zeros([16], np.float32),
        'w2': he([3, 3, 16, 32], 144),
        'b2': np.zeros([32], np.float32),
        'w3': he([128, 64], 128),
        'b3': np.zeros([64], np.float32),
        'w4': he([64, 10], 64),
        'b4': np.zeros([10], np.float32),
    }


def forward(x, p):
    """Logits of images x (N x 8 x 8 x 1, NHWC)."""
    h = relu(op.convolution(x, p['w1'], p['b1'], padding='same_upper'))
    h = relu(op.convolution(h, p['w2'], p['b2'], padding='same_upper'))
    h = op.max_pool(h, [2, 2], [2, 2])  # N x 4 x 4 x 32
    h = op.max_pool(h, [2, 2], [2, 2])  # N x 2 x 2 x 32
    h = reshape(h, [h.shape[0], 128])
    h = relu(op.dense(h, p['w3'], p['b3']))
    return op.dense(h, p['w4'], p['b4'])


def loss_of(logits, y, kind, batch):
    if kind == 'mse':
        d = op.softmax(logits, axis=-1) - y
        return op.sum(d * d) * (1.0 / batch)
    return -op.sum(y * op.log_softmax(logits, axis=-1)) * (1.0 / batch)


def build_train_step(names, shapes, batch, loss_kind, optimizer, lr, momentum=0.9, beta1=0.9,
                     beta2=0.999, eps=1e-8):
    """One program: (x, y, step-size, params..., state...) ->
    (loss, logits, params..., state...)."""
    x = Placeholder(F32, [batch, 8, 8, 1], name='x')
    y = Placeholder(F32, [batch, 10], name='y')
    # Adam's bias-corrected step size changes every step: an input.
    alpha = Placeholder(F32, [], name='alpha')
    p = {n: Placeholder(F32, shapes[n], name=n) for n in names}
    logits = forward(x, p)
    loss = loss_of(logits, y, loss_kind, batch)
    grads = gradients(loss, [p[n] for n in names])
    new_params, states, new_states = [], [], []
    for n, g in zip(names, grads):
        if optimizer == 'sgd':
            v = Placeholder(F32, shapes[n], name='v_' + n)
            v2 = v * momentum - g * alpha
            new_params.append(p[n] + v2)
            states.append(v)
            new_states.append(v2)
        else:
            m = Placeholder(F32, shapes[n], name='m_' + n)
            v = Placeholder(F32, shapes[n], name='v_' + n)
            m2 = m * beta1 + g * (1.0 - beta1)
            v2 = v * beta2 + g * g * (1.0 - beta2)
            new_params.append(p[n] - alpha * m2 / (sqrt(v2) + eps))
            states += [m, v]
            new_states += [m2, v2]
    inputs = [x, y, alpha] + [p[n] for n in names] + states
    outputs = [loss, logits] + new_params + new_states
    return plaidml.Program('train_step', inputs, outputs)


def build_predict(names, shapes, batch):
    x = Placeholder(F32, [batch, 8, 8, 1], name='x')
    p = {n: Placeholder(F32, shapes[n], name=n) for n in names}
    return plaidml.Program('predict', [x] + [p[n] for n in names], [forward(x, p)])


def load_digits(seed, test_fraction):
    from sklearn.datasets import load_digits as sk_load
    data = sk_load()
    x = (data.images / 16.0).astype(np.float32)[..., None]
    y = data.target.astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(x))
    n_test = int(round(len(x) * test_fraction))
    test, train = order[:n_test], order[n_test:]
    return x[train], y[train], x[test], y[test]


def progress(epoch, epochs, done, total, loss, acc, width=30):
    filled = int(width * done / total)
    bar = '#' * filled + '-' * (width - filled)
    sys.stdout.write('\repoch {:3d}/{} [{}] {:4d}/{} loss {:.4f} acc {:.3f}'.format(
        epoch, epochs, bar, done, total, loss, acc))
    sys.stdout.flush()


def predict(exe, params, x, batch):
    """Class predictions for `x`; `params` are DeviceTensors (or arrays) in
    the predictor's input order after the images."""
    preds = []
    for s in range(0, len(x), batch):
        xb = x[s:s + batch]
        n = len(xb)
        if n < batch:  # pad the last batch
            xb = np.concatenate([xb, np.zeros((batch - n,) + xb.shape[1:], np.float32)])
        logits = exe.run_on_device([xb] + list(params))[0].numpy()
        preds.append(np.argmax(logits[:n], axis=1))
    return np.concatenate(preds)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0] if __doc__ else None)
    ap.add_argument('--device', default='cpu', help='cpu, vulkan:0, opencl:0, reference')
    ap.add_argument('--epochs', type=int, default=15)
    ap.add_argument('--batch', type=int, default=32)
    ap.add_argument('--optimizer', choices=['adam', 'sgd'], default='adam')
    ap.add_argument('--loss', choices=['xent', 'mse'], default='xent')
    ap.add_argument('--lr', type=float, default=None,
                    help='learning rate (default 0.003 for adam, 0.05 for sgd)')
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--test-fraction', type=float, default=0.2)
    ap.add_argument('--train-limit', type=int, default=0,
                    help='use only this many training images (0: all)')
    ap.add_argument('--plot', default='', help='write the curves to this PNG')
    ap.add_argument('--min-accuracy', type=float, default=None,
                    help='exit 1 unless the test accuracy reaches this')
    args = ap.parse_args(argv)
    lr = args.lr if args.lr is not None else (0.003 if args.optimizer == 'adam' else 0.05)

    x_train, y_train, x_test, y_test = load_digits(args.seed, args.test_fraction)
    if args.train_limit:
        x_train, y_train = x_train[:args.train_limit], y_train[:args.train_limit]
    rng = np.random.default_rng(args.seed)
    params = init_params(rng)
    names = list(params)
    shapes = {n: list(v.shape) for n, v in params.items()}
    state = []
    for n in names:
        state += [np.zeros_like(params[n])] * (1 if args.optimizer == 'sgd' else 2)

    t0 = time.time()
    step = plaidml.exec.Executable(
        build_train_step(names, shapes, args.batch, args.loss, args.optimizer, lr), device=args.device)
    pred = plaidml.exec.Executable(build_predict(names, shapes, args.batch), device=args.device)
    print('device {}: compiled the train step and the predictor in {:.1f} s'.format(
        args.device, time.time() - t0))
    print('{} training images, {} test images, batch {}, {} with lr {}, {} loss'.format(
        len(x_train), len(x_test), args.batch, args.optimizer, lr, args.loss))

    # Weights and optimizer state to the device once: inputs 3... of the step.
    step_inputs = [n for n, _ in step.inputs]
    on_device = [
        step.upload(v, step_inputs[3 + i])
        for i, v in enumerate([params[n] for n in names] + state)
    ]

    history = {'loss': [], 'train_acc': [], 'test_acc': []}
    onehot = np.eye(10, dtype=np.float32)
    steps_per_epoch = len(x_train) // args.batch  # the last partial batch is dropped
    t = 0
    epoch_times = []
    for epoch in range(1, args.epochs + 1):
        start = time.time()
        order = rng.permutation(len(x_train))
        total_loss, correct, seen = 0.0, 0, 0
        for s in range(steps_per_epoch):
            idx = order[s * args.batch:(s + 1) * args.batch]
            t += 1
            if args.optimizer == 'adam':
                alpha = lr * np.sqrt(1 - 0.999**t) / (1 - 0.9**t)
            else:
                alpha = lr
            out = step.run_on_device([x_train[idx], onehot[y_train[idx]],
                                      np.float32(alpha)] + on_device)
            loss, logits = float(out[0].numpy()), out[1].numpy()
            on_device = out[2:]
            total_loss += loss
            correct += int(np.sum(np.argmax(logits, axis=1) == y_train[idx]))
            seen += len(idx)
            progress(epoch, args.epochs, s + 1, steps_per_epoch, total_loss / (s + 1),
                     correct / seen)
        epoch_times.append(time.time() - start)
        test_acc = float(np.mean(
            predict(pred, on_device[:len(names)], x_test, args.batch) == y_test))
        history['loss'].append(total_loss / steps_per_epoch)
        history['train_acc'].append(correct / seen)
        history['test_acc'].append(test_acc)
        sys.stdout.write('  test acc {:.3f}  ({:.2f} s)\n'.format(test_acc, epoch_times[-1]))
        if not np.isfinite(total_loss):
            print('the loss is not finite')
            return 1

    final = history['test_acc'][-1]
    print('held-out test accuracy: {:.2f}% after {} epochs; {:.2f} s per epoch on {}'.format(
        100 * final, args.epochs, float(np.mean(epoch_times)), args.device))
    if args.plot:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(8, 3), dpi=80)
        epochs = range(1, args.epochs + 1)
        a1.plot(epochs, history['loss'], 'o-')
        a1.set_xlabel('epoch')
        a1.set_ylabel('training loss')
        a1.set_yscale('log')
        a2.plot(epochs, history['train_acc'], 'o-', label='train')
        a2.plot(epochs, history['test_acc'], 's-', label='held-out test')
        a2.set_xlabel('epoch')
        a2.set_ylabel('accuracy')
        a2.legend(loc='lower right')
        fig.suptitle('CNN on scikit-learn digits, plaidml {} ({})'.format(args.device, args.optimizer))
        fig.tight_layout()
        fig.savefig(args.plot)
        print('wrote', args.plot)
    if args.min_accuracy is not None:
        first, last = history['loss'][0], history['loss'][-1]
        if not last < first:
            print('FAIL: the loss did not fall ({:.4f} -> {:.4f})'.format(first, last))
            return 1
        if final < args.min_accuracy:
            print('FAIL: test accuracy {:.3f} < {:.3f}'.format(final, args.min_accuracy))
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
