"""What a user can ask for: run specs and their validation, the model/dataset catalog, presets, demo caps."""
