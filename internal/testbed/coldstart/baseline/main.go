// Command baseline is the least a Go action can do before its first
// request: read the inputs from the environment and POST the create call
// with net/http's default client. The coldstart benchmarks measure it next
// to the action, so the action's own share of a cold start can be told from
// what any Go program pays (exec, the runtime, a loopback dial).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
)

func main() {
	body, _ := json.Marshal(map[string]string{"prompt": os.Getenv("INPUT_PROMPT")})
	u := os.Getenv("INPUT_BASE-URL") + "/v2/agent/" + url.PathEscape(os.Getenv("INPUT_PROJECT-ID")) + "/job"
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	req.Header.Set("Authorization", "Bearer "+os.Getenv("INPUT_API-KEY"))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		fmt.Fprintln(os.Stderr, resp.Status)
		os.Exit(1)
	}
}
