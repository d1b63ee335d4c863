package attest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/reports"
)

// Requirement is the least result a Policy accepts.
type Requirement string

// The requirements of a Policy.
const (
	// RequirePassed accepts PASSED only.
	RequirePassed Requirement = "passed"
	// RequireWarned accepts PASSED or WARNED.
	RequireWarned Requirement = "warned"
)

// ParseRequirement returns the requirement s names ("passed", "warned").
func ParseRequirement(s string) (Requirement, error) {
	switch r := Requirement(s); r {
	case RequirePassed, RequireWarned:
		return r, nil
	}
	return "", fmt.Errorf("unknown requirement %q: want passed or warned", s)
}

// Policy is what a verifier requires of a statement whose signature
// verified. The zero Policy requires a PASSED result and nothing else.
type Policy struct {
	// SubjectSHA256, when set, is the hex sha256 the subject must have.
	SubjectSHA256 string
	// UpstreamVersion, when set, must be among the upstream versions the
	// run served.
	UpstreamVersion string
	// Require is the least result accepted; "" is RequirePassed.
	Require Requirement
	// Level, when set, is the level whose result Require applies to: the
	// run must have passed at that level ([TestResult.ResultAt]), whichever
	// it certified. "" is the level the run certified (the predicate's
	// result).
	Level reports.Level
	// ForbidBaseline refuses a run whose configuration has a baseline.
	ForbidBaseline bool
}

// Check returns why st does not meet p, one reason each; none when it
// does. The result checked is the predicate's, or with Level set, the
// run's result at that level: a strict certificate whose run failed
// strict but passed safe meets a policy of level safe.
func (p Policy) Check(st *Statement) []string {
	var why []string
	add := func(cond bool, format string, args ...any) {
		if cond {
			why = append(why, fmt.Sprintf(format, args...))
		}
	}
	if p.SubjectSHA256 != "" {
		got := subjectDigests(st)
		add(!slices.Contains(got, strings.ToLower(p.SubjectSHA256)), "subject: the attestation is about sha256 %s, not %s",
			strings.Join(got, ", "), p.SubjectSHA256)
	}
	run := st.Predicate.Toolcert
	add(p.UpstreamVersion != "" && !slices.Contains(run.UpstreamVersions, p.UpstreamVersion),
		"upstream version: the run served %s, not %s", orNone(run.UpstreamVersions), p.UpstreamVersion)
	result, what := st.Predicate.Result, "result"
	if p.Level != "" {
		var ok bool
		what = "result at level " + string(p.Level)
		if result, ok = st.Predicate.ResultAt(p.Level); !ok {
			result = "none stated"
		}
	}
	switch p.Require {
	case RequireWarned:
		add(result != Passed && result != Warned, "%s: %s, want PASSED or WARNED", what, result)
	default:
		add(result != Passed, "%s: %s, want PASSED", what, result)
	}
	_, baseline := st.Configuration(ConfigBaseline)
	add(p.ForbidBaseline && baseline, "baseline: the run used a baseline of expected failures, and baselines are forbidden")
	return why
}

// subjectDigests returns the sha256 digests of st's subjects.
func subjectDigests(st *Statement) []string {
	var out []string
	for _, s := range st.Subject {
		if d := s.SHA256(); d != "" {
			out = append(out, strings.ToLower(d))
		}
	}
	return out
}

// orNone returns the words of list joined by commas, or "none".
func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}
