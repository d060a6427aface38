-- AlterTable
ALTER TABLE "SearchIndex" ADD COLUMN "embeddingError" TEXT;
ALTER TABLE "SearchIndex" ADD COLUMN "embeddingFailedAt" DATETIME;

