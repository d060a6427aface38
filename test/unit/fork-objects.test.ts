/** borrowedObjectsEnv (server/git/forks.ts): the GIT_ALTERNATE_OBJECT_DIRECTORIES list git reads. */
import { describe, expect, it } from "vitest";
import { borrowedObjectsEnv, objectsDir } from "@/server/git/forks";

describe("borrowedObjectsEnv", () => {
  it("joins object folders with the path separator and C-quotes the ones git would split or unquote", () => {
    expect(borrowedObjectsEnv(undefined)).toBeUndefined();
    expect(borrowedObjectsEnv([])).toBeUndefined();
    expect(borrowedObjectsEnv([objectsDir("/d/repos/a/x.git"), "/d/b/objects"])).toEqual({
      GIT_ALTERNATE_OBJECT_DIRECTORIES: "/d/repos/a/x.git/objects:/d/b/objects",
    });
    expect(borrowedObjectsEnv(["/d:e/objects", '"q/objects', "/b\\s/objects"])).toEqual({
      GIT_ALTERNATE_OBJECT_DIRECTORIES: '"/d:e/objects":"\\"q/objects":"/b\\\\s/objects"',
    });
  });
});
