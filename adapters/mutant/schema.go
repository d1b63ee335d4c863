package mutant

import (
	"encoding/json"
)

// openSchema returns schema with every "additionalProperties": false and
// "unevaluatedProperties": false removed, at any depth. A schema it cannot
// decode is returned unchanged (the compiler then reports it).
func openSchema(schema []byte) []byte {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return schema
	}
	out, err := json.Marshal(open(doc))
	if err != nil {
		return schema
	}
	return out
}

// open removes the closing keywords from v and its members.
func open(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range []string{"additionalProperties", "unevaluatedProperties"} {
			if v[k] == false {
				delete(v, k)
			}
		}
		for k, e := range v {
			v[k] = open(e)
		}
	case []any:
		for i, e := range v {
			v[i] = open(e)
		}
	}
	return v
}
