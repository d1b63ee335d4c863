// Package openapi turns one operation of an OpenAPI description (Swagger
// 2.0, OpenAPI 3.0.x or 3.1.x, YAML or JSON) into plain data: its path and
// query parameters and its responses, each schema a standalone, closed JSON
// Schema Draft 2020-12 document, with the description's own examples and a
// [Note] for everything that could not be carried over faithfully.
//
// [Load] parses the description with github.com/pb33f/libopenapi (its
// parser, its version detection and its document check). libopenapi's
// model is not built: [Description.Operation] reads the parsed node tree
// itself, from the chosen path item and only through the $refs it
// reaches, so a description of ten megabytes with thousands of operations
// costs one parse, not a model of every operation. The node tree keeps
// what the model loses: the JSON pointer of every value (for the Notes),
// number literals as written (the model holds bounds as float64, which
// cannot carry an int64 bound), every keyword, known or not, and the
// description's own member order.
//
// [Description.Operations] lists the operations and [Description.Match]
// finds the one a request is of; [Operation.Answer] is the success an
// upstream that follows the description answers (its example, or a body
// made from its schema with every member), for a mock of the upstream.
package openapi
