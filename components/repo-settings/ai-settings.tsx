"use client";
/**
 * Settings → AI (docs/ai.md "Repository keys (`repoAiKeys`)"): the engine the AI features use now
 * (ai.status), the repository's saved keys shown masked with Delete (repoAiKeys.list/delete), and
 * a form to add or replace a key or change its model, base URL and embedding model (repoAiKeys.set), and the
 * key's daily budget (ai-budget.tsx). The key is typed into a password field and never comes back from the server.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { badge, cx, hint } from "@/components/ui/styles";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useHydrated } from "@/components/ui/use-hydrated";
import { shortDate, fullDate } from "@/components/ui/format";
import type { RepoAiKeyRecord } from "@/server/services/ai/repo-keys";
import type { AiStatus } from "@/server/services/ai/status";
import type { AiBudgetView } from "@/server/services/ai/budget";
import { AiBudgetForm } from "./ai-budget";
import { SavedNote } from "./section";
import { useRefresh } from "./use-refresh";
import { useConfirmRemove } from "./use-confirm-remove";

type Provider = RepoAiKeyRecord["provider"];
const PROVIDERS: { value: Provider; label: string; model: string }[] = [
  { value: "openai", label: "OpenAI (or OpenAI-compatible)", model: "gpt-4o-mini" },
  { value: "anthropic", label: "Anthropic", model: "claude-sonnet-4-5" },
];
const providerName = (p: Provider) => (p === "openai" ? "OpenAI" : "Anthropic");

const SOURCE_TEXT: Record<AiStatus["source"], string> = {
  repository: "this repository's own key",
  server: "the server's configuration",
  local: "the local engine: no model, no key, nothing leaves this server",
};

export function AiSettings({
  repoId,
  keys,
  status,
  budget,
}: {
  repoId: string;
  keys: RepoAiKeyRecord[];
  status: AiStatus;
  budget: AiBudgetView;
}) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.repoAiKeys.delete.mutationOptions());
  const removal = useConfirmRemove((k: RepoAiKeyRecord) => remove.mutateAsync({ repoId, provider: k.provider }));
  const removing = removal.target;

  return (
    <div className="space-y-6">
      <div className="space-y-1" data-testid="ai-engine-in-use">
        <p className="text-sm text-foreground">
          In use now:{" "}
          <span className={cx(badge, "border-input font-mono text-foreground")} data-testid="ai-engine">
            {status.engine}
          </span>{" "}
          <span className="text-muted-foreground">from {SOURCE_TEXT[status.source]}</span>
        </p>
        <p className={hint}>
          Semantic search: <span className="font-mono">{status.engines.semanticSearch}</span>. Every AI answer is labelled with the engine
          that made it.
        </p>
      </div>

      <div>
        <h3 className="mb-2 text-sm font-semibold text-foreground">Saved keys</h3>
        {keys.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="no-ai-keys">
            No keys for this repository. The AI features use {status.source === "server" ? "the server's provider" : "the local engine"}.
          </p>
        ) : (
          <ul className="divide-y divide-border rounded-md border border-border" data-testid="ai-key-list">
            {keys.map((k) => (
              <li
                key={k.provider}
                className="flex flex-wrap items-center gap-3 px-4 py-3"
                data-testid="ai-key-row"
                data-provider={k.provider}
              >
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-foreground">{providerName(k.provider)}</span>
                    <span
                      className="font-mono text-sm text-muted-foreground"
                      data-testid="ai-key-mask"
                      aria-label={`key ending ${k.maskedKey.replace(/•/g, "") || "(hidden)"}`}
                    >
                      {k.maskedKey}
                    </span>
                    {!k.readable && (
                      <span
                        className={cx(badge, "border-danger-border text-danger")}
                        title="The server's secret changed; set the key again"
                      >
                        unreadable
                      </span>
                    )}
                  </div>
                  <div className="break-all text-xs text-subtle-foreground">
                    <span className="font-mono">{k.engine}</span>
                    {k.baseUrl && <> · {k.baseUrl}</>}
                    {k.provider === "openai" && (
                      <span data-testid="ai-key-search-engine">
                        {" · "}search:{" "}
                        {k.embeddingEngine ? <span className="font-mono">{k.embeddingEngine}</span> : "lexical (no embedding model)"}
                      </span>
                    )}
                    {" · "}
                    <span title={fullDate(k.updatedAt)}>updated {shortDate(k.updatedAt)}</span>
                  </div>
                </div>
                <Button
                  type="button"
                  variant="dangerOutline"
                  className="px-2.5!"
                  disabled={removal.busy}
                  onClick={() => removal.ask(k)}
                  aria-label={`Delete the ${providerName(k.provider)} key`}
                  data-testid="delete-ai-key"
                >
                  Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="border-t border-border pt-6">
        <AiKeyForm repoId={repoId} keys={keys} />
      </div>

      <div className="border-t border-border pt-6">
        <AiBudgetForm repoId={repoId} budget={budget} />
      </div>

      <ConfirmDialog {...removal.dialog} title="Delete AI key?" confirmLabel="Delete">
        <p>
          The <strong>{removing ? providerName(removing.provider) : ""}</strong> key {removing?.maskedKey} will be deleted. This repository
          then uses the server&apos;s provider, or the local engine.
        </p>
      </ConfirmDialog>
    </div>
  );
}

function AiKeyForm({ repoId, keys }: { repoId: string; keys: RepoAiKeyRecord[] }) {
  const trpc = useTRPC();
  const set = useMutation(trpc.repoAiKeys.set.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const hydrated = useHydrated();
  const [provider, setProvider] = useState<Provider>("openai");
  const existing = keys.find((k) => k.provider === provider);
  const [apiKey, setApiKey] = useState("");
  const [model, setModel] = useState(existing?.model ?? "");
  const [baseUrl, setBaseUrl] = useState(existing?.baseUrl ?? "");
  const [embeddingModel, setEmbeddingModel] = useState(existing?.embeddingModel ?? "");
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string | null>(null);

  function pick(p: Provider) {
    setProvider(p);
    const k = keys.find((x) => x.provider === p);
    setModel(k?.model ?? "");
    setBaseUrl(k?.baseUrl ?? "");
    setEmbeddingModel(k?.embeddingModel ?? "");
    setError(undefined);
    setSaved(null);
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(null);
    if (!apiKey.trim() && !existing) return setError(`enter the ${providerName(provider)} API key`);
    try {
      const r = await set.mutateAsync({
        repoId,
        provider,
        ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
        model: model.trim() || null,
        baseUrl: baseUrl.trim() || null,
        ...(provider === "openai" ? { embeddingModel: embeddingModel.trim() || null } : {}),
      });
      setApiKey("");
      setSaved(`Saved: ${providerName(r.provider)} key ${r.maskedKey}, ${r.engine}`);
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = set.isPending || refreshing;
  const defaults = PROVIDERS.find((p) => p.value === provider)!;
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-3" noValidate data-testid="ai-key-form" autoComplete="off">
      <h3 className="text-sm font-semibold text-foreground">{existing ? `Change the ${providerName(provider)} key` : "Add a key"}</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Provider" id="ai-provider">
          <NativeSelect value={provider} onChange={(e) => pick(e.target.value as Provider)} data-testid="ai-provider">
            {PROVIDERS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          label="API key"
          id="ai-api-key"
          error={error}
          hint={
            existing
              ? `Leave empty to keep the saved key (${existing.maskedKey}).`
              : "Stored encrypted; only its last 4 characters are ever shown."
          }
        >
          <Input
            type="password"
            value={apiKey}
            autoComplete="new-password"
            spellCheck={false}
            maxLength={512}
            placeholder={existing ? existing.maskedKey : provider === "openai" ? "sk-…" : "sk-ant-…"}
            onChange={(e) => {
              setApiKey(e.target.value);
              setError(undefined);
              setSaved(null);
            }}
            data-testid="ai-api-key"
          />
        </Field>
        <Field label="Model" id="ai-model" hint={`Empty: ${defaults.model}.`}>
          <Input
            value={model}
            maxLength={200}
            spellCheck={false}
            placeholder={defaults.model}
            onChange={(e) => setModel(e.target.value)}
            data-testid="ai-model"
          />
        </Field>
        <Field
          label="Base URL"
          id="ai-base-url"
          hint="Optional: an OpenAI-compatible server (vLLM, Ollama, llama.cpp), e.g. https://llm.example.com/v1."
        >
          <Input
            type="url"
            value={baseUrl}
            maxLength={500}
            spellCheck={false}
            placeholder="https://api.openai.com/v1"
            onChange={(e) => setBaseUrl(e.target.value)}
            data-testid="ai-base-url"
          />
        </Field>
        {provider === "openai" && (
          <Field
            label="Embedding model"
            id="ai-embedding-model"
            hint={
              baseUrl.trim()
                ? "For semantic code search. Empty: none, searches stay lexical."
                : "For semantic code search. Empty: text-embedding-3-small."
            }
          >
            <Input
              value={embeddingModel}
              maxLength={200}
              spellCheck={false}
              placeholder={baseUrl.trim() ? "nomic-embed-text" : "text-embedding-3-small"}
              onChange={(e) => setEmbeddingModel(e.target.value)}
              data-testid="ai-embedding-model"
            />
          </Field>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" disabled={!hydrated || busy} data-testid="save-ai-key">
          {busy ? "Saving…" : "Save key"}
        </Button>
        {saved && !busy && <SavedNote testId="ai-key-saved">{saved}</SavedNote>}
      </div>
    </form>
  );
}
