"""Issue 31 item 3: units per column from a known tool's convention (lambdal: ResNet-50/SSD images/s, BERT
sequences/s, GNMT/Transformer-XL tokens/s, Tacotron 2 mel frames/s, WaveGlow audio samples/s) and from header
hints; a `unit` beside every value in the mapped rows and the long CSV, and on the chart's axis."""

from __future__ import annotations

from engine.imports.facts.units import titled, unit_from_header
from engine.imports.importer import apply_import, read_raw
from engine.imports.view.imported import to_long

LAMBDA = (
    ",ssd,bert_large_squad,gnmt,transformerxllarge,resnet50,tacotron2,waveglow\n"
    "LambdaOD_Texas_8xH100_80GB_SXM5_10-0-0-1_v2,6000,2400,3900000,120000,21000,700000,3900000\n"
    "LambdaOD_Texas_1xH100_80GB_SXM5_10-0-0-2_v2,800,330,520000,16000,2800,90000,500000\n"
)


def test_lambda_columns_get_the_tools_own_units_and_every_value_its_unit():
    raw = read_raw(LAMBDA.encode(), "pytorch-train-throughput-v2-fp16.csv")
    units = {c: v.unit for c, v in raw.guess.values.items()}
    assert units == {"ssd": "images/s", "resnet50": "images/s", "bert_large_squad": "sequences/s",
                     "gnmt": "tokens/s", "transformerxllarge": "tokens/s", "tacotron2": "mel frames/s",
                     "waveglow": "audio samples/s"}  # fmt: skip
    assert raw.guess.fmt.startswith("lambdal deeplearning-benchmark")
    rows, _ = apply_import(raw.frame, raw.guess, "pytorch-train-throughput-v2-fp16.csv")
    assert rows.drop_duplicates("model").set_index("model")["unit"].to_dict() == units  # a unit on every row
    long = to_long(rows)
    assert long["unit"].ne("").all()
    by_model = long.drop_duplicates("model").set_index("model")
    assert by_model.loc["resnet50", ["metric", "unit"]].tolist() == ["examples_per_sec", "images/s"]
    assert by_model.loc["bert_large_squad", ["metric", "unit"]].tolist() == ["examples_per_sec", "sequences/s"]
    assert by_model.loc["gnmt", ["metric", "unit"]].tolist() == ["Throughput (tokens/s)", "tokens/s"]
    assert by_model.loc["waveglow", "unit"] == "audio samples/s"  # not samples on the examples/s axis


def test_a_batch_size_table_keeps_no_throughput_unit_and_header_hints_give_units():
    raw = read_raw(LAMBDA.encode(), "pytorch-train-bs-v2-fp16.csv")
    assert {v.unit for v in raw.guess.values.values()} == {""}  # batch sizes, not rates
    assert unit_from_header("GNMT tok/s")[1] == "tokens/s"
    assert unit_from_header("BERT (seqs/sec)") == ("BERT", "sequences/s")
    assert unit_from_header("throughput_img_s")[1] == "img/s"
    assert titled("examples_per_sec", ["images/s"]) == "Throughput (images/s)"
    assert titled("examples_per_sec", ["images/s", "sequences/s"]) == "Throughput (examples/s: images/s, sequences/s)"
