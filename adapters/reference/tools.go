package reference

import (
	"github.com/toolcert/toolcert/adapters/internal/pipeline"
)

// Tools returns the names of the reference tools, sorted: the four read
// tools and the call-side tools send_email, purge_cache and request_refund.
func Tools() []string { return pipeline.Tools() }

// Versions returns the upstream versions the reference supports for tool
// (the values of protocol.VersionHeader it accepts), sorted; nil for a tool it
// lacks and for send_email and purge_cache, whose upstream answer is never
// read.
func Versions(tool string) []string { return pipeline.Versions(tool) }

// Schema returns the pinned schema document of tool for kind "args",
// "contract" or "vendor.<version>" ("vendor.v1", and "vendor.v2" for the
// tools whose [Versions] include v2); request_refund's upstream schema is
// "order.v1", and send_email and purge_cache have none.
func Schema(tool, kind string) ([]byte, error) { return pipeline.Schema(tool, kind) }
