"""Seed-article facts the shared CSV lacks, and per-row fixes no general rule can make.

Each added row quotes the article it comes from in `notes`. Values are the article's own digits;
where the article gives a clock reading rather than a number, the derivation is stated.
"""

from __future__ import annotations

_ADDED = "Added in curation from the seed article text (not in the shared CSV)."
_FLOWERS_LOG = (
    "From the article's Keras log of VGG19 on the Colab TPU at batch 128 (the run behind Table 2's 127.82 s): "
)
_SEED_002_TITLE = (
    "Seed article (Chinese): TensorFlow GPU settings -- CPU vs GPU matmul, logical GPUs, MirroredStrategy "
    "(as described in project seed; URL not supplied)"
)
_FLOWERS_COMMON = {
    "source_id": "SEED-VN-FLOWERS",
    "framework": "tensorflow",
    "framework_label": "TensorFlow/Keras (version not stated)",
    "task": "training",
    "dataset": "flowers",
    "dataset_label": "flowers TFRecords 192x192, 5 classes",
    "data_kind": "real",
}
_TPU_V2_8 = {
    "hardware_label": "Google Cloud TPU v2-8 (Colab; 4 chips / 8 cores)",
    "hardware_key": "tpu_v2_8",
    "device_type": "tpu",
    "hardware_count": "1",
    "count_unit": "board",
}
_VGG19_TPU_128 = {
    **_FLOWERS_COMMON,
    **_TPU_V2_8,
    "model": "vgg19",
    "model_label": "VGG19",
    "params": "112327749",
    "batch_size": "128",
    "batch_scope": "unknown",
    "batch_label": "128",
    "epochs": "25",
    "steps_per_epoch": "23",
    "precision": "unknown",
    "precision_label": "not stated",
    "xla": "True",
}
_RISEML_TPU = {
    "source_id": "SEED-RISEML",
    "hardware_label": "Cloud TPU (4x TPUv2 chips)",
    "hardware_key": "tpu_v2_8",
    "device_type": "tpu",
    "hardware_count": "1",
    "count_unit": "board",
}
_LSTM = {
    "framework": "tensorflow",
    "framework_version": "1.6/1.5",
    "framework_label": "TensorFlow 1.6 (TPU) / 1.5 (GPU) per seed",
    "task": "training",
    "model": "bilstm",
    "model_label": "BiLSTM text classifier, 1024 hidden units",
    "dataset": "text_unnamed",
    "dataset_label": "text classification (not named)",
    "data_kind": "unknown",
    "precision": "unknown",
    "precision_label": "not stated",
    "metric": "speedup_vs",
    "unit": "x",
}
_MATMUL = {
    "source_id": "SEED-TF-GPU-SETTINGS",
    "source_title": _SEED_002_TITLE,
    "source_kind": "seed",
    "hardware_count": "1",
    "framework": "tensorflow",
    "framework_label": "TensorFlow 2 (tf.config API; version not stated)",
    "task": "micro",
    "model": "matmul",
    "model_label": "matmul: tf.random.uniform (10000x100) @ (100x100000), then reduce_sum",
    "dataset": "synthetic",
    "dataset_label": "random uniform [0, 3)",
    "data_kind": "synthetic",
    "shape": "(10000x100)@(100x100000)",
    "precision": "float32",
    "precision_label": "float32 (tf.random.uniform default dtype)",
    "metric": "op_time_s",
    "unit": "s",
}

