package judge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/internal/judge"
)

func TestClosed(t *testing.T) {
	tests := []struct {
		name, schema string
		open         string // the pointer named; "-" when closed
		why          string
	}{
		{"closed", `{"properties":{"a":{}},"additionalProperties":false}`, "-", "additionalProperties false"},
		{"unevaluated", `{"properties":{"a":{}},"unevaluatedProperties":false}`, "-", "unevaluatedProperties false"},
		{"open-root", `{"properties":{"a":{}}}`, `""`, "the root is open"},
		{"open-nested", `{"properties":{"a":{"properties":{}}},"additionalProperties":false}`, `"/properties/a"`, "a property's own schema"},
		{"sealed-allof", `{"allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":false}`, "-", "sealed through allOf"},
		{"unsealed-allof", `{"allOf":[{"properties":{"a":{}}}]}`, `"/allOf/0"`, "nothing seals the branch"},
		{"items-not-sealed", `{"items":{"properties":{}},"unevaluatedProperties":false}`, `"/items"`, "items is not an applicator of the object"},
		{"enum-instance", `{"enum":[{"properties":{}}]}`, "-", "enum holds instances"},
		{"sorted-first", `{"b":{"properties":{}},"a":{"properties":{}}}`, `"/a"`, "members in sorted order"},
		{"escaped", `{"$defs":{"x/y":{"properties":{}}}}`, `"/$defs/x~1y"`, "the pointer is escaped"},
	}
	for _, tt := range tests {
		err := judge.Closed([]byte(tt.schema))
		if tt.open == "-" {
			if err != nil {
				t.Errorf("%s: Closed = %v, want nil (%s)", tt.name, err, tt.why)
			}
			continue
		}
		if !errors.Is(err, judge.ErrOpenSchema) || !strings.Contains(err.Error(), tt.open) {
			t.Errorf("%s: Closed = %v, want ErrOpenSchema at %s (%s)", tt.name, err, tt.open, tt.why)
		}
	}
	if err := judge.Closed([]byte(`{"a":1,"a":2}`)); errors.Is(err, judge.ErrOpenSchema) || err == nil {
		t.Errorf("Closed(duplicate names) = %v, want a parse error", err)
	}
}
