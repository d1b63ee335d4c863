package canary

import "testing"

func TestLeakString(t *testing.T) {
	tests := []struct {
		name string
		leak Leak
		want string
	}{
		{
			name: "full evidence",
			leak: Leak{Token: "tcabc", Planted: "reason phrase", Surfaced: "header X-Foo", Encoding: Hex},
			want: "canary tcabc planted in reason phrase surfaced in header X-Foo as hex",
		},
		{
			name: "no recorded place",
			leak: Leak{Token: "tcabc", Surfaced: "body", Encoding: Raw},
			want: "canary tcabc planted in an unrecorded place surfaced in body as raw",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.leak.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}
