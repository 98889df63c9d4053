// The library store moved to its own target (LiveTranscriberStore) so the iOS app shares it;
// the Linux adapters re-export it, so the command line, the benchmarks and the tests see
// `LibraryStore` through `import LiveTranscriberLinux` as before.
@_exported import LiveTranscriberStore
