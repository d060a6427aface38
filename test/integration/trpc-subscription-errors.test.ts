/**
 * A subscription's errors arrive while it is consumed, after the procedure's middleware returned:
 * server/api/trpc.ts maps them there too, so an AppError thrown mid-stream reaches the client as
 * its own code (NOT_FOUND), not as a 500 that httpSubscriptionLink would retry. Checked through
 * the real procedure tiers with a router built for the test on an existing access-table path.
 */
import { describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { authedProcedure, contextFor, createCallerFactory, router } from "@/server/api/trpc";
import { AppError } from "@/server/errors";
import { actorOf, makeUser } from "../helpers";

const testRouter = router({
  agent: router({
    // "agent.chatStream" is a user-tier row of the access table
    chatStream: authedProcedure.subscription(async function* () {
      yield 1;
      throw new AppError("NOT_FOUND", "agent session not found");
    }),
  }),
});

describe("subscription errors", () => {
  it("an AppError thrown while iterating becomes the matching TRPCError", async () => {
    const caller = createCallerFactory(testRouter)(await contextFor(actorOf(await makeUser("subs"))));
    const seen: unknown[] = [];
    const error = await (async () => {
      try {
        for await (const v of await caller.agent.chatStream()) seen.push(v);
      } catch (e) {
        return e;
      }
    })();
    expect(seen).toEqual([1]);
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: "NOT_FOUND", message: "agent session not found" });
  });
});
