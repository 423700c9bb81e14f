// Package loopback serves HTTP to the user on a loopback address, and
// only there: show's report page and the MCP endpoint of the built-in
// tool server. Whoever reaches such a server reads the report or drives
// the browser, so it is never bound where another machine could reach
// it. The commands name their own flags in the errors they make of
// Check's. It imports no other package of the module.
package loopback
