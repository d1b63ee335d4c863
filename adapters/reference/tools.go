package reference

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"

	"github.com/toolcert/toolcert/gate"
)

// tool describes one read tool of docs/protocol.md.
type tool struct {
	name string
	// args are the argument names, all strings.
	args []string
	// path builds the upstream path from the escaped arguments.
	path func(a map[string]string) string
	// contentType is the media type the upstream must answer with.
	contentType string
	// lines, for text tools, are the key=value lines of the body.
	lines []gate.KeySpec
	// bound are the body fields that must equal the argument of the same
	// name.
	bound []string
	// fresh names the body timestamp checked for freshness, if any.
	fresh string
	// data are the body fields copied to the agent data, in contract order.
	data []string
	// convert turns a copied field into its agent type, if needed.
	convert func(field string, v any) (any, error)
}

// Tools returns the names of the reference tools, sorted.
func Tools() []string {
	names := []string{}
	for _, t := range referenceTools() {
		names = append(names, t.name)
	}
	slices.Sort(names)
	return names
}

// referenceTools returns the four read tools.
func referenceTools() []tool {
	esc := url.PathEscape
	return []tool{
		{
			name: "review_status", args: []string{"change_id"},
			path:        func(a map[string]string) string { return "/reviews/" + esc(a["change_id"]) },
			contentType: gate.ContentTypeJSON,
			bound:       []string{"change_id"},
			data:        []string{"change_id", "decision", "reviewed_by"},
		},
		{
			name: "run_status", args: []string{"project_id", "run_id"},
			path: func(a map[string]string) string {
				return "/projects/" + esc(a["project_id"]) + "/runs/" + esc(a["run_id"])
			},
			contentType: gate.ContentTypeJSON,
			bound:       []string{"project_id", "run_id"},
			fresh:       "observed_at",
			data:        []string{"project_id", "run_id", "state", "observed_at"},
		},
		{
			name: "deploy_status", args: []string{"environment"},
			path:        func(a map[string]string) string { return "/deployments/" + esc(a["environment"]) },
			contentType: gate.ContentTypeJSON,
			bound:       []string{"environment"},
			data:        []string{"environment", "revision", "state"},
		},
		{
			name: "host_uptime", args: []string{"host"},
			path:        func(a map[string]string) string { return "/hosts/" + esc(a["host"]) + "/uptime" },
			contentType: gate.ContentTypeText,
			lines: []gate.KeySpec{
				{Name: "host", Pattern: regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,62}$`)},
				{Name: "uptime_seconds", Pattern: regexp.MustCompile(`^[0-9]{1,12}$`)},
			},
			bound:   []string{"host"},
			data:    []string{"host", "uptime_seconds"},
			convert: uptimeSeconds,
		},
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
		return nil, gate.Reject(gate.GateSchema, gate.ReasonSchemaViolation, "uptime_seconds %.20q: %w", s, err)
	}
	return n, nil
}
