"""Seed a JAX or PyTorch run the way `keras.utils.set_random_seed` does, minus TensorFlow.

Keras's own helper also seeds TensorFlow whenever TF is installed — importing it into a JAX run.
"""

from __future__ import annotations

import random

import keras
import numpy as np
from keras.src.backend.common import global_state
from keras.src.random import seed_generator
from keras.src.utils import rng_utils


def set_seed(seed: int) -> None:
    global_state.set_global_attribute(rng_utils.GLOBAL_RANDOM_SEED, seed)
    global_state.set_global_attribute(seed_generator.GLOBAL_SEED_GENERATOR, None)
    random.seed(seed)
    np.random.seed(seed)
    if keras.backend.backend() == "torch":
        import torch

        torch.manual_seed(seed)
