package reference

import (
	"maps"
	"net/http"
	"slices"

	"github.com/toolcert/toolcert/gate"
)

// VersionHeader is the upstream response header that names the vendor
// version of the answer. An answer without it is [DefaultVersion].
const VersionHeader = "X-Api-Version"

// DefaultVersion is the upstream version of an answer without
// VersionHeader.
const DefaultVersion = "v1"

// upstreamVersion returns the version the answer's header declares, and
// its entry of t. A repeated header, or a value that is not one of t's
// versions, is a *gate.Rejection{GateSchema, "unsupported_version"}.
func (t compiledTool) upstreamVersion(h http.Header) (string, version, error) {
	name := DefaultVersion
	switch vals := h.Values(VersionHeader); len(vals) {
	case 0:
	case 1:
		name = vals[0]
	default:
		return "", version{}, gate.Reject(gate.GateSchema, gate.ReasonUnsupportedVersion, "%d %s headers, want at most one", len(vals), VersionHeader)
	}
	v, ok := t.versions[name]
	if !ok {
		return "", version{}, gate.Reject(gate.GateSchema, gate.ReasonUnsupportedVersion, "%s %.40q: %s supports %v", VersionHeader, name, t.name, slices.Sorted(maps.Keys(t.versions)))
	}
	return name, v, nil
}
