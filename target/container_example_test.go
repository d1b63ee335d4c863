package target_test

import (
	"fmt"
	"log"
	"time"

	"github.com/toolcert/toolcert/target"
)

func ExampleNewContainer() {
	// The image must be in the local Docker engine: it is never pulled.
	adapter, err := target.NewContainer("my-adapter:dev",
		target.WithContainerCmd("--config", "/etc/adapter/dev config.json"),
		target.WithContainerRename(map[string]string{"TOOLCERT_LISTEN": "MY_ADAPTER_ADDR"}),
		target.WithReadyTimeout(20*time.Second),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(adapter)
	// Output:
	// container my-adapter:dev --config '/etc/adapter/dev config.json'
}
