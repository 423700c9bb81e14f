// Package architecture holds no code, only the test that keeps the
// module's boundaries (architecture_test.go): which packages may import
// which, which may touch the process (exit, arguments, environment,
// standard streams), and that no production package imports a test double
// (a package named *test or *fake). A rule that only people keep is broken the first time
// someone does not know it; this one fails `make test` instead.
//
// It imports nothing of this module: the test reads the other packages'
// source files.
package architecture
