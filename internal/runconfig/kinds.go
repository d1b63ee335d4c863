package runconfig

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolcert/toolcert/targets"
)

// fits checks that s has what its kind needs to start or reach the target
// and nothing its kind cannot use. Fields left for the target's flags
// (env, files, capabilities, rename) need no kind.
func (d *decoder) fits(s targets.Spec) error {
	has := map[string]bool{
		"command": s.Command != "" || len(s.Argv) > 0, "url": s.URL != "", "image": s.Image != "",
		"path": s.Path != "", "files": len(s.Files) > 0, "health": s.Health != "",
	}
	var need, refuse []string
	switch s.Kind {
	case "":
		refuse = []string{"command", "url", "image", "path", "health"}
	case targets.KindV1Process, targets.KindMCPStdio:
		need, refuse = []string{"command"}, []string{"url", "image", "path", "health"}
	case targets.KindV1URL:
		need, refuse = []string{"url"}, []string{"command", "image", "path", "health"}
	case targets.KindV1Image:
		need, refuse = []string{"image"}, []string{"command", "url", "path", "files", "health"}
	case targets.KindMCPHTTP:
		need, refuse = []string{"url", "command"}, []string{"image", "health"}
		if has["url"] && has["command"] {
			refuse = append(refuse, "url")
		} else if !has["command"] {
			refuse = append(refuse, "path")
		}
	case targets.KindHTTP:
		need, refuse = []string{"url", "command"}, []string{"image", "path"}
		if has["url"] && has["command"] {
			refuse = append(refuse, "url")
		}
	}
	for _, k := range refuse {
		if has[k] {
			return d.refuse(s, k)
		}
	}
	if len(need) > 0 && !slices.ContainsFunc(need, func(k string) bool { return has[k] }) {
		return d.faultf(&yaml.Node{Line: d.lines["target"]}, "target", "%s target needs %s", article(s.Kind), strings.Join(need, " or "))
	}
	return nil
}

// refuse returns the error of the target key k that s's kind cannot use.
func (d *decoder) refuse(s targets.Spec, k string) error {
	key := "target." + k
	at := &yaml.Node{Line: d.lines[key]}
	switch {
	case s.Kind == "":
		return d.faultf(at, key, "needs a kind (one of %s)", strings.Join(targets.Kinds(), ", "))
	case (s.Kind == targets.KindMCPHTTP || s.Kind == targets.KindHTTP) && k == "url":
		return d.faultf(at, key, "url (a server already running) and command (one per lane) exclude each other")
	case k == "path":
		return d.faultf(at, key, "%s target takes no path: path goes with an mcp-http command", article(s.Kind))
	case k == "health":
		return d.faultf(at, key, "%s target takes no health: health goes with an http tool service", article(s.Kind))
	case k == "command" && s.Kind == targets.KindV1Image:
		return d.faultf(at, key, "a v1-image target takes no command: the image's entrypoint runs")
	case k == "files":
		return d.faultf(at, key, "a v1-image target takes no files written per lane: mount them in the image")
	}
	return d.faultf(at, key, "%s target takes no %s", article(s.Kind), k)
}

// article returns kind after its indefinite article: "a v1-url", "an
// mcp-http".
func article(kind string) string {
	if strings.HasPrefix(kind, "mcp") {
		return "an " + kind
	}
	return "a " + kind
}
