// Package steps holds toolcert's step definitions: the Gherkin vocabulary a
// connector owner reads and writes. Given steps program the lane's mock
// upstream and plant canaries, When steps call the target as the agent
// would, Then steps assert on the agent-visible output, the audit log and
// the mock's journal.
//
// A scenario's state lives in its context.Context, never in package
// variables, so scenarios run in parallel lanes without sharing anything.
package steps
