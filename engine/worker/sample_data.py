"""A small real flowers-style set written on this machine (issue 38): `engine data sample flowers`.

Real JPEG bytes (PIL, quality 90) of synthetic pictures — smooth colour fields per class with texture and
noise, so a decoder does the work a photo asks of it — in the seed's layouts:
  tfrecord  flowers<shard>-<n>.tfrec files with the public set's features (gs://flowers-public/
            tfrecords-jpeg-192x192-2): image (JPEG bytes), class (int64), label (class name),
            size ([height, width]) and one_hot_class; written by TensorFlow's TFRecord writer.
  folder    ImageFolder layout: <class name>/<n>.jpg, class ids in sorted name order (torchvision's rule);
            Pillow only, no TensorFlow.
A failed write raises OSError (TensorFlow's file errors too); `engine data sample` removes what was written.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FLOWER_CLASSES = ("daisy", "dandelion", "roses", "sunflowers", "tulips")  # the public set's ids 0..4
LAYOUTS = ("tfrecord", "folder")
RECORDS_PER_FILE = 256
JPEG_QUALITY = 90
NOISE = 14  # ± grey levels of fine noise on every pixel


@dataclass(frozen=True)
class SampleSet:
    out_dir: str
    layout: str
    examples: int
    files: int
    width: int
    height: int
    jpeg_bytes: int  # all images together


def picture(index: int, label: int, width: int, height: int, seed: int = 0) -> np.ndarray:
    """One HxWx3 uint8 picture: the class's colour and a random smooth pattern (made at 1/8 size and enlarged),
    plus fine noise (a tiled 64x64 block), so every 8x8 JPEG block carries detail to decode and even a
    40-megapixel picture is quick to make."""
    rng = np.random.default_rng((seed, index))
    small_w, small_h = -(-width // 8), -(-height // 8)
    base = np.array([(60 + 40 * label) % 256, (200 - 30 * label) % 256, (90 + 70 * label) % 256], np.float32)
    fx, fy, phase = rng.uniform(2, 9), rng.uniform(2, 9), rng.uniform(0, 6.28)
    xs = np.sin(np.arange(small_w, dtype=np.float32) / small_w * fx * 3.14 + phase)
    ys = np.cos(np.arange(small_h, dtype=np.float32) / small_h * fy * 3.14)
    wave = np.outer(ys, xs)[..., None] * (70 * rng.uniform(0.5, 1.0, 3).astype(np.float32))
    smooth = np.clip(base + wave, NOISE, 255 - NOISE).astype(np.uint8)  # room for the noise: no wrap-around
    big = np.repeat(np.repeat(smooth, 8, axis=0), 8, axis=1)[:height, :width]
    noise = rng.integers(-NOISE, NOISE + 1, (64, 64, 3), dtype=np.int16)
    tiled = np.tile(noise, (-(-height // 64), -(-width // 64), 1))[:height, :width]
    return (big.astype(np.int16) + tiled).astype(np.uint8)


def jpeg(img: np.ndarray) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG", quality=JPEG_QUALITY)
    return buf.getvalue()


def example(data: bytes, label: int, width: int, height: int) -> bytes:
    """One serialized tf.train.Example with the public flowers set's features (the tests' files use it too)."""
    import tensorflow as tf

    one_hot = [1.0 if i == label else 0.0 for i in range(len(FLOWER_CLASSES))]
    feature = {
        "image": tf.train.Feature(bytes_list=tf.train.BytesList(value=[data])),
        "class": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
        "label": tf.train.Feature(bytes_list=tf.train.BytesList(value=[FLOWER_CLASSES[label].encode()])),
        "size": tf.train.Feature(int64_list=tf.train.Int64List(value=[height, width])),
        "one_hot_class": tf.train.Feature(float_list=tf.train.FloatList(value=one_hot)),
    }
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def write_sample(
    out_dir: str, examples: int, layout: str = "tfrecord", width: int = 192, height: int = 192
) -> SampleSet:
    """Write `examples` pictures (class i % 5) to `out_dir` in `layout`; returns what was written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    total_bytes, files = 0, 0
    if layout == "folder":
        for name in FLOWER_CLASSES:
            (out / name).mkdir(exist_ok=True)
        for i in range(examples):
            label = i % len(FLOWER_CLASSES)
            data = jpeg(picture(i, label, width, height))
            (out / FLOWER_CLASSES[label] / f"{i:06d}.jpg").write_bytes(data)
            total_bytes, files = total_bytes + len(data), files + 1
        return SampleSet(str(out), layout, examples, files, width, height, total_bytes)
    import tensorflow as tf

    for shard, start in enumerate(range(0, examples, RECORDS_PER_FILE)):
        count = min(RECORDS_PER_FILE, examples - start)
        path = out / f"flowers{shard:02d}-{count}.tfrec"
        try:
            with tf.io.TFRecordWriter(str(path)) as writer:
                for i in range(start, start + count):
                    label = i % len(FLOWER_CLASSES)
                    data = jpeg(picture(i, label, width, height))
                    writer.write(example(data, label, width, height))
                    total_bytes += len(data)
        except tf.errors.OpError as exc:  # TensorFlow's C++ file errors: an OSError, as the folder layout's are
            reason = exc.message.strip().splitlines()[0].removeprefix(f"{path}; ")  # the file name goes apart
            raise OSError(None, reason, str(path)) from None
        files += 1
    return SampleSet(str(out), layout, examples, files, width, height, total_bytes)
