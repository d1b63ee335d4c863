package canary

import (
	"fmt"
	"regexp"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var tokenPattern = regexp.MustCompile(`^tc[a-z2-7]{18}$`)

func TestSetTokensAreWellFormedAndUnique(t *testing.T) {
	s := NewSet(7, "scenario-1")
	seen := map[string]bool{}
	for i := range 1000 {
		tok := s.New(fmt.Sprintf("place %d", i))
		if !tokenPattern.MatchString(tok) || len(tok) != TokenLen {
			t.Fatalf("New() = %q, want a token matching %s", tok, tokenPattern)
		}
		if seen[tok] {
			t.Fatalf("New() returned %q twice", tok)
		}
		seen[tok] = true
	}
	if got := len(s.All()); got != 1000 {
		t.Errorf("len(All()) = %d, want 1000", got)
	}
}

func TestSetIsReproducible(t *testing.T) {
	tests := []struct {
		name      string
		seed      uint64
		scope     string
		wantEqual bool
	}{
		{name: "same seed and scope", seed: 1, scope: "a", wantEqual: true},
		{name: "other seed", seed: 2, scope: "a", wantEqual: false},
		{name: "other scope", seed: 1, scope: "b", wantEqual: false},
	}
	base := fill(NewSet(1, "a"))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fill(NewSet(tt.seed, tt.scope))
			if equal := cmp.Equal(base, got); equal != tt.wantEqual {
				t.Errorf("same tokens = %v, want %v\nbase: %v\ngot:  %v", equal, tt.wantEqual, base, got)
			}
		})
	}
}

// fill hands out a fixed sequence of canaries and returns the tokens.
func fill(s *Set) []string {
	return []string{s.New("x"), s.Named("n", "y"), s.New("z")}
}

func TestNamedReturnsTheSameTokenAndRecordsEveryPlace(t *testing.T) {
	s := NewSet(3, "scope")
	a := s.Named("trace", "header X-Trace")
	b := s.New("reason phrase")
	if again := s.Named("trace", "body /trace"); again != a {
		t.Errorf("Named(trace) second call = %q, want %q", again, a)
	}
	s.Named("trace", "header X-Trace")
	want := []Canary{
		{Token: a, Planted: "header X-Trace; body /trace"},
		{Token: b, Planted: "reason phrase"},
	}
	if diff := cmp.Diff(want, s.All()); diff != "" {
		t.Errorf("All() mismatch (-want +got):\n%s", diff)
	}
}

func TestNamedDoesNotDependOnCallOrder(t *testing.T) {
	s1, s2 := NewSet(9, "s"), NewSet(9, "s")
	s1.New("first")
	x1 := s1.Named("x", "")
	x2 := s2.Named("x", "")
	if x1 != x2 {
		t.Errorf("Named(x) = %q after New and %q alone, want equal", x1, x2)
	}
}

func TestAllReturnsACopy(t *testing.T) {
	s := NewSet(1, "s")
	s.New("a")
	all := s.All()
	all[0].Planted = "changed"
	if got := s.All()[0].Planted; got != "a" {
		t.Errorf("All()[0].Planted = %q after changing the copy, want %q", got, "a")
	}
}

func TestSetIsSafeForConcurrentUse(t *testing.T) {
	s := NewSet(5, "s")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				s.New(fmt.Sprintf("g%d/%d", g, i))
				s.Named(fmt.Sprintf("n%d", i%5), "shared")
			}
		})
	}
	wg.Wait()
	if got, want := len(s.All()), 8*50+5; got != want {
		t.Errorf("len(All()) = %d, want %d", got, want)
	}
}

// TestSharedNames: a name shared with another scope gets that scope's
// token, is scanned like the Set's own, and the other names keep the
// Set's tokens.
func TestSharedNames(t *testing.T) {
	base := NewSet(9, "example")
	s := NewSet(9, "variant", SharedNames("example", "comment"))
	own := NewSet(9, "variant")
	if got, want := s.Named("comment", "here"), base.Named("comment", "there"); got != want {
		t.Errorf("shared name: token %q, want the example's %q", got, want)
	}
	if got, want := s.Named("dup", "here"), own.Named("dup", "here"); got != want {
		t.Errorf("own name: token %q, want the variant's %q", got, want)
	}
	if tok, ok := s.Token("comment"); !ok || tok != base.Named("comment", "") {
		t.Errorf("Token(comment) = %q, %v", tok, ok)
	}
	if _, ok := s.Token("unused"); ok {
		t.Error("Token of a name never handed out reports one")
	}
	if n := len(s.All()); n != 2 {
		t.Errorf("All() has %d canaries, want 2", n)
	}
}
