/**
 * Previous / Page n / Next links under a profile's or organization's repository list (page-number
 * links, `?page=n`; page 1 is the bare path). Renders nothing when there is only one page.
 */
import Link from "next/link";
import { Button } from "@/components/ui/button";

export function PageLinks({ page, hasNext, href }: { page: number; hasNext: boolean; href: (n: number) => string }) {
  if (page <= 1 && !hasNext) return null;
  return (
    <nav className="mt-4 flex items-center justify-between text-sm" aria-label="Pagination" data-testid="repo-pages">
      {page > 1 ? (
        <Button asChild>
          <Link href={href(page - 1)}>← Previous</Link>
        </Button>
      ) : (
        <span />
      )}
      <span className="text-subtle-foreground">Page {page}</span>
      {hasNext ? (
        <Button asChild>
          <Link href={href(page + 1)}>Next →</Link>
        </Button>
      ) : (
        <span />
      )}
    </nav>
  );
}
