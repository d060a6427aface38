"use client";
/**
 * Settings → AI → Daily budget (docs/ai.md "Who reaches a model, and the budget"): how many model
 * requests a day (UTC) this repository's own key may make, and how many it made today
 * (repoAiKeys.budget / setBudget). Empty: the server's default.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { AiBudgetView } from "@/server/services/ai/budget";
import { SavedNote } from "./section";
import { useRefresh } from "./use-refresh";

export function AiBudgetForm({ repoId, budget }: { repoId: string; budget: AiBudgetView }) {
  const trpc = useTRPC();
  const set = useMutation(trpc.repoAiKeys.setBudget.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const hydrated = useHydrated();
  const [value, setValue] = useState(budget.isDefault ? "" : String(budget.dailyRequests));
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string | null>(null);

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(null);
    const text = value.trim();
    if (text && !/^\d+$/.test(text)) return setError("enter a whole number of requests, or leave it empty for the default");
    try {
      const r = await set.mutateAsync({ repoId, dailyRequests: text ? Number(text) : null });
      setSaved(`Saved: ${r.dailyRequests} requests a day${r.isDefault ? " (the default)" : ""}`);
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = set.isPending || refreshing;
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-3" noValidate data-testid="ai-budget-form">
      <h3 className="text-sm font-semibold text-foreground">Daily budget</h3>
      <Field
        label="Model requests a day with this repository's key"
        id="ai-daily-requests"
        error={error}
        hint={`Used today: ${budget.usedToday} of ${budget.dailyRequests}; counts start again at 00:00 UTC. Only signed-in people reach the model; past the budget they are refused until then. Empty: the default. 0: the key is not used.`}
      >
        <Input
          inputMode="numeric"
          value={value}
          maxLength={7}
          placeholder={budget.isDefault ? String(budget.dailyRequests) : "default"}
          onChange={(e) => {
            setValue(e.target.value);
            setError(undefined);
            setSaved(null);
          }}
          className="max-w-40"
          data-testid="ai-daily-requests"
        />
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={!hydrated || busy} data-testid="save-ai-budget">
          {busy ? "Saving…" : "Save budget"}
        </Button>
        {saved && !busy && <SavedNote testId="ai-budget-saved">{saved}</SavedNote>}
      </div>
    </form>
  );
}
