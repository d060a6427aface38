-- AlterTable
ALTER TABLE "SearchIndex" ADD COLUMN     "chunker" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "SearchBlob" ADD COLUMN     "chunker" INTEGER NOT NULL DEFAULT 1;

