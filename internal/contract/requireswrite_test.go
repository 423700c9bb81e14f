package contract

import "testing"

func TestRequiresWrite(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       bool
	}{
		{"a POST", `[{kind: network, method: POST, url_pattern: x, status_in: [303]}]`, true},
		{"a delete inside an and", `[{kind: and, children: [{kind: url, pattern: x}, {kind: network, method: delete, url_pattern: x, status_in: [200]}]}]`, true},
		{"a GET", `[{kind: network, method: GET, url_pattern: x, status_in: [200]}]`, false},
		{"any method", `[{kind: network, url_pattern: x, status_in: [200]}]`, false},
		{"a POST forbidden", `[{kind: not, child: {kind: network, method: POST, url_pattern: x, status_in: [303]}}]`, false},
		{"a POST as one way of two", `[{kind: or, children: [{kind: url, pattern: x}, {kind: network, method: POST, url_pattern: x, status_in: [403]}]}]`, false},
		{"at most one POST", `[{kind: network, method: POST, url_pattern: x, status_in: [303], count: {op: lte, value: 1}}]`, false},
		{"exactly two POSTs", `[{kind: network, method: POST, url_pattern: x, status_in: [303], count: {op: eq, value: 2}}]`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse([]byte("postconditions: " + tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if got := RequiresWrite(p); got != tc.want {
				t.Errorf("RequiresWrite = %v, want %v", got, tc.want)
			}
		})
	}
}
