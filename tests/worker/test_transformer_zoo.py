"""Today's transformers in the zoo: a GPT-style decoder and a BERT-style encoder, built from Keras layers,
counted by hand within 10 % of the standard 6·N + 12·L·T·d formula, and trained for real on this CPU."""

from __future__ import annotations

import pytest
from conftest import last_json, run_cli

from engine.catalog import catalog
from engine.catalog.backends import BACKENDS
from engine.catalog.specs import SpecError, validate_train

KERAS_TORCH = "keras-torch" if "keras-torch" in BACKENDS else "torch"


@pytest.fixture(scope="module")
def built():
    from engine.worker import flops, transformers
    from engine.worker.models import build_model

    out = {}
    for name in catalog.TRANSFORMERS:
        info = catalog.resolve_dataset(name, "synthetic")
        model = build_model(name, info.input_shape, info.num_classes)
        seq = info.input_shape[0]
        params = int(model.count_params())
        out[name] = (
            params,
            flops.train_flops(model) / seq,
            transformers.formula_train_flops_per_token(name, params, seq),
        )
        del model
    return out


def test_full_size_shapes_have_their_published_parameter_counts(built):
    assert 123e6 < built["gpt2_small"][0] < 126e6  # GPT-2 small: 124 M (tied embedding)
    assert 108e6 < built["bert_base"][0] < 111e6  # BERT-base: ~110 M with the pooler


@pytest.mark.parametrize("name", catalog.TRANSFORMERS)
def test_hand_count_agrees_with_6n_plus_attention_within_10_percent(built, name):
    _, hand, formula = built[name]
    assert abs(hand / formula - 1) < 0.10, (name, hand, formula)


def test_sequence_models_report_tokens_per_example_and_pair_only_with_their_data():
    assert catalog.tokens_per_example("gpt2_small", "synthetic") == 1024
    assert catalog.tokens_per_example("bert_base", "reuters") == catalog.SEQUENCE_LENGTH
    assert catalog.tokens_per_example("resnet50", "synthetic") is None
    assert catalog.tokens_per_example("bilstm", "imdb") is None  # a recurrent classifier: examples/s
    assert "gpt_tiny is a tokens model and reuters is a text dataset" in str(catalog.pairing_problem("gpt_tiny", "reuters"))
    spec = validate_train({"model": "gpt2_small", "dataset": "synthetic", "batch_size": 32, "precision": "mixed_bfloat16"})
    assert spec.model == "gpt2_small"  # the full-size entry is valid (CI does not train it)
    with pytest.raises(SpecError):
        validate_train({"model": "gpt_tiny", "dataset": "imdb"})


@pytest.mark.parametrize("backend", ["tensorflow", "jax", KERAS_TORCH])
def test_gpt_tiny_trains_on_every_backend_with_tokens_per_second(db, backend):
    proc = run_cli(
        "run", "--model", "gpt_tiny", "--dataset", "synthetic", "--batch-size", "4", "--epochs", "2",
        "--steps-per-epoch", "3", "--backend", backend, "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-1500:] + proc.stderr[-1500:]
    row = last_json(proc.stdout)
    assert row["status"] == "ok" and row["examples_per_sec"] > 0 and row["params"] == 544_256
    assert row["gflops"] > 0 and "tokens/s " in row["notes"] and "128 tokens per sequence" in row["notes"]
    assert "dot_product_attention" in row["notes"]
    assert row["tokens_per_sec"] == pytest.approx(row["examples_per_sec"] * 128)
    assert row["model_source"] == "zoo" and row["flops_source"].startswith("counted by layer")
    assert row["mfu_pct"] is not None and row["mfu_pct"] > 0  # every backend: against the CPU's peak
