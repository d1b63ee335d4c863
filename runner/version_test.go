package runner

import "testing"

func TestAndTags(t *testing.T) {
	tests := []struct{ expr, term, want string }{
		{"", "~@upstream-v1", "~@upstream-v1"},
		{"@transport", "~@upstream-v1", "@transport && ~@upstream-v1"},
		{"@a,@b && ~@slow", "~@upstream-v1", "@a && ~@upstream-v1,@b && ~@slow && ~@upstream-v1"},
		{"@a", "", "@a"},
	}
	for _, tt := range tests {
		if got := andTags(tt.expr, tt.term); got != tt.want {
			t.Errorf("andTags(%q, %q) = %q, want %q", tt.expr, tt.term, got, tt.want)
		}
	}
}
