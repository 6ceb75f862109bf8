"""Native PyTorch training (`--backend torch`, issue 23): the zoo as torch.nn modules, trained the way PyTorch
users train — torch.compile on by default, autocast bf16/fp16 (a GradScaler for fp16), channels_last for
convnets, fused optimizers where the build has them — timed with the same windows and steady-state rules as
every run (engine.worker.window_timer). Nothing here imports Keras or TensorFlow.

  models.py  name → builder registry (imported lazily): small.py (the seed CNNs, Reuters Conv1D, BiLSTM),
             vision.py (ResNet-50, VGG19), inception.py (InceptionV3), transformer.py (GPT, BERT on SDPA)
  attention.py  which fused SDPA kernel ran, tokens/s, a FLOP counter that sees the CPU's SDPA kernel
  data.py    NumPy batches (engine.worker.arrays) as device tensors, images NCHW in channels_last memory
  clock.py   the device sync and the window clock (CUDA events on a GPU, synced perf_counter on a CPU)
  step.py    the training step: optimizer, autocast, GradScaler, torch.compile, TF32 setting
  check.py   the correctness check: a compiled or mixed-precision step against eager float32, same weights
  user_fn.py `--model-fn module:build` returning a torch.nn.Module
  run.py     the run: build, time, check, the result row
"""
