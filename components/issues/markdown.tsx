/**
 * Markdown of issue bodies and comments, for server and client components alike: the shared
 * renderer (components/markdown/renderer.tsx: GFM, sanitized raw HTML, heading anchors) without
 * repository-relative URL resolution and without syntax highlighting (shiki is server-only).
 * With `repo`, `#N` links to the repository's issue N and `@user` to the user's profile.
 */
import { MarkdownRenderer } from "@/components/markdown/renderer";

export function IssueMarkdown({
  source,
  testId = "markdown",
  repo,
}: {
  source: string;
  testId?: string;
  repo?: { owner: string; name: string };
}) {
  return (
    <MarkdownRenderer
      source={source}
      className="text-sm"
      testId={testId}
      refs={repo ? { owner: repo.owner, repo: repo.name } : undefined}
    />
  );
}
