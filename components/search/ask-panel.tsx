"use client";
/**
 * "Ask" (an Ask chat panel with references linking to files and lines; docs/ai.md "Chat
 * (`ai.chat`) and the Ask panel"): a
 * conversation about the repository's code through ai.chat. Each answer shows the engine that
 * wrote it (the local engine answers with retrieved code, labelled as retrieval) and its
 * references as `path:start–end` links into the code browser with those lines selected. The
 * conversation lives in the page (the last 10 turns are sent as history).
 */
import { useState } from "react";
import Link from "next/link";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { IssueMarkdown } from "@/components/issues/markdown";
import { EngineLabel } from "@/components/ai/engine-label";
import { codeUrl, lineHash } from "@/components/code/urls";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { Textarea } from "@/components/ui/input";
import { card, cx, label } from "@/components/ui/styles";

interface Turn {
  question: string;
  response: string;
  engine: string;
  references: { path: string; lines?: { start: number; end: number }; relevance: number }[];
}

const HISTORY_TURNS = 10;

export function AskPanel({ repo, branch }: { repo: { id: string; owner: string; name: string }; branch: string }) {
  const client = useTRPCClient();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function ask(e: React.FormEvent) {
    e.preventDefault();
    const question = message.trim();
    if (!question || busy) return;
    setBusy(true);
    setError(null);
    try {
      const history = turns.slice(-HISTORY_TURNS).flatMap((t) => [
        { role: "user" as const, content: t.question },
        { role: "assistant" as const, content: t.response.slice(0, 8000) },
      ]);
      const out = await client.ai.chat.mutate({ repoId: repo.id, message: question, history });
      setTurns((ts) => [...ts, { question, response: out.response, engine: out.engine, references: out.references ?? [] }]);
      setMessage("");
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={cx(card, "mt-4 p-4")} aria-labelledby="ask-heading" data-testid="ask-panel">
      <h2 id="ask-heading" className="text-sm font-semibold">
        Ask about this code
      </h2>
      <ol className="mt-3 space-y-4" aria-live="polite">
        {turns.map((t, i) => (
          <li key={i} className="space-y-2" data-testid="ask-turn">
            <p className="text-sm font-medium" data-testid="ask-question">
              {t.question}
            </p>
            <div className="min-w-0 rounded-md border border-border p-3">
              <div className="mb-2">
                <EngineLabel engine={t.engine} verb={t.engine === "local" ? "Retrieved" : "Written"} />
              </div>
              <IssueMarkdown source={t.response} repo={{ owner: repo.owner, name: repo.name }} testId="ask-response" />
              {t.references.length > 0 && (
                <ul className="mt-3 flex flex-wrap gap-2 text-xs" aria-label="References" data-testid="ask-references">
                  {t.references.map((r, k) => (
                    <li key={k}>
                      <Link
                        href={`${codeUrl(repo.owner, repo.name, "blob", branch, r.path)}${r.lines ? lineHash(r.lines.start, r.lines.end) : ""}`}
                        className="break-all rounded border border-border px-1.5 py-0.5 font-mono text-primary hover:underline"
                        title={`Relevance ${r.relevance.toFixed(2)}`}
                        data-testid="ask-reference"
                      >
                        {r.path}
                        {r.lines ? `:${r.lines.start === r.lines.end ? r.lines.start : `${r.lines.start}–${r.lines.end}`}` : ""}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </li>
        ))}
      </ol>
      <form onSubmit={ask} className="mt-3 space-y-2">
        <label htmlFor="ask-message" className={label}>
          Question
        </label>
        <Textarea
          id="ask-message"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) void ask(e);
          }}
          rows={2}
          maxLength={4000}
          placeholder="e.g. Where are invoices totalled?"
          aria-invalid={!!error || undefined}
          data-testid="ask-message"
        />
        <FormError message={error} />
        <Button type="submit" variant="primary" disabled={busy || !message.trim()} data-testid="ask-submit">
          {busy ? "Asking…" : "Ask"}
        </Button>
      </form>
    </section>
  );
}
