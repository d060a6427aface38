/**
 * Per test file in the vitest "shared" project (vitest.config.ts), where one process runs file
 * after file, so each file starts as a new server would: the push hook's socket server lives in
 * the file's DATA_DIR/run, removed with it, so it is closed after the file and the next file's
 * first push starts a new one; the rate limiters (in memory without REDIS_URL) are forgotten, so
 * one file's sign-ups and requests never count against the next file's. (Not in the
 * "isolated" project: importing the push hook there, before a test file's `vi.mock` applies,
 * would load the real modules the file replaces.)
 */
import { afterAll } from "vitest";
import { closePushHook } from "@/server/http/git/push-hook";
import { closeRateLimits } from "@/server/rate-limit";

afterAll(async () => {
  closePushHook();
  await closeRateLimits();
});
