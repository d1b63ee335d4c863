package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// maxResultBytes bounds one results.json that ReadResult reads.
const maxResultBytes = 512 << 20

// JSON renders r as indented JSON: the results.json file.
func JSON(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadResult reads a Result from r as [JSON] writes it: one JSON object of
// at most 512 MiB, no field the model does not know, nothing after it.
// It does not recount the summary: the caller gets what the file says.
func ReadResult(r io.Reader) (*Result, error) {
	var res Result
	if err := decodeStrict(r, maxResultBytes, &res); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	return &res, nil
}

// LoadResult reads the results.json file at path (see [ReadResult]).
// Its errors name path.
func LoadResult(path string) (*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // an *fs.PathError: "open PATH: why"
	}
	defer f.Close()
	res, err := ReadResult(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return res, nil
}
