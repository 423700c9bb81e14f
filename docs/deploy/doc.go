// Package deploy holds no code, only the test of the deployment examples
// beside it (deploy_test.go): the Kubernetes manifests under kubernetes/,
// decoded strictly with the official Kubernetes API types and checked for
// what makes one shard per completion index and a merge of all of them
// work, the commands of their containers run here as Kubernetes would run
// them, and the GitHub Actions matrix of github-actions.yml.
//
// It imports nothing. Its test imports the Kubernetes API modules, which
// are therefore requirements of the module but never linked into the
// contractbench binary.
package deploy
