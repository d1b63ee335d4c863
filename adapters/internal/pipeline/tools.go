package pipeline

import (
	"maps"
	"regexp"
	"slices"
	"strconv"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// toolKind says how a tool acts once its call is allowed.
type toolKind int

// The kinds of tools.
const (
	// kindRead fetches, checks and projects an upstream answer.
	//lint:ignore U1000 the zero kind, named so that the list reads whole: read tools leave kind unset
	kindRead toolKind = iota
	// kindSend posts the arguments to the upstream once (see [postAction]):
	// send_email, purge_cache.
	kindSend
	// kindRefund checks a refund proposal against the upstream's order.
	kindRefund
)

// tool describes one tool of docs/protocol.md.
type tool struct {
	name string
	kind toolKind
	// args are the names of the string arguments the path uses.
	args []string
	// path builds the upstream path from the arguments, each already
	// escaped for a path segment (settings.escape).
	path func(a map[string]string) string
	// contentType is the media type the upstream must answer with, in
	// every version.
	contentType string
	// versions are the upstream versions the reference supports, by the
	// value of protocol.VersionHeader.
	versions map[string]version
	// convert turns a projected field into its agent type, if needed.
	convert func(field string, v any) (any, error)
	// check, if set, checks the schema-valid arguments in code.
	check func(args map[string]any) error
	// post, for a tool of kind kindSend, is what an allowed call does.
	post postAction
}

// postAction is what an allowed call of a kindSend tool does: POST its
// arguments to path, and answer data {"status": status} on a 2xx.
type postAction struct{ path, status string }

// version describes one upstream version of a tool: how its answer is
// read, checked and projected. JSON pointers (RFC 6901) name the values of
// the parsed answer.
type version struct {
	// schema is the kind of the pinned vendor schema ("vendor.v1"), see
	// [Schema].
	schema string
	// lines, for text tools, are the key=value lines of the body.
	lines []gate.KeySpec
	// bind are the answer values that must equal an argument.
	bind []binding
	// fresh points to the answer timestamp checked for freshness, if any.
	fresh string
	// project are the agent data fields, in contract order, and where
	// each is in the answer.
	project []field
}

// binding ties the answer value at pointer to the argument arg.
type binding struct{ pointer, arg string }

// field is one agent data field and the pointer to its answer value.
type field struct{ name, pointer string }

// Tools returns the names of the reference tools, sorted: the four read
// tools and the call-side tools send_email, purge_cache and request_refund.
func Tools() []string {
	names := []string{}
	for _, t := range referenceTools() {
		names = append(names, t.name)
	}
	slices.Sort(names)
	return names
}

// Versions returns the upstream versions the reference supports for tool
// (the values of protocol.VersionHeader it accepts), sorted; nil for a tool it
// lacks and for send_email and purge_cache, whose upstream answer is never
// read.
func Versions(tool string) []string {
	for _, t := range referenceTools() {
		if t.name == tool {
			return slices.Sorted(maps.Keys(t.versions))
		}
	}
	return nil
}

// referenceTools returns the read tools and the call-side tools.
func referenceTools() []tool {
	return append(readTools(), callTools()...)
}

// readTools returns the four read tools.
func readTools() []tool {
	return []tool{
		{
			name: "review_status", args: []string{"change_id"},
			path:        func(a map[string]string) string { return "/reviews/" + a["change_id"] },
			contentType: protocol.ContentTypeJSON,
			versions: map[string]version{
				"v1": reviewVersion("vendor.v1", "/reviewed_by"),
				"v2": reviewVersion("vendor.v2", "/reviewed_by/login"),
			},
		},
		{
			name: "run_status", args: []string{"project_id", "run_id"},
			path: func(a map[string]string) string {
				return "/projects/" + a["project_id"] + "/runs/" + a["run_id"]
			},
			contentType: protocol.ContentTypeJSON,
			versions: map[string]version{"v1": {
				schema: "vendor.v1",
				bind:   []binding{{"/project_id", "project_id"}, {"/run_id", "run_id"}},
				fresh:  "/observed_at",
				project: []field{{"project_id", "/project_id"}, {"run_id", "/run_id"},
					{"state", "/state"}, {"observed_at", "/observed_at"}},
			}},
		},
		{
			name: "deploy_status", args: []string{"environment"},
			path:        func(a map[string]string) string { return "/deployments/" + a["environment"] },
			contentType: protocol.ContentTypeJSON,
			versions: map[string]version{"v1": {
				schema:  "vendor.v1",
				bind:    []binding{{"/environment", "environment"}},
				project: []field{{"environment", "/environment"}, {"revision", "/revision"}, {"state", "/state"}},
			}},
		},
		{
			name: "host_uptime", args: []string{"host"},
			path:        func(a map[string]string) string { return "/hosts/" + a["host"] + "/uptime" },
			contentType: protocol.ContentTypeText,
			versions: map[string]version{"v1": {
				schema: "vendor.v1",
				lines: []gate.KeySpec{
					{Name: "host", Pattern: regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,62}$`)},
					{Name: "uptime_seconds", Pattern: regexp.MustCompile(`^[0-9]{1,12}$`)},
				},
				bind:    []binding{{"/host", "host"}},
				project: []field{{"host", "/host"}, {"uptime_seconds", "/uptime_seconds"}},
			}},
			convert: uptimeSeconds,
		},
	}
}

// reviewVersion is a review_status version: the versions differ only in
// their schema and where the reviewer's name is.
func reviewVersion(schema, reviewedBy string) version {
	return version{
		schema:  schema,
		bind:    []binding{{"/change_id", "change_id"}},
		project: []field{{"change_id", "/change_id"}, {"decision", "/decision"}, {"reviewed_by", reviewedBy}},
	}
}

// uptimeSeconds turns the uptime_seconds text into an integer.
func uptimeSeconds(field string, v any) (any, error) {
	if field != "uptime_seconds" {
		return v, nil
	}
	s, _ := v.(string)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "uptime_seconds %.20q: %w", s, err)
	}
	return n, nil
}