ADDED_ROWS: list[dict[str, str]] = [
    # --- article 001 (Vietnamese): the training log and prose around the two tables ---
    {
        **_VGG19_TPU_128,
        "metric": "first_epoch_s",
        "value": "14",
        "unit": "s",
        "value_kind": "approx",
        "notes": f"{_FLOWERS_LOG}epoch 1 '14s 619ms/step' (includes graph compilation); article: '~14s'. {_ADDED}",
    },
    {
        **_VGG19_TPU_128,
        "metric": "epoch_time_s",
        "value": "4",
        "unit": "s",
        "value_kind": "approx",
        "notes": f"{_FLOWERS_LOG}epochs 2-5 each '4s'; article: '~4s' per later epoch. {_ADDED}",
    },
    {
        **_VGG19_TPU_128,
        "metric": "step_time_ms",
        "value": "619",
        "unit": "ms",
        "value_kind": "exact",
        "notes": f"{_FLOWERS_LOG}epoch 1 mean step time as printed (compile included). {_ADDED}",
    },
    {
        **_VGG19_TPU_128,
        "metric": "step_time_ms",
        "value": "171.5",
        "unit": "ms",
        "value_kind": "derived",
        "notes": f"{_FLOWERS_LOG}median of the printed epochs 2-5 step times 171, 177, 172, 171 ms. {_ADDED}",
    },
    {
        **_FLOWERS_COMMON,
        "hardware_label": "NVIDIA Tesla K80 (1 GK210 die as exposed by Colab)",
        "hardware_key": "k80",
        "device_type": "gpu",
        "hardware_count": "1",
        "count_unit": "die",
        "model": "vgg19",
        "model_label": "VGG19",
        "params": "112327749",
        "batch_size": "32",
        "batch_scope": "global",
        "batch_label": "32",
        "epochs": "25",
        "precision": "unknown",
        "precision_label": "not stated",
        "metric": "epoch_time_s",
        "value": "74",
        "unit": "s",
        "value_kind": "approx",
        "notes": f"Article: on the Colab K80 each epoch took '~74s' (total 1866.703 s). {_ADDED}",
    },
    {
        **_FLOWERS_COMMON,
        **_TPU_V2_8,
        "hardware_label": "Cloud TPU v2 on GCP (one board)",
        "task": "price",
        "dataset": "",
        "dataset_label": "",
        "data_kind": "",
        "metric": "price_usd_per_h",
        "value": "4.5",
        "unit": "USD/h",
        "value_kind": "exact",
        "notes": f"Article: renting a Cloud TPU v2 on GCP costs $4.5 per hour (Colab is free). {_ADDED}",
    },
    *[
        {
            **_FLOWERS_COMMON,
            **_TPU_V2_8,
            "hardware_label": "Google Cloud TPU v2-8 (Colab) vs NVIDIA Tesla P100",
            "baseline_key": "p100",
            "model": "",
            "model_label": "larger models (VGG19, Xception, ResNet152V2)",
            "precision": "unknown",
            "precision_label": "not stated",
            "metric": "speedup_vs",
            "value": value,
            "unit": "x",
            "value_kind": kind,
            "notes": (
                f"Article's summary: for larger models the TPU is 'usually about 1.5 - 2 times' faster than the "
                f"P100 ({kind.replace('_', ' ')} of that range; approximate claim). Its own tables give 1.5-3.2x "
                f"at TPU batch 32 and 2.8-5.2x at TPU batch 128. {_ADDED}"
            ),
        }
        for value, kind in (("1.5", "lower_bound"), ("2", "upper_bound"))
    ],
    # --- article 002 (Chinese): CPU vs GPU matmul, timed by printed wall-clock stamps ---
    {
        **_MATMUL,
        "hardware_label": "CPU (with tf.device('/cpu:0'); model not stated)",
        "hardware_key": "cpu",
        "device_type": "cpu",
        "count_unit": "host",
        "value": "6",
        "value_kind": "approx",
        "doubtful": "True",
        "doubt_reason": "about 6 s from 1-s clock stamps (17:37:34 -> 17:37:40); includes input generation and printing",
        "notes": (
            "Article prints the wall clock before and after: 17:37:34 -> 17:37:40, i.e. about 6 s at 1-s "
            "resolution; the timed block also draws the random inputs, reduces and prints. "
            f"2 x 10000 x 100 x 100000 = 2.0e11 FLOP. {_ADDED}"
        ),
    },
    {
        **_MATMUL,
        "hardware_label": "GPU (with tf.device('/gpu:0'); model not stated)",
        "hardware_key": "gpu_unknown",
        "device_type": "gpu",
        "count_unit": "gpu",
        "value": "1",
        "value_kind": "upper_bound",
        "doubtful": "True",
        "doubt_reason": "upper bound from 1-s clock stamps (both read 17:37:01); GPU model not stated",
        "notes": (
            "Article prints the wall clock before and after: 17:37:01 -> 17:37:01, so the block took under a "
            f"second; stored as that 1 s upper bound. Same 2.0e11 FLOP matmul. {_ADDED}"
        ),
    },
    # --- article 003 (Chinese summary of RiseML, Feb 2018) ---
    {
        **_RISEML_TPU,
        "hardware_label": "Cloud TPU (4x TPUv2 chips), beta",
        "task": "price",
        "metric": "price_usd_per_h",
        "value": "6.5",
        "unit": "USD/h",
        "value_kind": "exact",
        "notes": f"Seed: 'only $6.5 per hour' for a Cloud TPU (beta, Feb 2018). {_ADDED}",
    },
    {
        **_RISEML_TPU,
        **_LSTM,
        "hardware_label": "Cloud TPU (4x TPUv2 chips) vs NVIDIA Tesla V100",
        "baseline_key": "v100",
        "value": "7.7",
        "value_kind": "exact",
        "notes": f"Seed: TPU (21402 examples/s) is 7.7x faster than V100 (2778 examples/s). {_ADDED}",
    },
    {
        **_RISEML_TPU,
        **_LSTM,
        "hardware_label": "Cloud TPU (4x TPUv2 chips) vs NVIDIA Tesla P100",
        "baseline_key": "p100",
        "value": "16.9",
        "value_kind": "exact",
        "doubtful": "True",
        "doubt_reason": "contradicts the same sentence's numbers: 21402 / 1658 = 12.9x (RiseML and SEC-GSLIN say 12.9x)",
        "notes": f"Seed text says 16.9x faster than P100 (1658 examples/s); almost surely a typo for 12.9x. {_ADDED}",
    },
    {
        **_RISEML_TPU,
        "hardware_label": "Google TPUv2 chip (2 cores)",
        "hardware_key": "tpu_v2",
        "count_unit": "chip",
        "task": "spec",
        "precision": "unknown",
        "precision_label": "not stated (Google figure)",
        "metric": "peak_tflops",
        "value": "45",
        "unit": "TFLOPS",
        "value_kind": "exact",
        "notes": f"Seed: each chip has two cores which together give 45 TFLOPS (Jeff Dean's slides). {_ADDED}",
    },
    {
        **_RISEML_TPU,
        "hardware_label": "Google TPUv2 chip",
        "hardware_key": "tpu_v2",
        "count_unit": "chip",
        "task": "spec",
        "metric": "memory_gb",
        "value": "16",
        "unit": "GB",
        "value_kind": "exact",
        "notes": f"Seed: each TPUv2 chip has 16 GB of memory. {_ADDED}",
    },
    {
        "source_id": "SEED-RISEML",
        "hardware_label": "NVIDIA Tesla V100",
        "hardware_key": "v100",
        "device_type": "gpu",
        "hardware_count": "1",
        "count_unit": "gpu",
        "task": "spec",
        "precision": "float16",
        "precision_label": "not stated in seed (tensor-core fp16 per RISEML-2018A)",
        "metric": "peak_tflops",
        "value": "125",
        "unit": "TFLOPS",
        "value_kind": "exact",
        "notes": f"Seed: a V100 provides 125 TFLOPS and 16 GB. {_ADDED}",
    },
    {
        "source_id": "SEED-RISEML",
        "hardware_label": "NVIDIA Tesla V100",
        "hardware_key": "v100",
        "device_type": "gpu",
        "hardware_count": "1",
        "count_unit": "gpu",
        "task": "spec",
        "metric": "memory_gb",
        "value": "16",
        "unit": "GB",
        "value_kind": "exact",
        "notes": f"Seed: a V100 provides 125 TFLOPS and 16 GB. {_ADDED}",
    },
]

