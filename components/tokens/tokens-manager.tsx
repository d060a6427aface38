"use client";
/**
 * Personal access tokens: create, show the secret once, list, revoke. Talks to the REST endpoints
 * /api/tokens with the browser's session cookie (docs/api.md "Token endpoints").
 */
import { useCallback, useEffect, useState } from "react";
import { badge, button, card, cx, hint, input, label } from "@/components/ui/styles";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";
import { AlertIcon, KeyIcon } from "@/components/ui/icons";
import { fullDate, relativeTime, shortDate } from "@/components/ui/format";
import { DEFAULT_EXPIRY, EXPIRY_OPTIONS, apiErrorMessage } from "./api-error";

export interface TokenRecord {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  expired: boolean;
}

interface ScopeInfo {
  name: string;
  description: string;
}

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, {
    credentials: "same-origin",
    cache: "no-store",
    ...init,
    headers: { "content-type": "application/json", ...init?.headers },
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text().catch(() => "");
  if (!res.ok) throw new Error(apiErrorMessage(res.status, text));
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`the server sent an unreadable answer (${res.status})`);
  }
}

/** `initialTokens`: the list as the server rendered it (no loading flash); refreshed after changes. */
export function TokensManager({
  scopes,
  defaultScopes,
  initialTokens,
}: {
  scopes: ScopeInfo[];
  defaultScopes: string[];
  initialTokens?: TokenRecord[];
}) {
  const [tokens, setTokens] = useState<TokenRecord[] | null>(initialTokens ?? null);
  const [loadError, setLoadError] = useState<string>();
  const [created, setCreated] = useState<(TokenRecord & { token: string }) | null>(null);
  const [revoking, setRevoking] = useState<TokenRecord | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [revokeError, setRevokeError] = useState<string>();

  const load = useCallback(async () => {
    try {
      setTokens(await api<TokenRecord[]>("/api/tokens"));
      setLoadError(undefined);
    } catch (e) {
      setLoadError((e as Error).message);
    }
  }, []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a fetch when the server sent no list: load() sets state once the request settles
    if (!initialTokens) void load();
  }, [load, initialTokens]);

  async function confirmRevoke() {
    if (!revoking) return;
    setRevokeBusy(true);
    setRevokeError(undefined);
    try {
      await api<void>(`/api/tokens/${encodeURIComponent(revoking.id)}`, { method: "DELETE" });
      setTokens((list) => list?.filter((t) => t.id !== revoking.id) ?? null);
      if (created?.id === revoking.id) setCreated(null);
      setRevoking(null);
    } catch (e) {
      setRevokeError((e as Error).message);
    } finally {
      setRevokeBusy(false);
    }
  }

  return (
    <div className="space-y-8">
      {created && <NewTokenBox token={created} onDismiss={() => setCreated(null)} />}

      <CreateTokenForm
        scopes={scopes}
        defaultScopes={defaultScopes}
        onCreated={(t) => {
          setCreated(t);
          const { token: _secret, ...record } = t;
          setTokens((list) => [record, ...(list ?? [])]);
          window.scrollTo({ top: 0, behavior: "smooth" });
        }}
      />

      <section>
        <h2 className="mb-3 text-lg font-semibold">Your tokens</h2>
        {loadError ? (
          <div className="space-y-3">
            <FormError message={loadError} />
            <button type="button" className={button.secondary} onClick={() => void load()}>
              Retry
            </button>
          </div>
        ) : tokens === null ? (
          <div className={cx(card, "px-4 py-8 text-center text-sm text-subtle-foreground")}>Loading tokens…</div>
        ) : tokens.length === 0 ? (
          <div className={cx(card, "px-4 py-8 text-center text-sm text-muted-foreground")} data-testid="no-tokens">
            You have no personal access tokens.
          </div>
        ) : (
          <ul className={cx(card, "divide-y divide-border")} data-testid="token-list">
            {tokens.map((t) => (
              <TokenRow
                key={t.id}
                token={t}
                onRevoke={() => {
                  setRevokeError(undefined);
                  setRevoking(t);
                }}
              />
            ))}
          </ul>
        )}
      </section>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke token?"
        confirmLabel="Revoke token"
        busy={revokeBusy}
        onCancel={() => setRevoking(null)}
        onConfirm={() => void confirmRevoke()}
      >
        <p>
          Scripts and git clients using <strong>{revoking?.name}</strong> (
          <code className="font-mono text-xs">svc_{revoking?.prefix}…</code>) will stop working immediately. This cannot be undone.
        </p>
        {revokeError && (
          <div className="mt-3">
            <FormError message={revokeError} />
          </div>
        )}
      </ConfirmDialog>
    </div>
  );
}

