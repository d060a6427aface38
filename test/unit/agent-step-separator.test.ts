import { describe, expect, it } from "vitest";
import { stepSeparator } from "@/server/services/agent/run-turn";

describe("stepSeparator: each model step's text starts a Markdown block of its own", () => {
  it("puts a blank line after a list that ends in a newline (the text no longer joins the last item)", () => {
    const before = "Plan:\n- step one\n- step two\n";
    expect(before + stepSeparator(before) + "I proposed **two changes**.").toBe(
      "Plan:\n- step one\n- step two\n\nI proposed **two changes**.",
    );
  });
  it("adds a blank line after a sentence, nothing after a blank line or at the start", () => {
    expect(stepSeparator("Let me look.")).toBe("\n\n");
    expect(stepSeparator("Done.\n\n")).toBe("");
    expect(stepSeparator("Done.\n  \n ")).toBe("");
    expect(stepSeparator("")).toBe("");
    expect(stepSeparator("Trailing space ")).toBe("\n\n");
  });
});