_CONV_SHAPE = {"shape": "128x256x256x? * 5x5x?x256", "dataset": "synthetic", "data_kind": "synthetic"}
_RISEML_CNN_NOTE = (
    " Seed text: TPU batch 1024 vs GPU batch 128; data was Google's fake (synthetic) ImageNet; GPUs ran "
    "tf_cnn_benchmarks on TF 1.5, the TPU TF 1.6.0-rc1. The seed adds that fp16 would speed the V100 up "
    "further, which implies the GPU runs behind these ratios were fp32."
)
_HALF_POD = {
    "doubtful": "True",
    "doubt_reason": "chip count (128) inferred from 'half of a TPUv2 Pod'",
}

ROW_OVERRIDES: dict[str, dict[str, str]] = {
    "SEED-COLAB-CONV-01": {**_CONV_SHAPE, "task": "micro"},
    "SEED-COLAB-CONV-02": {**_CONV_SHAPE, "task": "micro"},
    "SEED-COLAB-CONV-03": {
        **_CONV_SHAPE,
        "task": "micro",
        "xla": "",
        "doubtful": "True",
        "doubt_reason": (
            "NOT a TPU measurement: with the TPU runtime selected the plain code ran on the VM's host CPU "
            "(2.47 s vs 2.44 s on the CPU runtime); never chart it as a TPU"
        ),
    },
    **{
        f"SEED-COLAB-FMNIST-0{i}": {"epochs": "5", "steps_per_epoch": "100", "batch_scope": "global"} for i in (1, 2, 3)
    },
    **{f"SEED-VN-FLOWERS-{i:02d}": {"epochs": "25"} for i in range(1, 21)},
    **{f"SEED-VN-FLOWERS-{i:02d}": {"epochs": "25", "steps_per_epoch": "23"} for i in (2, 7, 12, 17)},
    "DAWNBENCH-07": _HALF_POD,
    "DAWNBENCH-14": _HALF_POD,
    # "+notes" is appended to the row's notes rather than replacing them.
    **{
        f"SEED-RISEML-0{i}": {"data_kind": "synthetic", "batch_scope": "global", "+notes": _RISEML_CNN_NOTE}
        for i in (1, 2, 3, 4)
    },
}
