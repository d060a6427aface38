-- Full-text search over issue titles and bodies (issue #7; docs/issues.md "Search").
-- Written by hand: Prisma's schema language has no virtual tables or triggers, so these objects
-- are not in schema.prisma and `prisma migrate diff` between schemas never touches them.
--
-- "IssueSearchDoc" holds one row per issue with a stable INTEGER rowid (an Issue's own rowid may
-- change on VACUUM, its primary key is TEXT); the FTS5 table "IssueSearch" indexes it as an
-- external-content table (porter stemming, unicode61 tokenizer keeping diacritics, as
-- PostgreSQL's english configuration does). Triggers on "Issue" keep the
-- documents in the same transaction as every insert, title/body update and delete; triggers on
-- the documents keep the index.
CREATE TABLE "IssueSearchDoc" (
    "rowid" INTEGER NOT NULL PRIMARY KEY,
    "issueId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL
);
CREATE UNIQUE INDEX "IssueSearchDoc_issueId_key" ON "IssueSearchDoc"("issueId");

CREATE VIRTUAL TABLE "IssueSearch" USING fts5(
    "title", "body",
    content='IssueSearchDoc', content_rowid='rowid',
    tokenize='porter unicode61 remove_diacritics 0'
);

CREATE TRIGGER "IssueSearchDoc_ai" AFTER INSERT ON "IssueSearchDoc" BEGIN
    INSERT INTO "IssueSearch"(rowid, "title", "body") VALUES (new."rowid", new."title", new."body");
END;
CREATE TRIGGER "IssueSearchDoc_ad" AFTER DELETE ON "IssueSearchDoc" BEGIN
    INSERT INTO "IssueSearch"("IssueSearch", rowid, "title", "body") VALUES ('delete', old."rowid", old."title", old."body");
END;
CREATE TRIGGER "IssueSearchDoc_au" AFTER UPDATE ON "IssueSearchDoc" BEGIN
    INSERT INTO "IssueSearch"("IssueSearch", rowid, "title", "body") VALUES ('delete', old."rowid", old."title", old."body");
    INSERT INTO "IssueSearch"(rowid, "title", "body") VALUES (new."rowid", new."title", new."body");
END;

CREATE TRIGGER "Issue_search_ai" AFTER INSERT ON "Issue" BEGIN
    INSERT INTO "IssueSearchDoc"("issueId", "title", "body") VALUES (new."id", new."title", COALESCE(new."body", ''));
END;
CREATE TRIGGER "Issue_search_au" AFTER UPDATE OF "title", "body" ON "Issue" BEGIN
    UPDATE "IssueSearchDoc" SET "title" = new."title", "body" = COALESCE(new."body", '') WHERE "issueId" = new."id";
END;
CREATE TRIGGER "Issue_search_ad" AFTER DELETE ON "Issue" BEGIN
    DELETE FROM "IssueSearchDoc" WHERE "issueId" = old."id";
END;

-- Existing issues (the document trigger indexes them).
INSERT INTO "IssueSearchDoc"("issueId", "title", "body") SELECT "id", "title", COALESCE("body", '') FROM "Issue";
