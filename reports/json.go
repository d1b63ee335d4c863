package reports

import (
	"encoding/json"
	"io"
)

// JSON renders r as indented JSON: the results.json file.
func JSON(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
