package variant_test

import (
	"testing"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/variant"
)

// builtin returns the built-in corpus.
func builtin(tb testing.TB) *corpus.Corpus {
	tb.Helper()
	return corpus.New(toolcert.Fixtures())
}

// generate returns the variants of the built-in corpus for opts.
func generate(tb testing.TB, opts variant.Options) []variant.Variant {
	tb.Helper()
	vs, err := variant.Generate(builtin(tb), opts)
	if err != nil {
		tb.Fatalf("Generate(%+v): %v", opts, err)
	}
	return vs
}

// testNow is the fixed clock the oracle test renders and evaluates at.
var testNow = time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)

// testVars are the placeholder values of the oracle test.
func testVars() corpus.Vars {
	return corpus.Vars{
		Now: testNow, Freshness: 5 * time.Minute, Skew: 30 * time.Second,
		Canary: func(name, _ string) string { return "tc" + name },
	}
}

// render renders a template with testVars.
func render(tb testing.TB, raw []byte, origin string) []byte {
	tb.Helper()
	out, err := corpus.Render(raw, origin, testVars())
	if err != nil {
		tb.Fatalf("render %s: %v", origin, err)
	}
	return out
}
