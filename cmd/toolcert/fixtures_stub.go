package main

import (
	"context"
	"io"
)

func fixturesImport(args []string, stdout, stderr io.Writer) error {
	return usageErr("import: not yet")
}

func fixturesRecord(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return usageErr("record: not yet")
}
