package variant_test

import (
	"testing"

	"github.com/toolcert/toolcert/variant"
)

func BenchmarkGenerate(b *testing.B) {
	c := builtin(b)
	for b.Loop() {
		if _, err := variant.Generate(c, variant.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
