/**
 * Which engine wrote an AI output (every AI output a user sees is labelled; docs/ai.md):
 * "Written by the local engine" or "Written by openai:gpt-4o-mini". `engine` is the output's
 * `engine` field ("local" or "<provider>:<model>").
 */
import { Badge } from "@/components/ui/badge";

/** The sentence for an engine label, e.g. "Written by the local engine". */
export function engineText(engine: string, verb = "Written"): string {
  return `${verb} by ${engine === "local" ? "the local engine" : engine}`;
}

export function EngineLabel({ engine, verb, testId = "ai-engine-label" }: { engine: string; verb?: string; testId?: string }) {
  return (
    <Badge
      tone={engine === "local" ? "neutral" : "primary"}
      data-testid={testId}
      data-engine={engine}
      className="max-w-full [overflow-wrap:anywhere]"
    >
      {engineText(engine, verb)}
    </Badge>
  );
}
