package actiontest

import (
	"fmt"
	"regexp"
	"strings"
)

// exprContext is what the action's expressions may read: its inputs, the
// outputs of its steps, runner.temp and github.action_path. Nothing else
// is supported, so an expression the action starts to use fails the test
// until this fake learns it.
type exprContext struct {
	inputs     map[string]string
	steps      map[string]map[string]string
	temp       string
	actionPath string
}

var (
	// wholeExpr matches a value that is one expression and nothing else.
	wholeExpr = regexp.MustCompile(`^\$\{\{\s*(.*?)\s*\}\}$`)
	// comparison matches REF == 'literal' and REF != 'literal'.
	comparison = regexp.MustCompile(`^([A-Za-z0-9_.-]+)\s*(==|!=)\s*'([^']*)'$`)
)

// ref returns the value of a context reference such as inputs.format or
// steps.run.outputs.verdict; a step output never set is "", as on GitHub.
func (c exprContext) ref(name string) (string, error) {
	parts := strings.Split(name, ".")
	switch {
	case len(parts) == 2 && parts[0] == "inputs":
		v, ok := c.inputs[parts[1]]
		if !ok {
			return "", fmt.Errorf("%s: no such input", name)
		}
		return v, nil
	case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
		return c.steps[parts[1]][parts[3]], nil
	case name == "runner.temp":
		return c.temp, nil
	case name == "github.action_path":
		return c.actionPath, nil
	}
	return "", fmt.Errorf("%s: not a reference this test supports", name)
}

// value evaluates a with, env or output value: a literal, or one whole
// expression. A literal with an expression inside it is refused.
func (c exprContext) value(s string) (string, error) {
	m := wholeExpr.FindStringSubmatch(s)
	if m == nil {
		if strings.Contains(s, "${{") {
			return "", fmt.Errorf("%q: an expression inside a literal", s)
		}
		return s, nil
	}
	return c.ref(m[1])
}

// condition evaluates a step's if as GitHub does for the forms the action
// uses: "" is success(); terms joined by && are always(), success(),
// REF == 'literal' or REF != 'literal' (compared ignoring case, as GitHub
// compares strings); without always() the step runs only while no step
// has failed.
func (c exprContext) condition(s string, failed bool) (bool, error) {
	if m := wholeExpr.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	if strings.TrimSpace(s) == "" {
		return !failed, nil
	}
	ok, always := true, false
	for _, term := range strings.Split(s, "&&") {
		term = strings.TrimSpace(term)
		switch term {
		case "always()":
			always = true
			continue
		case "success()":
			ok = ok && !failed
			continue
		}
		m := comparison.FindStringSubmatch(term)
		if m == nil {
			return false, fmt.Errorf("if %q: term %q is not a form this test supports", s, term)
		}
		v, err := c.ref(m[1])
		if err != nil {
			return false, fmt.Errorf("if %q: %w", s, err)
		}
		ok = ok && strings.EqualFold(v, m[3]) == (m[2] == "==")
	}
	return ok && (always || !failed), nil
}
