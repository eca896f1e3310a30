package action

import (
	"net/url"
)

// host is the host of address, or of fallback when address is "".
func host(address, fallback string) string {
	if address == "" {
		address = fallback
	}
	u, err := url.Parse(address)
	if err != nil {
		return ""
	}
	return u.Host
}
