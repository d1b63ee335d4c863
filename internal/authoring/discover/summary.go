package discover

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Summary is DISCOVERY.md: the tools found, mapped and left out (and
// why), how the server reached its upstream, the side routes, and what is
// left to the owner.
func Summary(r *Result, w *Written, opts WriteOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# What toolcert discover learnt\n\n")
	fmt.Fprintf(&b, "Server: %s. Answers from: %s. On %s.\n\n", orUnknown(r.Server), sourceOf(opts), opts.Now.UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, "%s\n\n", Counts(r, w))
	b.WriteString("## Upstream wiring\n\n")
	b.WriteString(Wiring(r) + "\n\n")
	if r.StartNote != "" {
		b.WriteString("Note: " + r.StartNote + ".\n\n")
	}
	b.WriteString("## Tools\n\n| tool | read-only | route | result | written |\n| --- | --- | --- | --- | --- |\n")
	for _, t := range r.Tools {
		route, result, written := "", "", ""
		switch {
		case t.Mapping != nil:
			route = "`" + t.Mapping.Primary.describe() + "`"
			result = t.Mapping.View.Result
			if t.Mapping.View.Prose {
				result += " (prose)"
			}
			if why, failed := w.Failed[t.Name]; failed {
				written = "no: " + cell(why)
			} else {
				written = "fixtures/" + t.Name
			}
		default:
			written = "left out: " + cell(t.LeftOut)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", cell(t.Name), yesNo(t.ReadOnly), route, result, written)
	}
	if len(r.Side) > 0 {
		b.WriteString("\n## Side routes (fixtures/routes.json)\n\n")
		for _, s := range r.Side {
			fmt.Fprintf(&b, "- `%s`: %d\n", s.describe(), s.Answer.Status)
		}
	}
	var bound []string
	for _, t := range r.Mapped() {
		if _, failed := w.Failed[t.Name]; failed || t.Mapping.Primary.Answer.Real {
			continue
		}
		bind := bindings(t.Mapping)
		for _, ptr := range sortedKeys(bind) {
			bound = append(bound, fmt.Sprintf("- %s: `%s` must equal the argument `%s`", cell(t.Name), ptr, bind[ptr]))
		}
	}
	if len(bound) > 0 {
		b.WriteString("\n## Bindings decided (tool.json's `bind`)\n\n")
		b.WriteString("A top-level member named as a path parameter of the route, which held the parameter's value, is bound: an answer with another value there is about another object, and must fail. Delete a binding the upstream does not keep (one that answers another spelling of the name, say).\n\n")
		b.WriteString(strings.Join(bound, "\n") + "\n")
	}
	b.WriteString("\n## Left to you\n\n")
	b.WriteString("- Each tool's `tool.json` lists in `decide` what discovery could not know: which member of an answer must equal which argument (`bind`), which timestamp must be fresh, whether what the tool showed is what it should show. `toolcert fixtures lint --fixtures fixtures` lists them; toolcert.yaml runs with them open (`allow-open-decisions: true`) until you make them.\n")
	b.WriteString("- A tool left out above has no corpus: describe it with `toolcert fixtures import`, or name it in `--tools` to call it against the discovery mock (a destructive one too).\n")
	if len(opts.Profile) == 0 {
		b.WriteString("- Limits: no profile was given, so the server declares no byte limit and level safe does not hold it to one; the depth and attempt budgets are the reference adapter's. Give the server's own with `--profile` (docs/certify-an-mcp-server.md, \"When to write a profile\").\n")
	}
	if w.Config != "" {
		fmt.Fprintf(&b, "\nThen: `toolcert run --config %s`\n", w.Config)
	} else {
		b.WriteString("\nNo tool was mapped, so no toolcert.yaml was written: see why each tool was left out above.\n")
	}
	return b.String()
}

// Counts says, in one line, how many tools were found, called, mapped
// and written.
func Counts(r *Result, w *Written) string {
	called, readOnly, mappedRO := 0, 0, 0
	for _, t := range r.Tools {
		if t.Called {
			called++
		}
		if t.ReadOnly {
			readOnly++
			if t.Mapping != nil {
				mappedRO++
			}
		}
	}
	return fmt.Sprintf("%d tools found (%d read-only), %d called, %d mapped (%d of the read-only), %d written.",
		len(r.Tools), readOnly, called, len(r.Mapped()), mappedRO, len(w.Tools))
}

// Wiring says how the server reached the discovery mock.
func Wiring(r *Result) string {
	var named []string
	lane := false
	for _, v := range r.Wired {
		if v == "" {
			lane = true
		} else {
			named = append(named, "`"+v+"`")
		}
	}
	switch {
	case len(named) > 0 && lane:
		return "The server read its upstream from " + strings.Join(named, ", ") + " and from the lane's own URL (TOOLCERT_UPSTREAM_URL, or {{.UpstreamURL}} in the command or the config's env); toolcert.yaml sets each."
	case len(named) > 0:
		return "The server read its upstream from " + strings.Join(named, ", ") + "; toolcert.yaml sets it to the lane's mock."
	case lane:
		return "The server read its upstream from the lane's own URL (TOOLCERT_UPSTREAM_URL, or {{.UpstreamURL}} in the command or the config's env)."
	}
	called := 0
	var dialed []string
	for _, t := range r.Tools {
		if t.Called {
			called++
		}
		if m := dialPattern.FindStringSubmatch(t.LeftOut); m != nil && !slices.Contains(dialed, m[1]) {
			dialed = append(dialed, m[1])
		}
	}
	switch {
	case called == 0:
		return "No tool was called (each is left out, see why below), so how the server reads its upstream's URL is not known."
	case len(dialed) > 0:
		return "No request reached the discovery mock: the server dialed " + strings.Join(dialed, ", ") + " instead, its own default or a setting discover did not try. Write `{{.UpstreamURL}}` into the command where the server takes its upstream (`--target-mcp-cmd \"server --api-url {{.UpstreamURL}}\"`) or name the variable with `--upstream-env NAME`."
	}
	return "No request reached the discovery mock: the server reads its upstream's URL from a flag or a variable discover did not try, or refused every call before sending one (see each tool's reason below). Write `{{.UpstreamURL}}` into the command (`--target-mcp-cmd \"server --api-url {{.UpstreamURL}}\"`) or name the variable with `--upstream-env NAME`."
}

// dialPattern finds the address a Go client failed to dial in an error.
var dialPattern = regexp.MustCompile(`dial tcp ([A-Za-z0-9.\-\[\]:]+)`)

// cell makes text fit a table cell.
func cell(s string) string {
	return strings.ReplaceAll(clip(s, 160), "|", "\\|")
}

// yesNo writes a flag.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
