package targets

// AdapterImageForTest exports testAdapterImage to the external tests
// (package target_test): the name of a local image FROM scratch that serves
// `toolcert adapter`, built once per test binary; it skips the test when no
// Docker engine answers.
var AdapterImageForTest = testAdapterImage

// MutantImageForTest exports testMutantImage: a local image FROM scratch
// whose entrypoint is toolcert-mutant (give it --mutant NAME).
var MutantImageForTest = testMutantImage
