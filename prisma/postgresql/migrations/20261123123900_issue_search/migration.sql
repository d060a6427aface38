-- Full-text search over issue titles and bodies (issue #7; docs/issues.md "Search").
-- Written by hand: an expression index is not expressible in schema.prisma, so `prisma migrate
-- diff` between schemas never touches it. The query (server/services/issues/query.ts,
-- PG_SEARCH_VECTOR) uses exactly this expression, so the planner uses the index; it is computed
-- from the row, so it is always in sync with every write.
CREATE INDEX "Issue_search_idx" ON "Issue" USING GIN (to_tsvector('english'::regconfig, "title" || ' ' || COALESCE("body", '')));
