"""`tf` resolved on first use: modules that serve JAX and PyTorch runs too (engine.worker.datasets's
NumPy loaders) refer to TensorFlow without importing it until a TensorFlow-only path runs."""

from __future__ import annotations


class _LazyTensorFlow:
    def __getattr__(self, name: str):
        import tensorflow

        return getattr(tensorflow, name)


tf = _LazyTensorFlow()
