/**
 * Markdown of issue bodies and comments, for server and client components alike: the shared
 * renderer (components/markdown/renderer.tsx: GFM, sanitized raw HTML, heading anchors) without
 * repository-relative URL resolution and without syntax highlighting (shiki is server-only).
 */
import { MarkdownRenderer } from "@/components/markdown/renderer";

export function IssueMarkdown({ source, testId = "markdown" }: { source: string; testId?: string }) {
  return <MarkdownRenderer source={source} className="text-sm" testId={testId} />;
}
