"""Every figure the four seed articles state is in the curated CSV with the article's exact value."""

from __future__ import annotations

import pytest

from engine.reference.data import seed_001_table


def _one(ref, **where):
    rows = ref
    for col, val in where.items():
        rows = rows[rows[col] == val]
    assert len(rows) == 1, f"expected one row for {where}, found {len(rows)}"
    return rows.iloc[0]


# Article 001, Table 1 (all batch 32) and Table 2 (TPU batch 128): seconds for 25 epochs.
TABLE_1 = {
    "flowers_cnn": {"tpu_v2_8": 90.5885, "k80": 205.77, "t4": 113.49, "p100": 72.94},
    "vgg19": {"tpu_v2_8": 213.0066, "k80": 1866.703, "t4": 947.92, "p100": 510.689},
    "xception": {"tpu_v2_8": 211.558, "k80": 2188.83, "t4": 1053.5027, "p100": 683.13},
    "resnet152v2": {"tpu_v2_8": 532.368, "k80": 2997.055, "t4": 1362.987, "p100": 813.402},
}
TABLE_2_TPU = {"flowers_cnn": 67.78, "vgg19": 127.82, "xception": 132.0539, "resnet152v2": 295.56}


@pytest.mark.parametrize("model", list(TABLE_1))
def test_article_001_tables(ref, model):
    for key, seconds in TABLE_1[model].items():
        row = _one(
            ref, source_id="SEED-VN-FLOWERS", metric="train_time_s", model=model, hardware_key=key, batch_size=32
        )
        assert row["value"] == seconds and row["unit"] == "s" and row["epochs"] == 25
    row = _one(ref, source_id="SEED-VN-FLOWERS", metric="train_time_s", model=model, batch_size=128)
    assert row["hardware_key"] == "tpu_v2_8" and row["value"] == TABLE_2_TPU[model]


def test_article_001_tables_as_published(ref):
    t1, t2 = seed_001_table(ref, 1), seed_001_table(ref, 2)
    assert list(t1.columns) == ["TPUv2", "K80", "T4", "P100"]
    assert list(t1.index) == ["Custom CNN", "VGG19", "Xception", "ResNet152V2"]
    assert t1.loc["VGG19", "K80"] == 1866.703 and t1.loc["Xception", "T4"] == 1053.5027
    assert t2.loc["VGG19", "TPUv2"] == 127.82 and t2.loc["VGG19", "K80"] == 1866.703
    assert not t1.isna().any().any() and not t2.isna().any().any()


def test_article_001_text_figures(ref):
    flowers = ref[ref["source_id"] == "SEED-VN-FLOWERS"]
    vgg_tpu = flowers[
        (flowers["model"] == "vgg19") & (flowers["hardware_key"] == "tpu_v2_8") & (flowers["batch_size"] == 128)
    ]
    by_metric = {m: sorted(g["value"]) for m, g in vgg_tpu.groupby("metric")}
    assert by_metric["first_epoch_s"] == [14.0] and by_metric["epoch_time_s"] == [4.0]
    assert by_metric["step_time_ms"] == [171.5, 619.0]
    assert _one(flowers, metric="epoch_time_s", hardware_key="k80")["value"] == 74.0
    assert _one(flowers, metric="price_usd_per_h")["value"] == 4.5
    params = dict(flowers.drop_duplicates("model").set_index("model")["params"].dropna())
    assert params == {"flowers_cnn": 78263, "vgg19": 112327749, "xception": 20871725, "resnet152v2": 58341893}


def test_article_000_conv_and_the_tpu_runtime_trap(ref):
    conv = ref[ref["source_id"] == "SEED-COLAB-CONV"]
    assert dict(zip(conv["hardware_key"], conv["value"], strict=True)) == {
        "cpu": 2.44,
        "k80": 0.28,
        "colab_tpu_runtime_host_cpu": 2.47,
    }
    trap = _one(conv, hardware_key="colab_tpu_runtime_host_cpu")
    # The "TPU" runtime figure ran on the host CPU: it must never be charted or filtered as a TPU.
    assert trap["device_type"] == "cpu" and trap["doubtful"] and "NOT a TPU" in trap["doubt_reason"]
    assert not ((ref["device_type"] == "tpu") & (ref["value"] == 2.47)).any()
    assert set(conv["model"]) == {"conv2d"} and set(conv["task"]) == {"micro"}


def test_article_000_fashion_mnist(ref):
    fm = ref[ref["source_id"] == "SEED-COLAB-FMNIST"]
    assert _one(fm, metric="train_time_s", hardware_key="tpu_v2_8")["value"] == 40.0
    assert _one(fm, metric="train_time_s", hardware_key="k80")["value"] == 120.0
    assert _one(fm, metric="speedup_vs")["value"] == 3.0
    assert fm["doubtful"].all()  # "~40+ s", "2+ min", "about 3x"
    assert set(fm["batch_size"]) == {1024} and set(fm["epochs"]) == {5} and set(fm["steps_per_epoch"]) == {100}


def test_article_002_matmul_added_from_the_text(ref):
    mm = ref[(ref["source_id"] == "SEED-TF-GPU-SETTINGS") & (ref["model"] == "matmul")]
    assert _one(mm, device_type="cpu")["value"] == 6.0
    gpu = _one(mm, device_type="gpu")
    assert gpu["value"] == 1.0 and gpu["value_kind"] == "upper_bound"
    assert set(mm["shape"]) == {"(10000x100)@(100x100000)"}
    assert mm["doubtful"].all() and set(mm["origin"]) == {"seed_article"}


def test_article_003_riseml(ref):
    rise = ref[ref["source_id"] == "SEED-RISEML"]
    ratios = {(r.model, r.baseline_key, r.value) for r in rise[rise["metric"] == "speedup_vs"].itertuples()}
    assert {
        ("resnet50", "p100", 8.4),
        ("resnet50", "v100", 5.1),
        ("inceptionv3", "p100", 8.4),
        ("inceptionv3", "v100", 4.8),
    } <= ratios
    assert ("bilstm", "v100", 7.7) in ratios
    lstm = rise[rise["metric"] == "examples_per_s"]
    assert dict(zip(lstm["hardware_key"], lstm["value"], strict=True)) == {
        "tpu_v2_8": 21402,
        "p100": 1658,
        "v100": 2778,
    }
    assert _one(rise, metric="price_usd_per_h")["value"] == 6.5
    assert _one(rise, metric="peak_tflops", hardware_key="tpu_v2_8")["value"] == 180
    assert _one(rise, metric="memory_gb", hardware_key="tpu_v2_8")["value"] == 64
    typo = _one(rise, metric="speedup_vs", value=16.9)
    assert typo["doubtful"] and "12.9" in typo["doubt_reason"]
    assert set(rise.loc[rise["model"].isin(["resnet50", "inceptionv3"]), "data_kind"]) == {"synthetic"}


def test_seed_google_eight_minutes_is_doubtful(ref):
    row = _one(ref, source_id="SEED-GOOGLE")
    assert row["value"] == 480 and row["doubtful"]
