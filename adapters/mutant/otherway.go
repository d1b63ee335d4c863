package mutant

import (
	"bytes"
	"io"
	"net/http"
	"regexp"
	"unicode/utf8"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/targets"
)

// OtherWay returns, as a target served inside the harness, the reference
// adapter changed to reach, wherever the decision table of
// docs/protocol.md allows another verdict (protocol.Class's Also), that
// other one. Its text tools check the byte order mark and UTF-8 first
// (bom, invalid_utf8), then the lines and keys (text_format), and leave
// the values to the vendor schema (schema_violation); a timestamp in lower
// case or a leap second is bad_timestamp. It is not a mutant: toolcert
// must pass it, and a failure is a false failure of the harness.
func OtherWay() *targets.InProcess {
	return targets.NewInProcess("reference the other way", func(env targets.Env) (http.Handler, io.Closer, error) {
		cfg, err := pipeline.ConfigFromEnv(pipeline.EnvLookup(env))
		if err != nil {
			return nil, nil, err
		}
		a, err := pipeline.New(cfg, pipeline.WithTextParser(linesThenSchema), pipeline.WithAuditEdit(refuseTimestamp))
		if err != nil {
			return nil, nil, err
		}
		return a, a, nil
	})
}

// linesThenSchema parses key=value lines with the encoding's own reasons
// and without the values' patterns, which the vendor schema checks next.
func linesThenSchema(raw []byte, keys []gate.KeySpec) (map[string]string, error) {
	switch {
	case bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")):
		return nil, gate.Reject(protocol.GateParse, protocol.ReasonBOM, "a byte order mark")
	case !utf8.Valid(raw):
		return nil, gate.Reject(protocol.GateParse, protocol.ReasonInvalidUTF8, "invalid UTF-8")
	}
	loose := make([]gate.KeySpec, len(keys))
	for i, k := range keys {
		loose[i] = gate.KeySpec{Name: k.Name}
	}
	return gate.ParseKeyValues(raw, loose)
}

// refusableStamp matches an RFC 3339 date-time an adapter may refuse: "t"
// or "z" in lower case, or a leap second.
var refusableStamp = regexp.MustCompile(`\d{2}-\d{2}t\d{2}:|:\d{2}:60|:\d{2}z`)

// refuseTimestamp records as bad_timestamp a stale timestamp the adapter
// would have refused before reading it: the same outcome for the agent,
// the other reason the decision table allows.
func refuseTimestamp(ev *protocol.AuditEvent) {
	if ev.Gate == protocol.GateSemantic && ev.Reason == protocol.ReasonStale && refusableStamp.MatchString(ev.Detail) {
		ev.Reason = protocol.ReasonBadTimestamp
	}
}
