// Package nullagent holds the players that do not try to do the task: Noop
// answers at once, and Random plays a seeded sequence of random actions on
// the page through any server of servers.yaml (it reads pages and builds
// calls with package servers). Every suite's contracts are checked against
// them: a contract that a null agent satisfies is broken.
//
// They are llm.Providers, run by package agent's loop like any model. The
// package must not import the judge (judge, phash); it reaches contract
// types only through servers' task references, never a task's contract.
package nullagent
