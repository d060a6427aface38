"use client";
/**
 * Settings → Webhooks (docs/ui.md "Repository settings", docs/api.md "Webhooks"): a repository's
 * webhooks — add, edit (URL, secret, events, active), delete — and each hook's recent deliveries
 * (state, status, duration, event, time), expandable to the request and response, with Redeliver.
 * The secret is write-only: the form says whether one is set, never what it is.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/badge";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { Input } from "@/components/ui/input";
import { cx } from "@/components/ui/styles";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { DeliveryView, WebhookView } from "@/server/services/webhooks/view";
import type { WebhookEventName } from "@/server/services/webhooks/events";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { SUBSCRIBABLE_EVENTS } from "@/lib/webhooks/events";

const EVENTS = SUBSCRIBABLE_EVENTS;

function HookForm({ repoId, hook, onDone }: { repoId: string; hook?: WebhookView; onDone: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const hydrated = useHydrated();
  const create = useMutation(trpc.webhooks.create.mutationOptions());
  const update = useMutation(trpc.webhooks.update.mutationOptions());
  const [url, setUrl] = useState(hook?.url ?? "");
  const [secret, setSecret] = useState("");
  const [all, setAll] = useState(hook ? hook.events.includes("*") : false);
  const [events, setEvents] = useState<string[]>(hook ? hook.events.filter((e) => e !== "*") : ["push"]);
  const [active, setActive] = useState(hook?.active ?? true);
  const [error, setError] = useState<string>();
  const busy = create.isPending || update.isPending;

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    const chosen = (all ? ["*"] : events) as (WebhookEventName | "*")[];
    try {
      if (hook) await update.mutateAsync({ repoId, id: hook.id, url, events: chosen, active, ...(secret ? { secret } : {}) });
      else await create.mutateAsync({ repoId, url, events: chosen, active, ...(secret ? { secret } : {}) });
      await qc.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey({ repoId }) });
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const toggle = (name: string) => setEvents((cur) => (cur.includes(name) ? cur.filter((x) => x !== name) : [...cur, name]));
  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-3 rounded-md border border-border p-4" data-testid="webhook-form">
      <Field label="Payload URL" id={`hook-url-${hook?.id ?? "new"}`} hint="svc POSTs JSON here (Content-Type: application/json).">
        <Input
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://ci.example.com/hooks/svc"
          data-testid="webhook-url"
        />
      </Field>
      <Field
        label="Secret"
        id={`hook-secret-${hook?.id ?? "new"}`}
        hint={
          hook?.hasSecret
            ? "A secret is set; type a new one to replace it."
            : "Signs each delivery: X-Hub-Signature-256 (HMAC-SHA256 of the body)."
        }
      >
        <Input
          type="password"
          autoComplete="new-password"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          data-testid="webhook-secret"
        />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-foreground">Events</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="accent-primary" checked={all} onChange={() => setAll(!all)} data-testid="webhook-all-events" />
          Everything (<code>*</code>)
        </label>
        {!all && (
          <div className="flex flex-wrap gap-2">
            {EVENTS.map((name) => (
              <label key={name} className="inline-flex items-center gap-1.5 rounded-md border border-border px-2 py-1 text-sm">
                <input type="checkbox" className="accent-primary" checked={events.includes(name)} onChange={() => toggle(name)} />
                <code>{name}</code>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="accent-primary"
          checked={active}
          onChange={() => setActive(!active)}
          data-testid="webhook-active"
        />
        Active: deliver events
      </label>
      <FormError message={error} />
      <div className="flex gap-2">
        <Button type="submit" disabled={!hydrated || busy} data-testid="save-webhook">
          {busy ? "Saving…" : hook ? "Save webhook" : "Add webhook"}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

const stateTone = (d: Pick<DeliveryView, "state">) => (d.state === "delivered" ? "primary" : d.state === "failed" ? "danger" : "warning");

function Headers({ headers }: { headers: Record<string, string> | null }) {
  if (!headers) return null;
  return (
    <pre className="overflow-x-auto rounded bg-muted p-2 text-xs">
      {Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join("\n")}
    </pre>
  );
}

function Deliveries({ repoId, hookId }: { repoId: string; hookId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const list = useQuery({ ...trpc.webhooks.deliveries.queryOptions({ repoId, id: hookId, limit: 30 }), refetchInterval: 3_000 });
  const redeliver = useMutation(trpc.webhooks.redeliver.mutationOptions());
  const [error, setError] = useState<string>();
  if (list.isLoading) return <p className="text-sm text-muted-foreground">Loading deliveries…</p>;
  const rows = list.data ?? [];
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No deliveries in the last 14 days.</p>;
  return (
    <div className="space-y-2" data-testid="webhook-deliveries">
      <FormError message={error} />
      <ul className="divide-y divide-border rounded-md border border-border">
        {rows.map((d) => (
          <li key={d.id} data-testid="webhook-delivery">
            <details>
              <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2 text-sm">
                <Badge tone={stateTone(d)}>{d.state}</Badge>
                <span data-testid="delivery-status">{d.response.status ?? "—"}</span>
                <code>
                  {d.event}
                  {d.action ? `.${d.action}` : ""}
                </code>
                <span className="text-muted-foreground">{d.durationMs !== null ? `${d.durationMs} ms` : ""}</span>
                <time className="ml-auto text-muted-foreground" dateTime={d.createdAt}>
                  {new Date(d.createdAt).toLocaleString()}
                </time>
              </summary>
              <div className="space-y-2 px-3 pb-3 text-sm">
                <p className="text-muted-foreground">
                  Delivery <code>{d.guid}</code>, {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
                  {d.nextAttemptAt ? `, next at ${new Date(d.nextAttemptAt).toLocaleTimeString()}` : ""}
                </p>
                <h4 className="font-medium">Request</h4>
                <Headers headers={d.request.headers} />
                <pre className="max-h-64 overflow-auto rounded bg-muted p-2 text-xs">{d.request.body}</pre>
                <h4 className="font-medium">Response</h4>
                {d.response.error && <p className="text-danger">{d.response.error}</p>}
                <Headers headers={d.response.headers} />
                {d.response.body !== null && (
                  <pre className="max-h-40 overflow-auto rounded bg-muted p-2 text-xs" data-testid="delivery-response-body">
                    {d.response.body}
                  </pre>
                )}
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={redeliver.isPending}
                  data-testid="redeliver"
                  onClick={async () => {
                    setError(undefined);
                    try {
                      await redeliver.mutateAsync({ repoId, deliveryId: d.id });
                      await qc.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ repoId, id: hookId, limit: 30 }) });
                    } catch (err) {
                      setError(errorMessage(err));
                    }
                  }}
                >
                  Redeliver
                </Button>
              </div>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}

function HookRow({ repoId, hook }: { repoId: string; hook: WebhookView }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const del = useMutation(trpc.webhooks.delete.mutationOptions());
  const [editing, setEditing] = useState(false);
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  async function confirmDelete() {
    setError(undefined);
    try {
      await del.mutateAsync({ repoId, id: hook.id });
      setConfirming(false);
      await qc.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey({ repoId }) });
    } catch (err) {
      setConfirming(false);
      setError(errorMessage(err));
    }
  }
  if (editing) return <HookForm repoId={repoId} hook={hook} onDone={() => setEditing(false)} />;
  return (
    <li className="space-y-2 py-3" data-testid="webhook-row">
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 break-all text-sm" data-testid="webhook-row-url">
          {hook.url}
        </code>
        {!hook.active && <Badge>inactive</Badge>}
        {hook.lastDelivery && (
          <Badge tone={stateTone(hook.lastDelivery)}>last: {hook.lastDelivery.responseStatus ?? hook.lastDelivery.state}</Badge>
        )}
        <span className="text-xs text-muted-foreground">{hook.events.join(", ")}</span>
        <div className="ml-auto flex gap-2">
          <Button size="sm" variant="secondary" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="webhook-show-deliveries">
            {open ? "Hide deliveries" : "Recent deliveries"}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <Button size="sm" variant="dangerOutline" disabled={del.isPending} onClick={() => setConfirming(true)}>
            Delete
          </Button>
        </div>
      </div>
      <FormError message={error} />
      {open && <Deliveries repoId={repoId} hookId={hook.id} />}
      <ConfirmDialog
        open={confirming}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        busy={del.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setConfirming(false)}
      >
        svc stops sending events to {hook.url}, and its deliveries are deleted. This cannot be undone.
      </ConfirmDialog>
    </li>
  );
}

/** The webhooks section's body: the hooks of `repoId` (first drawn from `initial`) and the add form. */
export function WebhooksManager({ repoId, initial }: { repoId: string; initial: WebhookView[] }) {
  const trpc = useTRPC();
  const hooks = useQuery({ ...trpc.webhooks.list.queryOptions({ repoId }), initialData: initial });
  const [adding, setAdding] = useState(false);
  const rows = hooks.data ?? initial;
  return (
    <div className="space-y-4" data-testid="webhooks-manager">
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">No webhooks yet.</p>
      ) : (
        <ul className={cx("divide-y divide-border")}>
          {rows.map((h) => (
            <HookRow key={h.id} repoId={repoId} hook={h} />
          ))}
        </ul>
      )}
      {adding ? (
        <HookForm repoId={repoId} onDone={() => setAdding(false)} />
      ) : (
        <Button onClick={() => setAdding(true)} data-testid="add-webhook">
          Add webhook
        </Button>
      )}
    </div>
  );
}
