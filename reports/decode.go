package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// tooLargeError is returned by decodeStrict for input past its limit.
type tooLargeError struct{ limit int64 }

func (e *tooLargeError) Error() string { return fmt.Sprintf("larger than %d bytes", e.limit) }

// decodeStrict decodes the one JSON value of r into v: at most limit bytes,
// no field v does not know, nothing after the value but white space.
func decodeStrict(r io.Reader, limit int64, v any) error {
	raw, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return err
	}
	if int64(len(raw)) > limit {
		return &tooLargeError{limit}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if err := dec.Decode(new(json.RawMessage)); !errors.Is(err, io.EOF) {
		return errors.New("data after the JSON object")
	}
	return nil
}
