package pipeline

import (
	"maps"
	"net/http"
	"slices"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// upstreamVersion returns the version the answer's header declares, and
// its entry of t. A repeated header, or a value that is not one of t's
// versions, is a *gate.Rejection{GateSchema, "unsupported_version"}.
func (t compiledTool) upstreamVersion(h http.Header) (string, version, error) {
	name := protocol.DefaultUpstreamVersion
	switch vals := h.Values(protocol.VersionHeader); len(vals) {
	case 0:
	case 1:
		name = vals[0]
	default:
		return "", version{}, gate.Reject(protocol.GateSchema, protocol.ReasonUnsupportedVersion, "%d %s headers, want at most one", len(vals), protocol.VersionHeader)
	}
	v, ok := t.versions[name]
	if !ok {
		return "", version{}, gate.Reject(protocol.GateSchema, protocol.ReasonUnsupportedVersion, "%s %.40q: %s supports %v", protocol.VersionHeader, name, t.name, slices.Sorted(maps.Keys(t.versions)))
	}
	return name, v, nil
}
