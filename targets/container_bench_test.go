package targets

import (
	"context"
	"testing"
	"time"
)

// BenchmarkContainerStartStop measures one lane's container: start from a
// local image FROM scratch, wait for /healthz, stop and remove. It skips
// where no Docker engine answers.
func BenchmarkContainerStartStop(b *testing.B) {
	b.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	image := testAdapterImage(b)
	ctr, err := NewContainer(image)
	if err != nil {
		b.Fatal(err)
	}
	env := Env{UpstreamURL: "http://127.0.0.1:1"}
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		inst, err := ctr.Start(ctx, env)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		if err := inst.Stop(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
