// Package actiontest tests the toolcert GitHub Action, action.yml at the
// module's root, and its example workflow,
// .github/workflows/toolcert-example.yml, without GitHub: it reads both
// strictly, checks that no input reaches a script as text, that every flag
// the action passes exists in toolcert's help, and runs the action's
// scripts with bash under a fake runner environment (GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY, INPUT_* variables) against real and fake toolcert
// binaries. It has no code of its own: the action is YAML and bash, and the
// root package, the module's public front, is no place for its tests.
package actiontest
