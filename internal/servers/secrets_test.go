package servers

import (
	"slices"
	"testing"
)

func TestChildEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    []string
		extra []string
		want  []string
	}{
		{
			name: "only allowed variables pass, in order",
			in: []string{"PATH=/usr/bin", "ANTHROPIC_API_KEY=sk-ant-1", "HOME=/root", "OPENAI_API_KEY=sk-2",
				"GITHUB_TOKEN=ghp_3", "AWS_SECRET_ACCESS_KEY=aws-4", "DB_PASSWORD=pw-5", "CONTRACTBENCH_REAL=1",
				"ANTHROPIC_BASE_URL=http://127.0.0.1:1", "LANG=C.UTF-8"},
			want: []string{"PATH=/usr/bin", "HOME=/root", "LANG=C.UTF-8"},
		},
		{
			name:  "a profile's pass_env adds names",
			in:    []string{"PATH=/usr/bin", "HTTPS_PROXY=http://proxy:3128", "DB_PASSWORD=pw"},
			extra: []string{"HTTPS_PROXY"},
			want:  []string{"PATH=/usr/bin", "HTTPS_PROXY=http://proxy:3128"},
		},
		{
			name: "a name is matched whole, not as a prefix",
			in:   []string{"PATHS=x", "HOME_SECRET=y"},
			want: []string{},
		},
		{name: "nothing in, nothing out", in: nil, want: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := slices.Clone(tc.in)
			got := ChildEnv(in, tc.extra...)
			if !slices.Equal(got, tc.want) {
				t.Errorf("ChildEnv(%q, %q) = %q, want %q", tc.in, tc.extra, got, tc.want)
			}
			if !slices.Equal(in, tc.in) {
				t.Errorf("ChildEnv changed its input to %q", in)
			}
		})
	}
}
