/**
 * agent.status and agent.getModes (spec "Agent router"; docs/agent.md "Configuring a model").
 * Status reports the real configuration: the server's environment (server/ai/engine.ts
 * `serverProviderSettings`) and, with `repoId`, the engine the repository resolves to
 * (`resolveAiEngine`: its own AI key first). Without a model the agent is unavailable, and says
 * what to set.
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { serverProviderSettings } from "@/server/ai/engine";
import { resolveAiEngine } from "@/server/ai/resolve";
import { authorizeRepo } from "@/server/services/repos/access";

/** The environment variables that give the agent a model (docs/agent.md "Configuring a model"). */
export const MODEL_ENV_VARS = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL"] as const;

/** The message chat answers (PRECONDITION_FAILED) and the page shows when no model is configured. */
export const NO_MODEL_MESSAGE =
  "the coding agent needs a model and none is configured: set OPENAI_API_KEY (optionally OPENAI_MODEL), ANTHROPIC_API_KEY (optionally ANTHROPIC_MODEL), or OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama, and restart svc (docs/agent.md)";

export interface ProviderStatus {
  name: "openai" | "anthropic" | "openai-compatible";
  configured: boolean;
  models: string[];
}

export interface AgentStatus {
  available: boolean;
  providers: ProviderStatus[];
  defaultProvider?: string;
  defaultModel?: string;
  /** Where the default model's key comes from (extension). */
  source?: "server" | "repository";
  /** Environment variables that configure a model (extension). */
  env: readonly string[];
  /** Why the agent is unavailable (extension; absent when available). */
  message?: string;
}

/**
 * status {repoId?}: providers from the server's environment; the default from the engine the
 * repository (or the server) resolves to. A `repoId` is authorized for read (NOT_FOUND).
 */
export async function agentStatus(
  db: Db,
  actor: Actor | null,
  input: { repoId?: string } = {},
  env: Record<string, string | undefined> = process.env,
): Promise<AgentStatus> {
  if (input.repoId) await authorizeRepo(db, actor, { repoId: input.repoId }, "read");
  const settings = serverProviderSettings(env);
  const openai = settings.find((s) => s.provider === "openai" && !s.baseUrl);
  const compatible = settings.find((s) => s.provider === "openai" && s.baseUrl);
  const anthropic = settings.find((s) => s.provider === "anthropic");
  const models = (s: { model?: string } | undefined, fallback: string) => (s ? [s.model || fallback] : []);
  const providers: ProviderStatus[] = [
    { name: "openai", configured: Boolean(openai), models: models(openai, "gpt-4o-mini") },
    { name: "anthropic", configured: Boolean(anthropic), models: models(anthropic, "claude-sonnet-4-5") },
    { name: "openai-compatible", configured: Boolean(compatible), models: compatible?.model ? [compatible.model] : [] },
  ];
  const engine = await resolveAiEngine(db, input.repoId);
  if (engine.kind !== "model") return { available: false, providers, env: MODEL_ENV_VARS, message: NO_MODEL_MESSAGE };
  return {
    available: true,
    providers,
    defaultProvider: engine.provider,
    defaultModel: engine.modelId,
    source: engine.source,
    env: MODEL_ENV_VARS,
  };
}

export interface AgentModeInfo {
  id: "pm" | "code";
  name: string;
  description: string;
  capabilities: string[];
}

const MODES: AgentModeInfo[] = [
  {
    id: "pm",
    name: "Product manager",
    description: "Documentation, plans, tickets, explaining the architecture, specifications.",
    capabilities: [
      "read files",
      "search code",
      "read issues and pull requests",
      "propose Markdown and documentation changes",
      "propose issues",
    ],
  },
  {
    id: "code",
    name: "Coder",
    description: "Implementing features, fixing bugs, refactoring, tests, review suggestions.",
    capabilities: ["read files", "search code", "read issues and pull requests", "propose file changes (create, modify, delete)"],
  },
];

/** getModes → pm and code, each with name, description and capabilities. */
export function getModes(): AgentModeInfo[] {
  return MODES.map((m) => ({ ...m, capabilities: [...m.capabilities] }));
}

/** For the chat path: PRECONDITION_FAILED naming the variables when the repository resolves to no model. */
export async function requireModel(db: Db, repoId: string) {
  const engine = await resolveAiEngine(db, repoId);
  if (engine.kind !== "model") throw new AppError("PRECONDITION_FAILED", NO_MODEL_MESSAGE);
  return engine;
}
