package openapi

import (
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSelect checks how a selector finds an operation, and what a miss
// and an ambiguity say.
func TestSelect(t *testing.T) {
	gh := loadFile(t, "github-3.0.yaml", Options{})
	dup := loadFile(t, "ambiguous.yaml", Options{})
	for _, tc := range []struct {
		name       string
		d          *Description
		sel        Selector
		want       string // the operationId found
		err        error
		candidates []string
	}{
		{name: "by method, in any case, and path", d: gh, sel: Selector{Method: "get", Path: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews"}, want: "pulls/list-reviews"},
		{name: "by operationId", d: gh, sel: Selector{OperationID: "pulls/create-review"}, want: "pulls/create-review"},
		{name: "by operationId and a matching method", d: gh, sel: Selector{Method: "POST", OperationID: "pulls/create-review"}, want: "pulls/create-review"},
		{
			name: "a path with another parameter name is a miss listing the close ones",
			d:    gh, sel: Selector{Method: "GET", Path: "/repos/{owner}/{repo}/pulls/{number}/reviews"}, err: ErrNoOperation,
			candidates: []string{
				"GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews (pulls/list-reviews)",
				"POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews (pulls/create-review)",
				"GET /repos/{owner}/{repo}/pulls/{pull_number} (pulls/get)",
			},
		},
		{
			name: "a misspelt operationId lists the closest first",
			d:    gh, sel: Selector{OperationID: "pulls/list-review"}, err: ErrNoOperation,
			candidates: []string{
				"GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews (pulls/list-reviews)",
				"POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews (pulls/create-review)",
				"GET /repos/{owner}/{repo}/pulls/{pull_number} (pulls/get)",
			},
		},
		{
			name: "an operationId with another method is a miss",
			d:    gh, sel: Selector{Method: "DELETE", OperationID: "pulls/get"}, err: ErrNoOperation,
		},
		{
			name: "a duplicate operationId names every match",
			d:    dup, sel: Selector{OperationID: "list"}, err: ErrAmbiguous,
			candidates: []string{"GET /a (list)", "GET /b (list)"},
		},
		{name: "an empty selector", d: gh, sel: Selector{Path: "/x"}, err: ErrNoOperation},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, err := tc.d.Operation(tc.sel)
			if tc.err == nil {
				if err != nil || op.OperationID != tc.want {
					t.Fatalf("Operation(%v) = %v, %v; want %s", tc.sel, op, err, tc.want)
				}
				return
			}
			if !errors.Is(err, tc.err) {
				t.Fatalf("Operation(%v) error %v, want %v", tc.sel, err, tc.err)
			}
			if tc.candidates == nil {
				return
			}
			var se *SelectError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is no *SelectError", err)
			}
			if diff := cmp.Diff(tc.candidates, se.Candidates); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSelectAtMostFive checks that a miss in a large description lists
// five candidates, the closest first.
func TestSelectAtMostFive(t *testing.T) {
	path, _ := writeLargeDescription(t, t.TempDir())
	spec, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Load(spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Operation(Selector{Method: "GET", Path: "/orgs/{org}/things-17/{thing}"})
	var se *SelectError
	if !errors.As(err, &se) || len(se.Candidates) != maxCandidates {
		t.Fatalf("error %v, want a *SelectError with %d candidates", err, maxCandidates)
	}
	if want := "GET /orgs/{org}/things-17/{thing_id} (things/get-17)"; !slices.Contains(se.Candidates[:1], want) {
		t.Errorf("candidates %q, want %q first", se.Candidates, want)
	}
}
