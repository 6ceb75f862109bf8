"""A plain tf.distribute training loop, for MultiWorkerMirroredStrategy (worker only).

Why not `model.fit`: Keras 3's fit cannot run under MultiWorkerMirroredStrategy across more than one
worker — it reduces the first input batch and every step's metrics with cross-worker collectives that
do not accept its arguments ("Attempt to convert a value (PerReplica…)", "Invalid reduction dimension";
keras-team/keras#20585, still open for Keras 3.15). This loop uses only TensorFlow's own distribution
engine — `strategy.run` for the replica step, `tf.nn.compute_average_loss` over the global batch,
`strategy.reduce` for the step's loss and accuracy — with the same model, optimizer, loss and data as
fit, and reports to the same `StepClock` callback, so its timings mean the same thing.
"""

from __future__ import annotations

import keras
import tensorflow as tf


def _replica_metrics(strategy, per_replica, global_batch: int):
    loss, correct = per_replica
    return strategy.reduce("SUM", loss, axis=None), strategy.reduce("SUM", correct, axis=None) / global_batch


def fit_distributed(
    model: keras.Model,
    strategy: tf.distribute.Strategy,
    train: tf.data.Dataset,
    validation: tf.data.Dataset | None,
    *,
    global_batch: int,
    epochs: int,
    steps_per_epoch: int,
    validation_steps: int,
    xla: bool,
    clock: keras.callbacks.Callback,
) -> None:
    """Train `model` (compiled inside `strategy.scope()`) with its compiled optimizer; report to `clock`."""
    loss_fn = keras.losses.SparseCategoricalCrossentropy(reduction=None)  # per example, averaged over the global batch
    optimizer = model.optimizer
    scaling = isinstance(optimizer, keras.optimizers.LossScaleOptimizer)  # mixed_float16: scale against underflow
    with strategy.scope():
        optimizer.build(model.trainable_variables)

    def loss_and_correct(x, y, training: bool):
        probs = model(x, training=training)
        loss = tf.nn.compute_average_loss(loss_fn(y, probs), global_batch_size=global_batch)
        hits = tf.equal(tf.argmax(probs, axis=-1, output_type=tf.int32), tf.cast(y, tf.int32))
        return loss, probs, tf.reduce_sum(tf.cast(hits, tf.float32))

    def replica_train_step(data):
        x, y = data
        with tf.GradientTape() as tape:
            loss, _, correct = loss_and_correct(x, y, training=True)
            scaled = optimizer.scale_loss(loss) if scaling else loss
        grads = tape.gradient(scaled, model.trainable_variables)
        optimizer.apply(grads, model.trainable_variables)  # the LossScaleOptimizer unscales and skips inf steps
        return loss, correct

    def replica_eval_step(data):
        x, y = data
        loss, _, correct = loss_and_correct(x, y, training=False)
        return loss, correct

    step_fn = tf.function(replica_train_step, jit_compile=xla) if xla else replica_train_step

    @tf.function
    def train_step(iterator):
        return _replica_metrics(strategy, strategy.run(step_fn, args=(next(iterator),)), global_batch)

    @tf.function
    def eval_step(iterator):
        return _replica_metrics(strategy, strategy.run(replica_eval_step, args=(next(iterator),)), global_batch)

    train_it = iter(strategy.experimental_distribute_dataset(train))
    val_it = iter(strategy.experimental_distribute_dataset(validation)) if validation is not None else None
    clock.set_model(model)
    clock.on_train_begin()
    for epoch in range(epochs):
        clock.on_epoch_begin(epoch)
        loss_sum = acc_sum = 0.0
        for step in range(steps_per_epoch):
            clock.on_train_batch_begin(step)
            loss, acc = train_step(train_it)
            loss, acc = float(loss), float(acc)  # read back: the step has finished on every worker
            loss_sum, acc_sum = loss_sum + loss, acc_sum + acc
            clock.on_train_batch_end(step, {"loss": loss, "accuracy": acc})
        logs = {"loss": loss_sum / steps_per_epoch, "accuracy": acc_sum / steps_per_epoch}
        if val_it is not None and validation_steps:
            results = [eval_step(val_it) for _ in range(validation_steps)]
            logs["val_loss"] = sum(float(r[0]) for r in results) / validation_steps
            logs["val_accuracy"] = sum(float(r[1]) for r in results) / validation_steps
        clock.on_epoch_end(epoch, logs)
    clock.on_train_end()
