package targets_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/toolcert/toolcert/targets"
)

// What a lane checks of a target process it started: where it listens
// beyond loopback, right after the start, and what it left running, after
// Stop (not run: it needs the adapter's executable).
func ExampleExposureChecker() {
	adapter, err := targets.NewProcess([]string{"./my-adapter"})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	inst, err := adapter.Start(ctx, targets.Env{UpstreamURL: "http://127.0.0.1:41234"})
	if err != nil {
		log.Fatal(err)
	}
	if checker, ok := inst.(targets.ExposureChecker); ok {
		exposed, err := checker.Exposed(ctx)
		switch {
		case errors.Is(err, errors.ErrUnsupported):
			fmt.Println("not checked here:", err)
		case err != nil:
			fmt.Println("checked in part:", err)
		}
		for _, addr := range exposed {
			fmt.Println("reachable from the network:", addr) // e.g. tcp 0.0.0.0:8080 (pid 4242: ./my-adapter)
		}
	}
	if err := inst.Stop(ctx); err != nil {
		log.Print(err)
	}
	if reporter, ok := inst.(targets.LeftoverReporter); ok {
		for _, p := range reporter.Leftovers() {
			fmt.Println("outlived the adapter:", p) // e.g. pid 4243: ./my-adapter --worker
		}
	}
}
