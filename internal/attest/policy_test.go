package attest

import (
	"strings"
	"testing"

	"github.com/toolcert/toolcert/reports"
)

func TestPolicyCheck(t *testing.T) {
	sum := StringDigest("adapter")
	withBaseline := func(st *Statement) *Statement {
		st.Predicate.Configuration = append(st.Predicate.Configuration, ResourceDescriptor{Name: ConfigBaseline, Digest: sha256Of(StringDigest("b"))})
		return st
	}
	// levels makes st a strict certificate that failed strict and got
	// safe (PASSED unless said otherwise) at level safe.
	levels := func(st *Statement, safe ...Result) *Statement {
		st.Predicate.Toolcert.Level = reports.LevelStrict
		st.Predicate.Toolcert.Levels = []LevelResult{{Level: reports.LevelSafe, Result: append(safe, Passed)[0]}, {Level: reports.LevelStrict, Result: Failed}}
		return st
	}
	tests := []struct {
		name   string
		policy Policy
		st     *Statement
		want   []string // a word of each reason, in order
	}{
		{"zero policy, passed", Policy{}, testStatement(Passed, sum, ""), nil},
		{"zero policy requires passed", Policy{}, testStatement(Warned, sum, ""), []string{"result: WARNED"}},
		{"warned accepts warned", Policy{Require: RequireWarned}, testStatement(Warned, sum, ""), nil},
		{"warned refuses failed", Policy{Require: RequireWarned}, testStatement(Failed, sum, ""), []string{"result: FAILED"}},
		{"the subject's digest", Policy{SubjectSHA256: sum}, testStatement(Passed, sum, ""), nil},
		{"the subject's digest in upper case", Policy{SubjectSHA256: strings.ToUpper(sum)}, testStatement(Passed, sum, ""), nil},
		{"another subject", Policy{SubjectSHA256: StringDigest("other")}, testStatement(Passed, sum, ""), []string{"subject:"}},
		{"a version the run served", Policy{UpstreamVersion: "v2"}, testStatement(Passed, sum, ""), nil},
		{"a version the run did not serve", Policy{UpstreamVersion: "v2"}, testStatement(Passed, sum, "v1"), []string{"upstream version:"}},
		{"a baseline allowed", Policy{Require: RequireWarned}, withBaseline(testStatement(Warned, sum, "")), nil},
		{"a baseline forbidden", Policy{Require: RequireWarned, ForbidBaseline: true}, withBaseline(testStatement(Warned, sum, "")), []string{"baseline:"}},
		{"a passed run with a baseline forbidden", Policy{ForbidBaseline: true}, withBaseline(testStatement(Passed, sum, "")), []string{"baseline:"}},
		{"a level the run passed though it failed the level it certified", Policy{Level: reports.LevelSafe}, levels(testStatement(Failed, sum, "")), nil},
		{"the level the run failed", Policy{Level: reports.LevelStrict}, levels(testStatement(Failed, sum, "")), []string{"result at level strict: FAILED"}},
		{"warned at a level", Policy{Level: reports.LevelSafe}, levels(testStatement(Failed, sum, ""), Warned), []string{"result at level safe: WARNED"}},
		{"warned at a level, warned accepted", Policy{Level: reports.LevelSafe, Require: RequireWarned}, levels(testStatement(Failed, sum, ""), Warned), nil},
		{"before levels, strict covers safe", Policy{Level: reports.LevelSafe}, testStatement(Passed, sum, ""), nil},
		{"before levels, a failure at strict fails safe", Policy{Level: reports.LevelSafe}, testStatement(Failed, sum, ""), []string{"result at level safe: FAILED"}},
		{"every reason", Policy{SubjectSHA256: StringDigest("x"), UpstreamVersion: "v3", ForbidBaseline: true},
			withBaseline(testStatement(Failed, sum, "v1")), []string{"subject:", "upstream version:", "result: FAILED", "baseline:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.policy.Check(tt.st)
			if len(got) != len(tt.want) {
				t.Fatalf("Check = %q, want %d reasons like %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("reason %d = %q, want it to start with %q", i, got[i], w)
				}
			}
		})
	}
}

func TestParseRequirement(t *testing.T) {
	for s, want := range map[string]Requirement{"passed": RequirePassed, "warned": RequireWarned} {
		if got, err := ParseRequirement(s); err != nil || got != want {
			t.Errorf("ParseRequirement(%q) = %q, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "failed", "PASSED"} {
		if _, err := ParseRequirement(s); err == nil {
			t.Errorf("ParseRequirement(%q) accepted it", s)
		}
	}
}
