package targets_test

import (
	"fmt"
	"log"
	"time"

	"github.com/toolcert/toolcert/targets"
)

func ExampleNewContainer() {
	// The image must be in the local Docker engine: it is never pulled.
	adapter, err := targets.NewContainer("my-adapter:dev",
		targets.WithContainerCmd("--config", "/etc/adapter/dev config.json"),
		targets.WithContainerRename(map[string]string{"TOOLCERT_LISTEN": "MY_ADAPTER_ADDR"}),
		targets.WithReadyTimeout(20*time.Second),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(adapter)
	// Output:
	// container my-adapter:dev --config '/etc/adapter/dev config.json'
}
