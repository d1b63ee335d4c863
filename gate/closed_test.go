package gate

import (
	"errors"
	"testing"
)

func TestClosed(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		open   bool
	}{
		{name: "closed", schema: `{"type":"object","properties":{"a":{}},"additionalProperties":false}`},
		{name: "open", schema: `{"type":"object","properties":{"a":{}}}`, open: true},
		{name: "nested open", schema: `{"properties":{"a":{"properties":{"b":{}}}},"additionalProperties":false}`, open: true},
		{name: "allOf sealed", schema: `{"allOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}],"unevaluatedProperties":false}`},
		{name: "allOf unsealed", schema: `{"allOf":[{"properties":{"a":{}}}]}`, open: true},
		{name: "defs checked", schema: `{"$defs":{"x":{"properties":{"a":{}}}}}`, open: true},
		{name: "sealed does not reach properties", schema: `{"allOf":[{"properties":{"a":{"properties":{}}}}],"unevaluatedProperties":false}`, open: true},
		{name: "const ignored", schema: `{"const":{"properties":{}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Closed([]byte(tt.schema))
			if got := errors.Is(err, ErrOpenSchema); got != tt.open || (!tt.open && err != nil) {
				t.Errorf("Closed = %v, want open %t", err, tt.open)
			}
		})
	}
}
