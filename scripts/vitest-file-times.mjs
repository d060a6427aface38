// A vitest reporter for `npm test` (scripts/test.mjs): writes each test file's whole time (prepare,
// setup files, import and collection, then its tests and hooks), in milliseconds, as JSON
// [{ "file": "<absolute path>", "ms": 1234 }] to the path in SVC_VITEST_FILE_TIMES. The JSON
// reporter's own times cover only the span of a file's tests, not its setup (a database per file).
import { writeFileSync } from "node:fs";

export default class FileTimes {
  rows = [];

  /** @param {import("vitest/node").TestModule} testModule */
  onTestModuleEnd(testModule) {
    const d = testModule.diagnostic();
    this.rows.push({ file: testModule.moduleId, ms: d.prepareDuration + d.setupDuration + d.collectDuration + d.duration });
  }

  onTestRunEnd() {
    if (process.env.SVC_VITEST_FILE_TIMES) writeFileSync(process.env.SVC_VITEST_FILE_TIMES, JSON.stringify(this.rows));
  }
}
