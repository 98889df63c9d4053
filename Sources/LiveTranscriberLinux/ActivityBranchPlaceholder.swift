// Keeps the LiveTranscriberLinux target non-empty on the `activity` branch, which adds no adapter.
// Delete when merging if another branch already adds sources here.
