package steps_test

import (
	"fmt"
	"strings"

	"github.com/toolcert/toolcert/steps"
)

// The self-test selects the assertions: the steps a mutant adapter must be
// able to fail.
func ExampleVocabulary() {
	for _, d := range steps.Vocabulary() {
		if d.Kind == steps.Assert && strings.Contains(d.Pattern, "canary") {
			fmt.Println(d.Kind, d.Pattern)
		}
	}
	// Output:
	// assert ^no canary reaches the agent$
}
