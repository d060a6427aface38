-- CreateTable
CREATE TABLE "SearchIndex" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "repoId" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "commitSha" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "fileCount" INTEGER NOT NULL DEFAULT 0,
    "chunkCount" INTEGER NOT NULL DEFAULT 0,
    "embeddingModel" TEXT,
    "indexedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "SearchIndex_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SearchFile" (
    "indexId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blobOid" TEXT NOT NULL,

    PRIMARY KEY ("indexId", "path"),
    CONSTRAINT "SearchFile_indexId_fkey" FOREIGN KEY ("indexId") REFERENCES "SearchIndex" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SearchBlob" (
    "oid" TEXT NOT NULL PRIMARY KEY,
    "language" TEXT,
    "chunkCount" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "SearchChunk" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "blobOid" TEXT NOT NULL,
    "startLine" INTEGER NOT NULL,
    "endLine" INTEGER NOT NULL,
    "chunkType" TEXT NOT NULL,
    "name" TEXT,
    "language" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "nameText" TEXT NOT NULL,
    "docText" TEXT NOT NULL,
    "bodyText" TEXT NOT NULL,
    CONSTRAINT "SearchChunk_blobOid_fkey" FOREIGN KEY ("blobOid") REFERENCES "SearchBlob" ("oid") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SearchEmbedding" (
    "chunkId" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "vector" BLOB NOT NULL,

    PRIMARY KEY ("chunkId", "model"),
    CONSTRAINT "SearchEmbedding_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "SearchChunk" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "SearchIndex_repoId_branch_key" ON "SearchIndex"("repoId", "branch");

-- CreateIndex
CREATE INDEX "SearchFile_blobOid_idx" ON "SearchFile"("blobOid");

-- CreateIndex
CREATE INDEX "SearchChunk_blobOid_idx" ON "SearchChunk"("blobOid");


-- Written by hand (Prisma's schema language has no virtual tables or triggers; docs/ai.md
-- "Semantic search"): the FTS5 index over chunks, an external-content table on "SearchChunk"
-- (rowid = id). Porter stemming over unicode61 words; the columns hold identifier-split words
-- (parseQueryString → "parse query string parsequerystring"), written by the indexer.
-- Chunks are never updated (a blob's chunks are immutable), only inserted and deleted.
CREATE VIRTUAL TABLE "SearchChunkFts" USING fts5(
    "nameText", "docText", "bodyText",
    content='SearchChunk', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 0'
);
CREATE TRIGGER "SearchChunk_fts_ai" AFTER INSERT ON "SearchChunk" BEGIN
    INSERT INTO "SearchChunkFts"(rowid, "nameText", "docText", "bodyText") VALUES (new."id", new."nameText", new."docText", new."bodyText");
END;
CREATE TRIGGER "SearchChunk_fts_ad" AFTER DELETE ON "SearchChunk" BEGIN
    INSERT INTO "SearchChunkFts"("SearchChunkFts", rowid, "nameText", "docText", "bodyText") VALUES ('delete', old."id", old."nameText", old."docText", old."bodyText");
END;
