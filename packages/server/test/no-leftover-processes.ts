// Vitest setup file (every test file, both projects): a test that leaves a process running fails, naming it, and
// the process is killed with its group; so does a file whose `beforeAll`/`afterAll` left one. Registered before
// the file's own hooks, these run after them (Vitest runs `after` hooks last-registered first), so a file's own
// clean-up has had its turn. What counts is in fixtures/child-processes.ts.
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { beginTest, closeFile, describeLeftovers, reapLeftovers } from "./fixtures/child-processes.ts";

// A worker runs its files one after another in one module registry (the config's `isolate: false`): the
// registry the last file closed opens again for this one.
beforeAll(() => {
  closeFile(false);
});

beforeEach((context) => {
  beginTest(context.task.name);
});

afterEach(async (context) => {
  const left = await reapLeftovers("test");
  if (left.length > 0) throw new Error(describeLeftovers(left, `the test "${context.task.name}"`));
});

afterAll(async () => {
  closeFile();
  const left = await reapLeftovers("file");
  if (left.length > 0) throw new Error(describeLeftovers(left, "this file (outside its tests)"));
});
