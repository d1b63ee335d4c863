// Package harness is the layer that drives lanes for the step vocabulary
// and for a replay alike: the lane pool (an isolated mock upstream and
// target per lane, restarted when the target dies), the agent's calls on a
// lane with what they programmed and what the agent saw, the agent-visible
// output as named parts, the reader of a target's audit log and the corpus
// variables a lane renders fixtures with.
//
// It decides no verdict: steps assert, runner orchestrates, reports
// render.
package harness
