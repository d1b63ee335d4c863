package corpus_test

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/protocol"
)

func TestApprovalTTL(t *testing.T) {
	tests := []struct {
		name    string
		policy  string // "" for no policy file
		want    time.Duration
		wantErr bool
	}{
		{"the policy's ttl", `{"approval_ttl": "1s"}`, time.Second, false},
		{"left out is the protocol's default", `{"allowlist": []}`, protocol.DefaultApprovalTTL, false},
		{"no policy is an error", "", 0, true},
		{"not a duration", `{"approval_ttl": "soon"}`, 0, true},
		{"zero is not positive", `{"approval_ttl": "0s"}`, 0, true},
		{"not JSON", `{"approval_ttl": `, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			if tt.policy != "" {
				fsys[corpus.PolicyFile] = &fstest.MapFile{Data: []byte(tt.policy)}
			}
			got, err := corpus.New(fsys).ApprovalTTL()
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ApprovalTTL() = %v, %v; want %v, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
