import type { Metadata } from "next";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { notFound } from "next/navigation";
import { MarkdownRenderer } from "@/components/markdown/renderer";
import { card, container, cx } from "@/components/ui/styles";
import { getConfig } from "@/server/config";

type Params = Promise<{ topic: string }>;

/** The documents served here: docs/<topic>.md of the running svc ("help" is a reserved username). */
const TOPIC_RE = /^[a-z][a-z0-9-]{0,40}$/;

async function readDoc(topic: string): Promise<string | null> {
  if (!TOPIC_RE.test(topic)) return null;
  try {
    return await readFile(path.join(/* turbopackIgnore: true */ getConfig().appRoot, "docs", `${topic}.md`), "utf8");
  } catch {
    return null;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { topic } = await params;
  return { title: `Help · ${topic}` };
}

/**
 * /help/<topic>: svc's own documentation (docs/<topic>.md), e.g. /help/agent for "Configuring a
 * model" that the agent page links to when no model is configured. Unknown topics 404.
 */
export default async function HelpPage({ params }: { params: Params }) {
  const { topic } = await params;
  const source = await readDoc(topic);
  if (source === null) notFound();
  return (
    <div className={cx(container, "py-6")}>
      <article className={cx(card, "px-6 py-5 sm:px-8")} data-testid="help-page">
        <MarkdownRenderer source={source} testId="help-markdown" />
      </article>
    </div>
  );
}
