package main

import "io"

func fixturesImport(args []string, stdout, stderr io.Writer) error { return usageErr("import: not yet") }
