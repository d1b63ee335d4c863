package judge_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

func TestRejection(t *testing.T) {
	type view struct {
		Error, Detail string
		Code          protocol.Code
		Retryable     bool
	}
	tests := []struct {
		name string
		r    *judge.Rejection
		want view
		why  string
	}{
		{"with-detail", judge.Reject(protocol.GateParse, protocol.ReasonSyntax, "bad %s", "byte"),
			view{"parse syntax: bad byte", "bad byte", protocol.CodeInvalidResponse, false}, "detail after a colon"},
		{"without-detail", &judge.Rejection{Gate: protocol.GateSemantic, Reason: protocol.ReasonStale},
			view{"semantic stale", "", protocol.CodeInvalidResponse, false}, "no colon without detail"},
		{"retryable", judge.Reject(protocol.GateTransport, protocol.ReasonStatus5xx, "503"),
			view{"transport status_5xx: 503", "503", protocol.CodeUpstreamUnavailable, true}, "the protocol's code table"},
		{"denied", judge.Reject(protocol.GateAuthz, protocol.ReasonGrantMissing, "no grant"),
			view{"authz grant_missing: no grant", "no grant", protocol.CodeDenied, false}, "authz is DENIED"},
	}
	for _, tt := range tests {
		code, retryable := tt.r.Code()
		got := view{tt.r.Error(), tt.r.Detail(), code, retryable}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (%s) (-want +got):\n%s", tt.name, tt.why, diff)
		}
	}
}

func TestRejectWraps(t *testing.T) {
	r := judge.Reject(protocol.GateParse, protocol.ReasonTruncated, "read: %w", io.ErrUnexpectedEOF)
	if !errors.Is(r, io.ErrUnexpectedEOF) {
		t.Error("Reject with %w does not wrap")
	}
	wrapped := fmt.Errorf("answer: %w", r)
	got, ok := judge.AsRejection(wrapped)
	if !ok || got != r {
		t.Errorf("AsRejection(%v) = %v, %v; want the rejection", wrapped, got, ok)
	}
	if got, ok := judge.AsRejection(io.EOF); ok || got != nil {
		t.Errorf("AsRejection(io.EOF) = %v, %v; want nil, false", got, ok)
	}
}
