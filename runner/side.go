package runner

import (
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/mocks"
)

// sideRoutes returns the corpus's side routes (routes.json) as the mocks
// serve them; none when fsys has none.
func sideRoutes(fsys fs.FS) ([]mocks.SideRoute, error) {
	if fsys == nil {
		return nil, nil
	}
	c := corpus.New(fsys)
	routes, err := c.SideRoutes()
	if err != nil {
		return nil, err
	}
	out := make([]mocks.SideRoute, 0, len(routes))
	for i, r := range routes {
		status, headers, body, err := r.Answer(c)
		if err != nil {
			return nil, fmt.Errorf("%s: /routes/%d: %w", corpus.SideRoutesFile, i, err)
		}
		s := mocks.SideRoute{Method: r.Method, Path: r.Path, Response: mocks.Response{Status: status, Body: body}}
		for _, name := range slices.Sorted(maps.Keys(headers)) {
			s.Response.Header = append(s.Response.Header, mocks.HeaderField{Name: name, Value: headers[name]})
		}
		if r.Pattern != "" {
			s.Pattern = regexp.MustCompile("^(?:" + r.Pattern + ")$") // checked by SideRoutes
		}
		out = append(out, s)
	}
	return out, nil
}
