bench/gpu_check.sh OUT --db-dir /tmp/gcdb --budget-s 470  (on nvidia-h100-x1: 1× H100 80GB HBM3; Keras 3.15.1 wheels carried in .whl/)
