package openapi

import (
	"fmt"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel"
)

// Options says how [Load] reads a description. The zero value refuses
// every file $ref and closes every object schema.
type Options struct {
	// BaseDir is the folder relative file $refs resolve against; a $ref to
	// a file outside it is refused. "" refuses every file $ref.
	BaseDir string
	// Open leaves object schemas open: no "unevaluatedProperties": false
	// is added (the user's --open).
	Open bool
}

// dialect is the schema language of a description.
type dialect int

const (
	oas2  dialect = iota // Swagger 2.0: a JSON Schema draft 4 subset
	oas30                // OpenAPI 3.0: draft 4 subset plus nullable
	oas31                // OpenAPI 3.1 and later: full Draft 2020-12
)

// Description is a parsed OpenAPI description. It is not changed by use
// and is safe for concurrent use.
type Description struct {
	root    *yaml.Node
	version string
	dialect dialect
	opts    Options
}

// Load parses spec, a Swagger 2.0 or OpenAPI 3.x description in YAML or
// JSON, with libopenapi (datamodel.ExtractSpecInfoWithConfig, the parse
// and document check libopenapi.NewDocument runs, called directly so that
// a document it parses but refuses can be told from a malformed one). It
// fails for a malformed document and, wrapping [ErrNotOpenAPI], for one
// that is not an OpenAPI description. Nothing is
// resolved yet: $refs are followed by [Description.Operation], only those
// the operation reaches, and only as opts allows (relative file refs under
// opts.BaseDir; never a URL).
func Load(spec []byte, opts Options) (*Description, error) {
	info, err := datamodel.ExtractSpecInfoWithConfig(spec, datamodel.NewDocumentConfiguration())
	if err != nil {
		return nil, loadError(info, err)
	}
	d := &Description{root: deref(info.RootNode), version: info.Version, opts: opts}
	switch info.SpecFormat {
	case datamodel.OAS2:
		d.dialect = oas2
	case datamodel.OAS3:
		d.dialect = oas30
	case datamodel.OAS31, datamodel.OAS32:
		d.dialect = oas31
	default:
		return nil, fmt.Errorf("load description: %w (%s %s)", ErrNotOpenAPI, info.SpecType, info.Version)
	}
	if d.root == nil || d.root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("load description: %w: the document is not a mapping", ErrNotOpenAPI)
	}
	return d, nil
}

// loadError tells a document libopenapi parsed but does not take for an
// OpenAPI description (ErrNotOpenAPI) from one it could not parse.
func loadError(info *datamodel.SpecInfo, err error) error {
	if info != nil && info.RootNode != nil {
		return fmt.Errorf("load description: %w: %v", ErrNotOpenAPI, err)
	}
	return fmt.Errorf("load description: %w", err)
}

// Version returns the version the description states: "2.0", "3.0.3",
// "3.1.0".
func (d *Description) Version() string { return d.version }
