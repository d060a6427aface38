-- AlterTable
ALTER TABLE "SearchIndex" ADD COLUMN     "embeddingError" TEXT,
ADD COLUMN     "embeddingFailedAt" TIMESTAMP(3);

