package servers

import (
	"slices"
	"testing"
)

func TestWithoutSecrets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{
			name: "API keys and tokens go, the rest stays in order",
			in: []string{"PATH=/usr/bin", "ANTHROPIC_API_KEY=sk-ant-1", "HOME=/root", "OPENAI_API_KEY=sk-2",
				"GITHUB_TOKEN=ghp_3", "CONTRACTBENCH_REAL=1", "ANTHROPIC_BASE_URL=http://127.0.0.1:1"},
			want: []string{"PATH=/usr/bin", "HOME=/root", "CONTRACTBENCH_REAL=1", "ANTHROPIC_BASE_URL=http://127.0.0.1:1"},
		},
		{
			name: "a value that merely mentions a key stays",
			in:   []string{"NOTE=ANTHROPIC_API_KEY is set elsewhere"},
			want: []string{"NOTE=ANTHROPIC_API_KEY is set elsewhere"},
		},
		{
			name: "an empty key is still dropped",
			in:   []string{"OPENAI_API_KEY="},
			want: []string{},
		},
		{name: "nothing in, nothing out", in: nil, want: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := slices.Clone(tc.in)
			got := WithoutSecrets(in)
			if !slices.Equal(got, tc.want) {
				t.Errorf("WithoutSecrets(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if !slices.Equal(in, tc.in) {
				t.Errorf("WithoutSecrets changed its input to %q", in)
			}
		})
	}
}
