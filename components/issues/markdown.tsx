/**
 * Markdown of issue bodies and comments (react-markdown + remark-gfm), for server and client
 * components alike: raw HTML is not rendered and unsafe URLs are dropped (react-markdown's
 * defaults); links open in a new tab. No syntax highlighting (that is server-only shiki).
 */
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

const components: Components = {
  a: ({ href, children, node: _node, ...rest }) => (
    <a href={href} {...rest} rel="nofollow noopener noreferrer" target="_blank">
      {children}
    </a>
  ),
};

export function IssueMarkdown({ source, testId = "markdown" }: { source: string; testId?: string }) {
  return (
    <div className="markdown-body text-sm" data-testid={testId}>
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {source}
      </Markdown>
    </div>
  );
}
