package deploy

// The Kubernetes manifests are decoded with the official API types, in
// strict mode: an unknown or duplicated field (a typo) is an error, as the
// API server's strict field validation would make it. Kubernetes's own
// semantic validation is not importable; the checks below are the ones
// the sharding depends on.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

const (
	shardsFile = "kubernetes/shards.yaml"
	mergeFile  = "kubernetes/merge.yaml"
	dockerfile = "Dockerfile"
	// badUsageExit is the CLI's exit status for bad usage or a bad input
	// file (internal/cli's ExitUsage), which fails the same on every
	// index and every retry.
	badUsageExit = 2
)

// object is one document of a manifest, decoded.
type object struct {
	where string // "kubernetes/shards.yaml: document 2"
	obj   runtime.Object
}

// decodeStrict decodes every YAML document of a manifest with the
// Kubernetes API types of batch/v1 and core/v1, strictly.
func decodeStrict(name string, data []byte) ([]object, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{batchv1.AddToScheme, corev1.AddToScheme} {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	dec := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	rd := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out []object
	for n := 1; ; n++ {
		doc, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		where := fmt.Sprintf("%s: document %d", name, n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		obj, _, err := dec.Decode(doc, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		out = append(out, object{where, obj})
	}
}

// manifest reads and decodes a manifest, failing the test on any error.
func manifest(t *testing.T, name string) []object {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := decodeStrict(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// only returns the one object of type T in objs.
func only[T runtime.Object](t *testing.T, name string, objs []object) T {
	t.Helper()
	var found []T
	for _, o := range objs {
		if v, ok := o.obj.(T); ok {
			found = append(found, v)
		}
	}
	if len(found) != 1 {
		var zero T
		t.Fatalf("%s: want exactly one %T, found %d", name, zero, len(found))
	}
	return found[0]
}

// TestManifestsDecodeStrictly: every document is a known kind decoded
// without an unknown field, and a misspelt field is caught (so the
// decoding above is really strict).
func TestManifestsDecodeStrictly(t *testing.T) {
	t.Parallel()
	kinds := map[string][]string{
		shardsFile: {"*v1.PersistentVolumeClaim", "*v1.Job"},
		mergeFile:  {"*v1.Job"},
	}
	for name, want := range kinds {
		var got []string
		for _, o := range manifest(t, name) {
			got = append(got, fmt.Sprintf("%T", o.obj))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: documents %v, want %v", name, got, want)
		}
	}

	data, err := os.ReadFile(shardsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, typo := range []struct{ field, misspelt, want string }{
		{"completionMode:", "completionMod:", `unknown field "spec.completionMod"`},
		{"mountPath: /results", "mountpath: /results", `unknown field "spec.template.spec.containers[0].volumeMounts[0].mountpath"`},
		{"restartPolicy: Never", "restartPolicy: Never\n      restartPolicy: Never", `key "restartPolicy" already set`},
	} {
		bad := bytes.Replace(data, []byte(typo.field), []byte(typo.misspelt), 1)
		if bytes.Equal(bad, data) {
			t.Errorf("%s has no %q to misspell", shardsFile, typo.field)
			continue
		}
		_, err := decodeStrict(shardsFile, bad)
		if err == nil || !strings.Contains(err.Error(), typo.want) {
			t.Errorf("%s with %q: error %v, want one containing %s", shardsFile, typo.misspelt, err, typo.want)
		}
	}
}

// shardCount is N: the shards' Job's completions.
func shardCount(t *testing.T, job *batchv1.Job) int {
	t.Helper()
	if job.Spec.Completions == nil || *job.Spec.Completions < 1 {
		t.Fatalf("%s: job %s: completions must be set to the number of shards", shardsFile, job.Name)
	}
	return int(*job.Spec.Completions)
}

// envOf returns the value of a container's variable.
func envOf(c corev1.Container, name string) (string, bool) {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value, e.ValueFrom == nil
		}
	}
	return "", false
}

// checkPod checks what every pod of the deployment needs: a restart policy
// a Job accepts, resource requests, and the results volume from the claim,
// mounted where RESULTS says.
func checkPod(t *testing.T, file string, job *batchv1.Job, claim string) {
	t.Helper()
	spec := job.Spec.Template.Spec
	switch p := spec.RestartPolicy; {
	case p != corev1.RestartPolicyNever && p != corev1.RestartPolicyOnFailure:
		t.Errorf("%s: restartPolicy %q: a Job's pods need Never or OnFailure", file, p)
	case job.Spec.PodFailurePolicy != nil && p != corev1.RestartPolicyNever:
		t.Errorf("%s: restartPolicy %q: podFailurePolicy needs Never", file, p)
	}
	if len(spec.Containers) == 0 {
		t.Fatalf("%s: no container", file)
	}
	for _, c := range append(slices.Clone(spec.InitContainers), spec.Containers...) {
		req := c.Resources.Requests
		for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if q, ok := req[r]; !ok || q.Sign() <= 0 {
				t.Errorf("%s: container %s: no %s request; the scheduler would pack shards onto one node", file, c.Name, r)
			}
		}
		mem := req[corev1.ResourceMemory]
		if lim, ok := c.Resources.Limits[corev1.ResourceMemory]; ok && lim.Cmp(mem) < 0 {
			t.Errorf("%s: container %s: memory limit %s below its request %s", file, c.Name, lim.String(), mem.String())
		}
		if c.Image == "" {
			t.Errorf("%s: container %s: no image", file, c.Name)
		}
	}

	c := spec.Containers[0]
	results, ok := envOf(c, "RESULTS")
	if !ok || !path.IsAbs(results) {
		t.Fatalf("%s: container %s: RESULTS = %q, want the absolute path the results volume is mounted at", file, c.Name, results)
	}
	var volume string
	for _, m := range c.VolumeMounts {
		if m.MountPath == results {
			volume = m.Name
			if m.ReadOnly {
				t.Errorf("%s: container %s: %s is mounted read-only", file, c.Name, results)
			}
		}
	}
	if volume == "" {
		t.Fatalf("%s: container %s: nothing is mounted at RESULTS (%s): the reports would be lost with the pod", file, c.Name, results)
	}
	for _, v := range spec.Volumes {
		if v.Name == volume {
			if v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName != claim {
				t.Errorf("%s: volume %s at %s: want the claim %s of %s", file, volume, results, claim, shardsFile)
			}
			return
		}
	}
	t.Errorf("%s: volume %s mounted at %s is not defined", file, volume, results)
}

// TestShardsJob: one pod per completion index, N shards, each writing to
// the shared volume, retried on its own.
func TestShardsJob(t *testing.T) {
	t.Parallel()
	objs := manifest(t, shardsFile)
	job := only[*batchv1.Job](t, shardsFile, objs)
	claim := only[*corev1.PersistentVolumeClaim](t, shardsFile, objs)
	n := shardCount(t, job)

	if m := job.Spec.CompletionMode; m == nil || *m != batchv1.IndexedCompletion {
		t.Errorf("%s: completionMode %v, want Indexed: only then does each pod get its own JOB_COMPLETION_INDEX", shardsFile, m)
	}
	if p := job.Spec.Parallelism; p == nil || *p < 1 || int(*p) > n {
		t.Errorf("%s: parallelism %v, want 1..completions (%d)", shardsFile, p, n)
	}
	checkPod(t, shardsFile, job, claim.Name)

	spec := job.Spec.Template.Spec
	c := spec.Containers[0]
	if v, _ := envOf(c, "SHARDS"); v != strconv.Itoa(n) {
		t.Errorf("%s: container %s: SHARDS = %q, want completions, %d", shardsFile, c.Name, v, n)
	}
	if !slices.Equal(c.Command, []string{"sh", "-c"}) || len(c.Args) != 1 {
		t.Errorf("%s: container %s: command %q args of %d, want sh -c and one script", shardsFile, c.Name, c.Command, len(c.Args))
	} else {
		for _, want := range []string{`$((JOB_COMPLETION_INDEX + 1))`, `--shard "$i/$SHARDS"`, `--out "$out"`, `--resume "$prior"`} {
			if !strings.Contains(c.Args[0], want) {
				t.Errorf("%s: container %s: the script lacks %s", shardsFile, c.Name, want)
			}
		}
	}

	// Chromium's shared memory: the container's own /dev/shm is 64 MiB.
	shm := false
	for _, m := range c.VolumeMounts {
		if m.MountPath != "/dev/shm" {
			continue
		}
		for _, v := range spec.Volumes {
			if v.Name == m.Name && v.EmptyDir != nil && v.EmptyDir.Medium == corev1.StorageMediumMemory {
				shm = true
			}
		}
	}
	if !shm {
		t.Errorf("%s: container %s: /dev/shm is not an in-memory emptyDir", shardsFile, c.Name)
	}
	if g := spec.TerminationGracePeriodSeconds; g == nil || *g < 30 {
		t.Errorf("%s: terminationGracePeriodSeconds %v: want at least 30, time to write the interrupted report", shardsFile, g)
	}

	if n > 1 && int(*job.Spec.Parallelism) > 1 && !slices.Contains(claim.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Errorf("%s: claim %s: access modes %v: pods on several nodes write at once, want ReadWriteMany", shardsFile, claim.Name, claim.Spec.AccessModes)
	}
	if q, ok := claim.Spec.Resources.Requests[corev1.ResourceStorage]; !ok || q.Sign() <= 0 {
		t.Errorf("%s: claim %s: no storage request", shardsFile, claim.Name)
	}

	// Bad usage stops the whole Job; a rule naming a container must name
	// this one; exit 0 is never a failure.
	failsOnUsage := false
	if pfp := job.Spec.PodFailurePolicy; pfp != nil {
		for i, r := range pfp.Rules {
			if r.OnExitCodes == nil {
				continue
			}
			if r.OnExitCodes.ContainerName != nil && *r.OnExitCodes.ContainerName != c.Name {
				t.Errorf("%s: podFailurePolicy.rules[%d]: container %q, want %q", shardsFile, i, *r.OnExitCodes.ContainerName, c.Name)
			}
			if r.OnExitCodes.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn && slices.Contains(r.OnExitCodes.Values, 0) {
				t.Errorf("%s: podFailurePolicy.rules[%d]: exit 0 is success", shardsFile, i)
			}
			if r.Action == batchv1.PodFailurePolicyActionFailJob && r.OnExitCodes.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn &&
				slices.Contains(r.OnExitCodes.Values, badUsageExit) {
				failsOnUsage = true
			}
		}
	}
	if !failsOnUsage {
		t.Errorf("%s: no podFailurePolicy rule fails the Job on exit %d (bad usage), which no retry can fix", shardsFile, badUsageExit)
	}
}

// TestMergeJob: one pod, reading the N shard folders of the same volume.
func TestMergeJob(t *testing.T) {
	t.Parallel()
	shards := manifest(t, shardsFile)
	n := shardCount(t, only[*batchv1.Job](t, shardsFile, shards))
	claim := only[*corev1.PersistentVolumeClaim](t, shardsFile, shards)
	shardsImage := only[*batchv1.Job](t, shardsFile, shards).Spec.Template.Spec.Containers[0].Image

	job := only[*batchv1.Job](t, mergeFile, manifest(t, mergeFile))
	if m := job.Spec.CompletionMode; m != nil && *m != batchv1.NonIndexedCompletion {
		t.Errorf("%s: completionMode %s: the merge is one pod", mergeFile, *m)
	}
	for name, v := range map[string]*int32{"completions": job.Spec.Completions, "parallelism": job.Spec.Parallelism} {
		if v != nil && *v != 1 {
			t.Errorf("%s: %s %d: the merge is one pod", mergeFile, name, *v)
		}
	}
	checkPod(t, mergeFile, job, claim.Name)
	c := job.Spec.Template.Spec.Containers[0]
	if v, _ := envOf(c, "SHARDS"); v != strconv.Itoa(n) {
		t.Errorf("%s: container %s: SHARDS = %q, want the shards' completions, %d", mergeFile, c.Name, v, n)
	}
	if c.Image != shardsImage {
		t.Errorf("%s: image %s, the shards run %s", mergeFile, c.Image, shardsImage)
	}
	shardResults, _ := envOf(only[*batchv1.Job](t, shardsFile, shards).Spec.Template.Spec.Containers[0], "RESULTS")
	if v, _ := envOf(c, "RESULTS"); v != shardResults {
		t.Errorf("%s: RESULTS = %q, the shards write to %q", mergeFile, v, shardResults)
	}
	if len(c.Args) != 1 || !strings.Contains(c.Args[0], `$(seq 1 "$SHARDS")`) || !strings.Contains(c.Args[0], "contractbench merge") {
		t.Errorf("%s: container %s: want one script that merges the reports of shards 1..$SHARDS", mergeFile, c.Name)
	}
}

// TestDockerfileHoldsWhatTheJobsRun: the image the Jobs run has the tree
// where SUITE points and contractbench on PATH.
func TestDockerfileHoldsWhatTheJobsRun(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	job := only[*batchv1.Job](t, shardsFile, manifest(t, shardsFile))
	suite, _ := envOf(job.Spec.Template.Spec.Containers[0], "SUITE")
	m := regexp.MustCompile(`(?m)^COPY --from=build /src (\S+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s: no COPY of the built tree (COPY --from=build /src DIR)", dockerfile)
	}
	root := string(m[1])
	if !strings.HasPrefix(suite, root+"/") {
		t.Errorf("%s: SUITE = %q is not in the tree the image holds, %s", shardsFile, suite, root)
	}
	if _, err := os.Stat("../../" + strings.TrimPrefix(suite, root+"/")); err != nil {
		t.Errorf("%s: SUITE = %q: no such suite in this tree: %v", shardsFile, suite, err)
	}
	if link := "ln -s " + root + "/bin/contractbench /usr/local/bin/contractbench"; !bytes.Contains(data, []byte(link)) {
		t.Errorf("%s: lacks %q: the Jobs call contractbench by name", dockerfile, link)
	}
}
