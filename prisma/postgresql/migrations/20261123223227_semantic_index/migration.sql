-- CreateTable
CREATE TABLE "SearchIndex" (
    "id" TEXT NOT NULL,
    "repoId" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "commitSha" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "fileCount" INTEGER NOT NULL DEFAULT 0,
    "chunkCount" INTEGER NOT NULL DEFAULT 0,
    "embeddingModel" TEXT,
    "indexedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SearchIndex_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SearchFile" (
    "indexId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blobOid" TEXT NOT NULL,

    CONSTRAINT "SearchFile_pkey" PRIMARY KEY ("indexId","path")
);

-- CreateTable
CREATE TABLE "SearchBlob" (
    "oid" TEXT NOT NULL,
    "language" TEXT,
    "chunkCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SearchBlob_pkey" PRIMARY KEY ("oid")
);

-- CreateTable
CREATE TABLE "SearchChunk" (
    "id" SERIAL NOT NULL,
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

    CONSTRAINT "SearchChunk_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SearchEmbedding" (
    "chunkId" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "vector" BYTEA NOT NULL,

    CONSTRAINT "SearchEmbedding_pkey" PRIMARY KEY ("chunkId","model")
);

-- CreateIndex
CREATE UNIQUE INDEX "SearchIndex_repoId_branch_key" ON "SearchIndex"("repoId", "branch");

-- CreateIndex
CREATE INDEX "SearchFile_blobOid_idx" ON "SearchFile"("blobOid");

-- CreateIndex
CREATE INDEX "SearchChunk_blobOid_idx" ON "SearchChunk"("blobOid");

-- AddForeignKey
ALTER TABLE "SearchIndex" ADD CONSTRAINT "SearchIndex_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SearchFile" ADD CONSTRAINT "SearchFile_indexId_fkey" FOREIGN KEY ("indexId") REFERENCES "SearchIndex"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SearchChunk" ADD CONSTRAINT "SearchChunk_blobOid_fkey" FOREIGN KEY ("blobOid") REFERENCES "SearchBlob"("oid") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SearchEmbedding" ADD CONSTRAINT "SearchEmbedding_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "SearchChunk"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Written by hand (not expressible in schema.prisma; docs/ai.md "Semantic search"): a stored
-- generated tsvector over the identifier-split words, weighted name A, doc comments B, body D,
-- english stemming, with a GIN index. Prisma's client never reads it.
ALTER TABLE "SearchChunk" ADD COLUMN "tsv" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, "nameText"), 'A') ||
    setweight(to_tsvector('english'::regconfig, "docText"), 'B') ||
    setweight(to_tsvector('english'::regconfig, "bodyText"), 'D')
) STORED;
CREATE INDEX "SearchChunk_tsv_idx" ON "SearchChunk" USING GIN ("tsv");