function NewTokenBox({ token, onDismiss }: { token: TokenRecord & { token: string }; onDismiss: () => void }) {
  return (
    <div className="rounded-lg border-2 border-primary bg-primary-muted p-4" data-testid="new-token">
      <div className="flex items-start gap-2">
        <KeyIcon className="mt-0.5 text-primary" />
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold text-primary">Token “{token.name}” created</h2>
          <p className="mt-1 flex items-center gap-1.5 text-sm font-medium text-warning" data-testid="new-token-warning">
            <AlertIcon className="text-warning" />
            Copy your token now. It will not be shown again.
          </p>
          <div className="mt-3 flex flex-wrap gap-2 sm:flex-nowrap">
            <input
              readOnly
              value={token.token}
              aria-label="New token"
              data-testid="new-token-value"
              onFocus={(e) => e.currentTarget.select()}
              className="min-w-0 flex-1 rounded-md border border-primary-border bg-card px-3 py-1.5 font-mono text-sm text-foreground"
            />
            <CopyButton text={token.token} label="Copy token" testId="copy-token" />
          </div>
          <p className="mt-2 text-xs text-primary">
            Use it as the password when git asks for credentials, or send{" "}
            <code className="font-mono">Authorization: Bearer &lt;token&gt;</code> to the API.
          </p>
        </div>
        <button type="button" className={cx(button.ghost, "px-2! py-1! text-xs")} onClick={onDismiss} aria-label="Dismiss">
          Done
        </button>
      </div>
    </div>
  );
}

function CreateTokenForm({
  scopes,
  defaultScopes,
  onCreated,
}: {
  scopes: ScopeInfo[];
  defaultScopes: string[];
  onCreated: (t: TokenRecord & { token: string }) => void;
}) {
  const [name, setName] = useState("");
  const [selected, setSelected] = useState<string[]>(defaultScopes);
  const [expiry, setExpiry] = useState<string>(DEFAULT_EXPIRY);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!name.trim()) return setError("give the token a name, e.g. the machine or script using it");
    if (selected.length === 0) return setError("select at least one scope");
    setBusy(true);
    try {
      const created = await api<TokenRecord & { token: string }>("/api/tokens", {
        method: "POST",
        body: JSON.stringify({ name: name.trim(), scopes: selected, expiresInDays: expiry ? Number(expiry) : null }),
      });
      onCreated(created);
      setName("");
      setSelected(defaultScopes);
      setExpiry(DEFAULT_EXPIRY);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={cx(card, "p-5")}>
      <h2 className="text-lg font-semibold">Create a token</h2>
      <p className="mt-1 text-sm text-muted-foreground">Tokens let git and scripts act as you, limited to the scopes you pick.</p>
      <form method="post" onSubmit={onSubmit} className="mt-4 space-y-5" noValidate data-testid="create-token-form">
        <FormError message={error} />
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <Field label="Name" id="token-name">
            <Input value={name} maxLength={100} placeholder="e.g. laptop git" onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Expiration" id="token-expiry">
            {/* a native select: the expiry list is short and the platform's picker suits phones */}
            <select
              id="token-expiry"
              className={input}
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
              data-testid="token-expiry"
            >
              {EXPIRY_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <fieldset>
          <legend className={label}>Scopes</legend>
          <p className={hint}>Write implies read; admin implies write.</p>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {scopes.map((s) => {
              const checked = selected.includes(s.name);
              return (
                <label
                  key={s.name}
                  className={cx(
                    "flex cursor-pointer items-start gap-3 rounded-md border p-3",
                    checked ? "border-primary-border bg-primary-muted/50" : "border-border hover:bg-muted",
                  )}
                >
                  <input
                    type="checkbox"
                    className="mt-0.5 accent-primary"
                    checked={checked}
                    data-testid={`scope-${s.name}`}
                    onChange={(e) => setSelected((cur) => (e.target.checked ? [...cur, s.name] : cur.filter((x) => x !== s.name)))}
                  />
                  <span>
                    <span className="block font-mono text-sm font-medium text-foreground">{s.name}</span>
                    <span className="block text-xs text-muted-foreground">{s.description}</span>
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
        <button type="submit" className={button.primary} disabled={busy || !hydrated} data-testid="create-token-submit">
          {busy ? "Generating…" : "Generate token"}
        </button>
      </form>
    </section>
  );
}

function TokenRow({ token, onRevoke }: { token: TokenRecord; onRevoke: () => void }) {
  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:px-5" data-testid="token-row" data-token-id={token.id}>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-foreground" data-testid="token-name">
            {token.name}
          </span>
          <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-muted-foreground" data-testid="token-prefix">
            svc_{token.prefix}…
          </code>
          {token.expired && (
            <span className={cx(badge, "border-danger-border bg-danger-muted text-danger")} data-testid="token-expired">
              Expired
            </span>
          )}
        </div>
        <div className="mt-1.5 flex flex-wrap gap-1">
          {token.scopes.map((s) => (
            <span key={s} className={cx(badge, "border-border bg-muted font-mono text-muted-foreground")}>
              {s}
            </span>
          ))}
        </div>
        <div className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1 text-xs text-subtle-foreground">
          <span data-testid="token-last-used" title={token.lastUsedAt ? fullDate(token.lastUsedAt) : undefined}>
            Last used {token.lastUsedAt ? relativeTime(token.lastUsedAt) : "never"}
          </span>
          <span title={token.expiresAt ? fullDate(token.expiresAt) : undefined}>
            {token.expiresAt ? `${token.expired ? "Expired" : "Expires"} ${shortDate(token.expiresAt)}` : "Never expires"}
          </span>
          <span title={fullDate(token.createdAt)}>Created {shortDate(token.createdAt)}</span>
        </div>
      </div>
      <button type="button" className={button.dangerOutline} onClick={onRevoke} data-testid="revoke-token">
        Revoke
      </button>
    </li>
  );
}
