// activity.js is called in the isolated world. It returns how the document
// has been changing, for deciding when an action's effects have settled:
// {quiet: ms since the last DOM mutation, mutations: total count since the
// world was installed, issued: highest ref handed out}.
function () {
  const ts = globalThis.__ts;
  return { quiet: ts.quietMs(), mutations: ts.mutations(), issued: ts.issued() };
}
