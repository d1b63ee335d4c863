package runner

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/reports"
)

// The scenarios a run adds for what its targets did beyond their answers:
// each is there only when it failed.
const (
	exposedName  = "the target listens on loopback only"
	exposedStep  = "the target listens on no address beyond loopback"
	leftoverName = "the target leaves no process running"
	leftoverStep = "no process of the target runs after it was stopped"
)

// targetFindings returns a failed scenario for each finding the lanes'
// targets gave while they ran: an address beyond loopback they listened
// on (reachable from the network during certification), a process they
// left running that toolcert had to kill. A check the system could not
// make (errors.ErrUnsupported) finds nothing; one that failed otherwise is
// reported to progress.
func targetFindings(lanes []*harness.Lane, progress func(string)) []reports.Scenario {
	var exposedAt, leftovers []string
	for _, l := range lanes {
		exposedAt = append(exposedAt, l.Exposed...)
		leftovers = append(leftovers, l.Leftovers...)
		if l.ExposedErr != nil && !errors.Is(l.ExposedErr, errors.ErrUnsupported) && progress != nil {
			progress(fmt.Sprintf("warning: lane %d: where the target listens could not be checked: %v", l.ID, l.ExposedErr))
		}
	}
	var out []reports.Scenario
	if exposedAt = unique(exposedAt); len(exposedAt) > 0 {
		out = append(out, targetScenario(exposedName, exposedStep,
			"the target listened beyond loopback, reachable from the network during certification: "+strings.Join(exposedAt, "; "), 0))
	}
	if leftovers = unique(leftovers); len(leftovers) > 0 {
		what := fmt.Sprintf("%d processes", len(leftovers))
		if len(leftovers) == 1 {
			what = "a process"
		}
		out = append(out, targetScenario(leftoverName, leftoverStep,
			fmt.Sprintf("the target left %s running after it was stopped; toolcert killed and named each: %s", what, strings.Join(leftovers, "; ")), 0))
	}
	return out
}

// targetScenario is a failed scenario of the target itself, not of a
// feature: msg is its error and its target evidence.
func targetScenario(name, step, msg string, took reports.Duration) reports.Scenario {
	return reports.Scenario{
		ID: reports.ScenarioID(reports.TargetFeature, name), Feature: reports.TargetFeature, Name: name,
		Status: reports.Failed, Error: msg, Duration: took,
		Steps:    []reports.Step{{Keyword: "Then", Text: step, Status: reports.Failed, Duration: took, Error: msg}},
		Evidence: []reports.Evidence{{Kind: reports.EvidenceTarget, Message: msg}},
	}
}

// unique returns ss sorted, without repeats.
func unique(ss []string) []string {
	slices.Sort(ss)
	return slices.Compact(ss)
}
